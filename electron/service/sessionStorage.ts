// Where a Session's applies keep their backups and append their journal: the open workspace's own
// (its file's `backups` and `history`, else beside the file; a folder that is itself one destination
// uses the user's state folder), unless the Session was made with other places (the command line's
// --backup-dir, --history, --no-backup). One answer for every apply, restore, list and history read,
// so the app and the command line naming the same workspace share one journal and one backups folder.

import os from 'node:os';
import path from 'node:path';
import type { DestinationEntry, ResponseOf } from '../../shared/api';
import { fail } from '../../shared/apiError';
import { readHistory } from '../history/journal';
import { DEFAULT_BACKUP_KEEP, type BackupSettings } from '../../shared/backupSchema';
import { userBackupsFolder, workspaceBackupSettings } from '../backup/backupLocation';
import { userHistoryFile, workspaceHistoryFile } from '../history/journalPath';
import type { SessionContext, SessionStorage } from './sessionContext';

export type { SessionStorage } from './sessionContext';

function userState(storage: SessionStorage | undefined) {
  const env = storage?.env ?? process.env;
  const home = env.HOME ?? os.homedir();
  return { history: () => userHistoryFile(env, home), backups: () => userBackupsFolder(env, home) };
}

/** The journal of the open workspace (or, with none open, the user's own). */
export function journalOf(session: Pick<SessionContext, 'state' | 'options'>): string {
  const storage = session.options.storage;
  if (storage?.historyFile !== undefined) return storage.historyFile;
  const loaded = session.state.workspace?.loaded;
  const user = userState(storage);
  return loaded ? workspaceHistoryFile(loaded, user.history) : user.history();
}

/** Where the open workspace's applies keep what they remove (or, with none open, the user's state folder). */
export function backupSettingsOf(session: Pick<SessionContext, 'state' | 'options'>): BackupSettings {
  const storage = session.options.storage;
  if (storage?.backups !== undefined) return storage.backups;
  const loaded = session.state.workspace?.loaded;
  const user = userState(storage);
  return loaded ? workspaceBackupSettings(loaded, user.backups) : { enabled: true, folder: user.backups(), keep: DEFAULT_BACKUP_KEEP };
}

/** The journal as `history` answers it: all of it, or one destination's records (by id, and by path for records written without one). */
export async function historyOf(
  session: Pick<SessionContext, 'state' | 'options'>,
  entry: DestinationEntry | undefined,
): Promise<ResponseOf<'history'>> {
  const read = await readHistory(journalOf(session));
  if (!read.ok) throw fail('history_unreadable', read.error.message);
  if (!entry) return read.value;
  const records = read.value.records.filter(
    (record) => record.destination.id === entry.id || path.resolve(record.destination.path) === path.resolve(entry.path),
  );
  return { ...read.value, records };
}
