// Where a Session's applies keep their backups and append their journal: the open workspace's own
// (its file's `backups` and `history`, else beside the file; a folder that is itself one destination
// uses the user's state folder), unless the Session was made with other places (the command line's
// --backup-dir, --history, --no-backup). One answer for every apply, restore, list and history read,
// so the app and the command line naming the same workspace share one journal and one backups folder.

import os from 'node:os';
import { DEFAULT_BACKUP_KEEP, type BackupSettings } from '../../shared/backupSchema';
import { userBackupsFolder, workspaceBackupSettings } from '../backup/backupLocation';
import { userHistoryFile, workspaceHistoryFile } from '../history/journalPath';
import type { SessionContext } from './sessionContext';

/** Places that override the workspace's; `env` is the environment the user's state folder is read from. */
export interface SessionStorage {
  /** The journal every apply appends to and `history` reads (--history FILE). */
  historyFile?: string;
  /** Where applies keep backups (--backup-dir DIR), or off (--no-backup). */
  backups?: BackupSettings;
  /** XDG_STATE_HOME and HOME as the user running the command has them (default: this process's). */
  env?: Record<string, string | undefined>;
}

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
