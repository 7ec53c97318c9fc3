// backup/: may be imported by operations/, service/, cli/ and tests. Where a workspace keeps its
// backups: the file's `backups` (a folder, how many to keep, or off), else `.inspector-backups` beside
// the workspace file (or in the folder of destinations), and never inside a destination (a forced
// replace would delete them): a folder that is itself one destination, and the CLI without a
// workspace, use the user's own state folder. Each destination has a folder of its own there, and
// each backup a folder named for its UTC time. Pure but for the defaults read from the process.

import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { BACKUPS_FOLDER_NAME, DEFAULT_BACKUP_KEEP, type BackupSettings } from '../../shared/backupSchema';
import type { LoadedWorkspace } from '../../shared/workspaceSchema';
import { isInsideOrEqual } from '../engine/pathInside';
import { userAppFolder } from '../engine/userFolders';

export { BACKUPS_FOLDER_NAME };

/** `$XDG_STATE_HOME/distributor-inspector/backups`, else `~/.local/state/…` and the platform's like. */
export function userBackupsFolder(
  env: Record<string, string | undefined> = process.env,
  home: string = os.homedir(),
  platform: NodeJS.Platform = process.platform,
): string {
  return path.join(userAppFolder('state', env, home, platform), 'backups');
}

export function workspaceBackupSettings(
  workspace: Pick<LoadedWorkspace, 'root' | 'destinations' | 'backups'>,
  fallback: () => string = userBackupsFolder,
): BackupSettings {
  const configured = workspace.backups;
  if (configured?.off) return { enabled: false };
  const keep = configured?.keep ?? DEFAULT_BACKUP_KEEP;
  if (configured?.folder !== undefined) return { enabled: true, folder: configured.folder, keep };
  const beside = path.join(workspace.root, BACKUPS_FOLDER_NAME);
  const inside = workspace.destinations.some((destination) => isInsideOrEqual(beside, destination.path));
  return { enabled: true, folder: inside ? fallback() : beside, keep };
}

/**
 * The folder of one destination's backups: its workspace id, made a safe single name (`/` and other
 * specials percent-encoded, no leading dot); without an id, the folder's name and a hash of its path.
 */
export function destinationBackupsFolder(root: string, destination: { id?: string; path: string }): string {
  const name =
    destination.id !== undefined && destination.id !== ''
      ? encodeURIComponent(destination.id)
      : `${encodeURIComponent(path.basename(destination.path) || 'root')}-${createHash('sha256').update(path.resolve(destination.path)).digest('hex').slice(0, 8)}`;
  return path.join(
    root,
    name.replace(/^\.+/, (dots) => '%2E'.repeat(dots.length)),
  );
}

/** `2026-12-04T062000.123Z`: the UTC time, sortable, and a valid file name everywhere (no colon). */
export function backupIdAt(now: Date): string {
  return now.toISOString().replace(/:/g, '');
}

export { isBackupId } from '../../shared/backupId';
