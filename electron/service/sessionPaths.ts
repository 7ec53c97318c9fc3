// Two small rules of the Session: a path the operator typed made absolute by the one rule
// (engine/userPath.ts: `~` the engine user's home, relative to the open workspace's folder, never the
// working directory), and the electron-only methods answering not_available outside the desktop app.

import os from 'node:os';
import { methodNames, methods, type MethodName } from '../../shared/api';
import { fail } from '../../shared/apiError';
import { error } from '../../shared/issues';
import { resolveUserPath } from '../engine/userPath';

/** A path the operator typed or picked, made absolute; fails with invalid_source or invalid_workspace naming it. */
export function typedPathIn(root: string | undefined, typed: string, what: 'workspace' | 'source'): string {
  const home = os.homedir();
  // With nothing open, the home folder: never the working directory the host happened to start in.
  const base = root ?? home;
  const resolved = resolveUserPath(typed, { base, home });
  if (resolved.ok) return resolved.value;
  if (what === 'source') throw fail('invalid_source', `source bundle "${typed}" ${resolved.error}`);
  throw fail('invalid_workspace', `"${typed}" ${resolved.error}`, {
    file: typed,
    issues: [error([], 'invalid_path', resolved.error)],
  });
}

/** A handler per electron-only method of the table, each failing with not_available. */
export function notAvailableHandlers(): Partial<Record<MethodName, () => Promise<never>>> {
  const notAvailable = (method: MethodName) => async (): Promise<never> => {
    throw fail('not_available', `${method} is only available in the desktop app`);
  };
  return Object.fromEntries(
    methodNames
      .filter((method) => (methods[method] as { electronOnly?: boolean }).electronOnly)
      .map((method) => [method, notAvailable(method)]),
  );
}
