// history/: where a workspace's history journal is. Beside the workspace file by default (so that the
// app, the browser host and the CLI naming the same workspace share it), where the file says if it
// says, and never inside a destination (a forced replace would delete it, and it would show as an
// extra file): a folder workspace that is itself one destination, and the CLI without a workspace,
// use the user's own state folder. Pure but for the defaults read from the process.

import os from 'node:os';
import path from 'node:path';
import type { LoadedWorkspace } from '../../shared/workspaceSchema';
import { problem, type Problem } from '../../shared/result';
import { containsByIdentity, isInsideOrEqual } from '../engine/pathInside';
import { userAppFolder } from '../engine/userFolders';

export const HISTORY_FILE_NAME = '.inspector-history.jsonl';

/** `$XDG_STATE_HOME/distributor-inspector/history.jsonl`, else `~/.local/state/…`, `~/Library/Application Support/…`, `%LOCALAPPDATA%\\…`. */
export function userHistoryFile(
  env: Record<string, string | undefined> = process.env,
  home: string = os.homedir(),
  platform: NodeJS.Platform = process.platform,
): string {
  return path.join(userAppFolder('state', env, home, platform), 'history.jsonl');
}

export function workspaceHistoryFile(
  workspace: Pick<LoadedWorkspace, 'kind' | 'root' | 'destinations' | 'historyFile'>,
  fallback = userHistoryFile,
): string {
  if (workspace.historyFile) return workspace.historyFile;
  const beside = path.join(workspace.root, HISTORY_FILE_NAME);
  return workspace.destinations.some((destination) => isInsideOrEqual(beside, destination.path)) ? fallback() : beside;
}

/**
 * Why an apply to `destinationPath` must not run while `file` is its journal: the journal lies inside
 * that destination (by real path, or by device and inode of a folder on its way up: also through a
 * link or a bind mount swapped in since the workspace was loaded), so the apply could delete it or the
 * record of the apply would land in the destination. Undefined when it lies outside.
 */
export async function journalInsideDestination(file: string, destinationPath: string): Promise<Problem | undefined> {
  if (!(await containsByIdentity(destinationPath, file))) return undefined;
  return problem(
    'history_inside_destination',
    `the history journal ${file} is inside the destination ${destinationPath} (compared by real path and inode, so also through a link): an apply there could delete the record of what it did; keep the journal outside every destination`,
  );
}
