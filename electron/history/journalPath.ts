// history/: where a workspace's history journal is. Beside the workspace file by default (so that the
// app, the browser host and the CLI naming the same workspace share it), where the file says if it
// says, and never inside a destination (a forced replace would delete it, and it would show as an
// extra file): a folder workspace that is itself one destination, and the CLI without a workspace,
// use the user's own state folder. Pure but for the defaults read from the process.

import os from 'node:os';
import path from 'node:path';
import type { LoadedWorkspace } from '../../shared/workspaceSchema';

export const HISTORY_FILE_NAME = '.inspector-history.jsonl';
/** The app's folder in the user's folders (the demo's cache folder has the same name). */
const APP_FOLDER = 'distributor-inspector';

/** `$XDG_STATE_HOME/distributor-inspector/history.jsonl`, else `~/.local/state/…`, `~/Library/Application Support/…`, `%LOCALAPPDATA%\…`. */
export function userHistoryFile(
  env: Record<string, string | undefined> = process.env,
  home: string = os.homedir(),
  platform: NodeJS.Platform = process.platform,
): string {
  const xdg = env.XDG_STATE_HOME;
  let state: string;
  if (xdg && path.isAbsolute(xdg)) state = xdg;
  else if (platform === 'darwin') state = path.join(home, 'Library', 'Application Support');
  else if (platform === 'win32')
    state = env.LOCALAPPDATA && path.win32.isAbsolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : path.join(home, 'AppData', 'Local');
  else state = path.join(home, '.local', 'state');
  return path.join(state, APP_FOLDER, 'history.jsonl');
}

function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

export function workspaceHistoryFile(
  workspace: Pick<LoadedWorkspace, 'kind' | 'root' | 'destinations' | 'historyFile'>,
  fallback = userHistoryFile,
): string {
  if (workspace.historyFile) return workspace.historyFile;
  const beside = path.join(workspace.root, HISTORY_FILE_NAME);
  return workspace.destinations.some((destination) => isInside(destination.path, beside)) ? fallback() : beside;
}
