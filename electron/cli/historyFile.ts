// Which history journal a command reads or appends to: `--history FILE` as given; else the journal of
// `--workspace W` (beside its workspace file, or where the file says), the one the app and the browser
// host use for that workspace; else the user's own journal in their state folder.

import os from 'node:os';
import path from 'node:path';
import { loadWorkspace } from '../engine/workspace';
import { userHistoryFile, workspaceHistoryFile } from '../history/journalPath';
import { formatIssuePath } from '../../shared/issues';
import { CliError, type CliIo } from './command';
import { printable } from './terminalText';

export const historyOptions = { history: { type: 'string' }, workspace: { type: 'string' } } as const;

export async function historyFileOf(options: Record<string, string | boolean | undefined>, io: CliIo): Promise<string> {
  const given = options.history;
  const workspace = options.workspace;
  if (given !== undefined && workspace !== undefined) throw new CliError('give --history FILE or --workspace W, not both');
  if (given !== undefined) {
    if (typeof given !== 'string' || given.trim() === '') throw new CliError('--history needs a file');
    return path.resolve(io.cwd, given);
  }
  if (workspace !== undefined) {
    if (typeof workspace !== 'string' || workspace.trim() === '') throw new CliError('--workspace needs a folder or a workspace file');
    const load = await loadWorkspace(path.resolve(io.cwd, workspace));
    if (!load.ok) {
      const first = load.issues[0];
      throw new CliError(
        `${printable(load.file)}: ${first ? `${printable(formatIssuePath(first.path))}: ${printable(first.message)}` : 'cannot be opened'}`,
      );
    }
    return workspaceHistoryFile(load.workspace, () => userHistoryFile(io.env, io.env.HOME ?? os.homedir()));
  }
  return userHistoryFile(io.env, io.env.HOME ?? os.homedir());
}
