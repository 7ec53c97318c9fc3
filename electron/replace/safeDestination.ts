// Where a replace may never run (CONTRACT.md: Replacement). Forced replace deletes everything in
// the destination, so it refuses a filesystem root, the home directory (or a folder holding it), a
// symbolic link, and a folder holding the source bundle or a protected path (the workspace file).
// Both modes refuse a destination inside the source bundle, or holding it. Read-only.

import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PlanRefusal, ReplaceMode } from '../../shared/plan';

/** Whether `inner` is `outer` or lies below it (both absolute, real paths). */
export function isInsideOrEqual(inner: string, outer: string): boolean {
  if (inner === outer) return true;
  const prefix = outer.endsWith(path.sep) ? outer : outer + path.sep;
  return inner.startsWith(prefix);
}

/** The real path of a path that may not exist yet: the real path of its nearest existing ancestor, plus the rest. */
export async function realPathOf(target: string): Promise<string> {
  const resolved = path.resolve(target);
  const real = await fs.realpath(resolved).catch(() => undefined);
  if (real !== undefined) return real;
  const parent = path.dirname(resolved);
  if (parent === resolved) return resolved;
  return path.join(await realPathOf(parent), path.basename(resolved));
}

export interface DestinationSafetyInput {
  /** Absolute, resolved destination path (not yet realpath'd). */
  destinationPath: string;
  sourceRealPath: string;
  mode: ReplaceMode;
  protectedPaths?: string[];
  /** For tests; defaults to os.homedir(). */
  homeDirectory?: string;
}

function refused(code: string, message: string, details: Record<string, unknown>): PlanRefusal {
  return { code, message, details };
}

export async function destinationSafetyRefusal(input: DestinationSafetyInput): Promise<PlanRefusal | null> {
  const dest = input.destinationPath;
  const stat = await fs.lstat(dest).catch(() => undefined);
  if (stat?.isSymbolicLink()) {
    return refused('destination_is_symlink', `${dest} is a symbolic link; a replace never follows a link to its target`, {
      destination: dest,
    });
  }
  if (stat && !stat.isDirectory()) return refused('destination_not_directory', `${dest} is not a directory`, { destination: dest });
  const destReal = await realPathOf(dest);
  // The gravest first: a forced replace of a root or a home is refused as such, whatever else holds.
  if (input.mode === 'force') {
    if (path.parse(destReal).root === destReal) {
      return refused('destination_is_root', `${dest} is a filesystem root; a forced replace would delete everything on it`, {
        destination: dest,
      });
    }
    const home = await realPathOf(input.homeDirectory ?? os.homedir());
    if (isInsideOrEqual(home, destReal)) {
      const what = home === destReal ? 'is the home directory' : `contains the home directory ${home}`;
      return refused('destination_is_home', `${dest} ${what}; a forced replace there is never allowed`, { destination: dest, home });
    }
  }
  if (isInsideOrEqual(destReal, input.sourceRealPath)) {
    return refused(
      'destination_inside_source',
      `${dest} lies inside the source bundle ${input.sourceRealPath}; publishing there would change the source`,
      { destination: dest, source: input.sourceRealPath },
    );
  }
  if (isInsideOrEqual(input.sourceRealPath, destReal)) {
    return refused(
      'destination_contains_source',
      `${dest} contains the source bundle ${input.sourceRealPath}; a replace there could delete the source`,
      { destination: dest, source: input.sourceRealPath },
    );
  }
  if (input.mode !== 'force') return null;
  for (const protectedPath of input.protectedPaths ?? []) {
    const protectedReal = await realPathOf(protectedPath);
    if (isInsideOrEqual(protectedReal, destReal)) {
      return refused(
        'destination_contains_protected',
        `${dest} contains ${protectedReal} (the workspace file); a forced replace would delete it`,
        { destination: dest, protected: protectedReal },
      );
    }
  }
  return null;
}
