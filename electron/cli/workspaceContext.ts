// Which workspace a command works in, found the same way by every command (as kubectl and git find
// theirs): `--workspace W`, else $DISTRIBUTOR_INSPECTOR_WORKSPACE, else the nearest
// distributor-inspector.json in the current folder or above it, else none. Reads only whether a file
// is there; the workspace itself is opened by the service, which names a bad file and its field.

import { statSync } from 'node:fs';
import path from 'node:path';
import { WORKSPACE_FILE_NAME } from '../../shared/workspaceFile';
import { CliError, type CliIo } from './command';

export const WORKSPACE_ENV = 'DISTRIBUTOR_INSPECTOR_WORKSPACE';

export interface WorkspaceContext {
  /** The folder or workspace file, absolute. */
  path: string;
  /** How it was found: said in messages, and whether a DEST outside it may look for its own. */
  how: 'option' | 'env' | 'found';
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The nearest distributor-inspector.json in `folder` or above it. */
export function nearestWorkspaceFile(folder: string): string | undefined {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, WORKSPACE_FILE_NAME);
    if (isFile(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The workspace of this command, or undefined when it runs without one. */
export function findWorkspace(
  options: Record<string, string | boolean | undefined>,
  io: Pick<CliIo, 'cwd' | 'env'>,
): WorkspaceContext | undefined {
  const given = options.workspace;
  if (given !== undefined) {
    if (typeof given !== 'string' || given.trim() === '') throw new CliError('--workspace needs a folder or a workspace file');
    return { path: path.resolve(io.cwd, given), how: 'option' };
  }
  const fromEnv = io.env[WORKSPACE_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { path: path.resolve(io.cwd, fromEnv), how: 'env' };
  const found = nearestWorkspaceFile(io.cwd);
  return found === undefined ? undefined : { path: found, how: 'found' };
}

/** How a message names where the workspace came from. */
export function workspaceOrigin(context: WorkspaceContext): string {
  if (context.how === 'option') return '--workspace';
  if (context.how === 'env') return `$${WORKSPACE_ENV}`;
  return 'found from the current folder';
}
