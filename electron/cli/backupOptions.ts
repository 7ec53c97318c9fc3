// Where the command line keeps backups: `--backup-dir DIR` as given (the last 5 per destination);
// else the workspace of `--workspace W` (its file's `backups`, else `.inspector-backups` beside it),
// the folder the app and the browser host use for that workspace; else off: a bare DEST names no
// workspace, and a backup is never put inside a destination or somewhere the operator did not choose.
// The destination's workspace id (when DEST is one of the workspace's) names its folder of backups.

import path from 'node:path';
import { DEFAULT_BACKUP_KEEP, type BackupSettings } from '../../shared/backupSchema';
import { formatIssuePath } from '../../shared/issues';
import type { LoadedWorkspace } from '../../shared/workspaceSchema';
import { workspaceBackupSettings } from '../backup/backupLocation';
import { loadWorkspace } from '../engine/workspace';
import { CliError, type CliIo } from './command';
import { printable } from './terminalText';

export const backupOptions = { 'backup-dir': { type: 'string' }, workspace: { type: 'string' } } as const;

export interface CliBackups {
  settings: BackupSettings;
  /** Why backups are off, in words for the plan's text. */
  offReason?: string;
  workspace?: LoadedWorkspace;
}

/** The workspace `--workspace` names, loaded; a file that does not load is an input error naming the file and the field. */
export async function cliWorkspace(value: string | boolean | undefined, io: CliIo): Promise<LoadedWorkspace | undefined> {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new CliError('--workspace needs a folder or a workspace file');
  const load = await loadWorkspace(path.resolve(io.cwd, value));
  if (!load.ok) {
    const first = load.issues[0];
    throw new CliError(
      `${printable(load.file)}: ${first ? `${printable(formatIssuePath(first.path))}: ${printable(first.message)}` : 'cannot be opened'}`,
    );
  }
  return load.workspace;
}

export async function cliBackups(options: Record<string, string | boolean | undefined>, io: CliIo): Promise<CliBackups> {
  const given = options['backup-dir'];
  const workspace = await cliWorkspace(options.workspace, io);
  if (given !== undefined) {
    if (typeof given !== 'string' || given.trim() === '') throw new CliError('--backup-dir needs a folder');
    const keep = workspace ? workspaceBackupSettings(workspace) : undefined;
    return {
      settings: { enabled: true, folder: path.resolve(io.cwd, given), keep: keep?.enabled ? keep.keep : DEFAULT_BACKUP_KEEP },
      ...(workspace ? { workspace } : {}),
    };
  }
  if (workspace) {
    const settings = workspaceBackupSettings(workspace);
    return settings.enabled ? { settings, workspace } : { settings, workspace, offReason: 'the workspace file says "backups": "off"' };
  }
  return { settings: { enabled: false }, offReason: 'no --workspace or --backup-dir was given' };
}

/** DEST's id in the workspace, when it is one of its destinations. */
export function workspaceIdOf(workspace: LoadedWorkspace | undefined, destinationPath: string): string | undefined {
  const wanted = path.resolve(destinationPath);
  return workspace?.destinations.find((destination) => path.resolve(destination.path) === wanted)?.id;
}
