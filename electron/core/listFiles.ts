// Walks a directory tree and lists what is in it, as clean "/"-separated relative paths.
// Never follows a symbolic link: a link is listed as an entry of its own, never descended into.

import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface ListOptions {
  /** Relative paths that are neither listed nor descended into (the outputs, the state file, the staging folder). */
  exclude: ReadonlySet<string>;
  /** Directories not listed when empty: the parents of outputs, which are expected to exist. */
  expectedDirs?: ReadonlySet<string>;
  signal?: AbortSignal;
}

/**
 * Every entry that is not a directory, and every empty directory (ending in "/"), in sorted order.
 * A directory that cannot be read is listed with a trailing "/" too: it holds something unknown.
 */
export async function listFiles(root: string, options: ListOptions): Promise<string[]> {
  const found: string[] = [];
  await walk(root, '', options, found);
  return found.sort();
}

async function walk(root: string, relativeDir: string, options: ListOptions, found: string[]): Promise<void> {
  options.signal?.throwIfAborted();
  let entries;
  try {
    entries = await fs.readdir(relativeDir === '' ? root : path.join(root, relativeDir), { withFileTypes: true });
  } catch {
    if (relativeDir !== '') found.push(`${relativeDir}/`);
    return;
  }
  if (entries.length === 0 && relativeDir !== '' && !options.expectedDirs?.has(relativeDir)) found.push(`${relativeDir}/`);
  const subdirectories: string[] = [];
  for (const entry of entries) {
    const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
    if (options.exclude.has(relative)) continue;
    // Dirent types come from the directory (no stat): a link to a directory reports as a link.
    if (entry.isDirectory()) subdirectories.push(relative);
    else found.push(relative);
  }
  for (const subdirectory of subdirectories) await walk(root, subdirectory, options, found);
}

/** Every parent directory of the given paths: `a/b/c` gives `a` and `a/b`. */
export function parentDirectories(paths: Iterable<string>): Set<string> {
  const parents = new Set<string>();
  for (const relative of paths) {
    for (let at = relative.indexOf('/'); at !== -1; at = relative.indexOf('/', at + 1)) parents.add(relative.slice(0, at));
  }
  return parents;
}
