// Walks a directory tree and lists what is in it, as clean "/"-separated relative paths.
// Synchronous: it runs in HashPool's worker threads, where blocking costs nothing and a promise
// per directory would cost more than the listing. Never follows a symbolic link: a link is listed
// as an entry of its own, never descended into.

import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import type { FileKind } from '../../shared/verifyReport';

export interface ListOptions {
  /** Relative paths that are neither listed nor descended into (the outputs, the state file, the staging folder). */
  exclude: ReadonlySet<string>;
  /** Directories not listed when empty: the parents of outputs, which are expected to exist. */
  expectedDirs?: ReadonlySet<string>;
  /** Filled with what each excluded path turned out to be, as the directory says (no stat). */
  excludedKinds?: Map<string, FileKind>;
}

function kindOfEntry(entry: Dirent): FileKind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFIFO()) return 'fifo';
  if (entry.isSocket()) return 'socket';
  if (entry.isBlockDevice()) return 'block_device';
  if (entry.isCharacterDevice()) return 'character_device';
  return 'other';
}

/**
 * Every entry that is not a directory, and every empty directory (ending in "/"), in sorted order.
 * A directory below the root that cannot be read is listed with a trailing "/": it holds something unknown.
 * Throws when the root itself cannot be read. `rootEntries`: the root's own listing when the caller
 * already read it (with file types; the scan's inspection does), so the root is not listed twice.
 */
export function listFiles(root: string, options: ListOptions, rootEntries?: readonly Dirent[]): string[] {
  const found: string[] = [];
  walk(root, '', options, found, rootEntries);
  return found.sort();
}

function walk(root: string, relativeDir: string, options: ListOptions, found: string[], given?: readonly Dirent[]): void {
  let entries: readonly Dirent[];
  try {
    entries = given ?? readdirSync(relativeDir === '' ? root : path.join(root, relativeDir), { withFileTypes: true });
  } catch (cause) {
    if (relativeDir === '') throw cause;
    found.push(`${relativeDir}/`);
    return;
  }
  if (entries.length === 0 && relativeDir !== '' && !options.expectedDirs?.has(relativeDir)) found.push(`${relativeDir}/`);
  for (const entry of entries) {
    const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
    if (options.exclude.has(relative)) {
      options.excludedKinds?.set(relative, kindOfEntry(entry));
      continue;
    }
    // Dirent types come from the directory (no stat): a link to a directory reports as a link.
    if (entry.isDirectory()) walk(root, relative, options, found);
    else found.push(relative);
  }
}

/** Every parent directory of the given paths: `a/b/c` gives `a` and `a/b`. */
export function parentDirectories(paths: Iterable<string>): Set<string> {
  const parents = new Set<string>();
  for (const relative of paths) {
    for (let at = relative.indexOf('/'); at !== -1; at = relative.indexOf('/', at + 1)) parents.add(relative.slice(0, at));
  }
  return parents;
}
