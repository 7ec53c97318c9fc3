// The one rule for a path the operator types or picks (a workspace to open, a source bundle to compare
// or plan from): `~` and `~/…` are the home of the user running the engine, a relative path is read
// from the open workspace's folder (not the process's working directory, which an operator of the
// browser host or the desktop app never chose), an absolute one stands as typed. Pure string work on
// Node's `path` of the platform: never touches the disk, never reads process.cwd().

import path from 'node:path';
import type { Result } from '../../shared/result';

export interface UserPathBase {
  /** Absolute: where a relative path is read from (the workspace's folder; the home folder when none is open). */
  base: string;
  /** Absolute: the home of the user running the engine, for `~`. */
  home: string;
  /** Path rules of this platform; tests pass the other one. */
  pathApi?: path.PlatformPath;
}

/** `~` alone, or `~` then a separator: the engine user's home. `~name` (another user's home) is not expanded. */
function homeRelative(typed: string, pathApi: path.PlatformPath): string | undefined {
  if (typed === '~') return '';
  const separators = pathApi.sep === '\\' ? ['/', '\\'] : ['/'];
  return typed.startsWith('~') && separators.includes(typed[1] ?? '') ? typed.slice(2) : undefined;
}

/**
 * The absolute, normalised path `typed` names, or a sentence saying why it names none. Resolving the
 * answer again gives the same answer (it is absolute), whatever the base.
 */
export function resolveUserPath(typed: string, { base, home, pathApi = path }: UserPathBase): Result<string, string> {
  if (typed === '') return { ok: false, error: 'is empty: type a folder or file path' };
  if (typed.includes('\u0000')) return { ok: false, error: 'contains a NUL character, which no path can hold' };
  const underHome = homeRelative(typed, pathApi);
  if (underHome !== undefined) return { ok: true, value: pathApi.resolve(home, underHome) };
  if (/^~[^/\\]/.test(typed))
    return {
      ok: false,
      error: `"${typed.split(/[/\\]/)[0]}" (another user's home) is not expanded: type the full path, or ./${typed} for a folder of that name here`,
    };
  return { ok: true, value: pathApi.resolve(base, typed) };
}
