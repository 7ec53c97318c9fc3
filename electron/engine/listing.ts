// What is on disk in one destination, for the detail pane: every entry with its type and size, in
// sorted order, capped so a huge tree cannot flood the UI. Uses lstat and readlink: never follows a
// symbolic link, nor descends into a linked folder.

import { promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import type { ListingEntry } from '../../shared/api';

export type { ListingEntry };

export interface Listing {
  entries: ListingEntry[];
  /** More entries exist than `maxEntries`. */
  truncated: boolean;
}

function typeOf(stat: Stats): ListingEntry['type'] {
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isDirectory()) return 'directory';
  if (stat.isFile()) return 'file';
  return 'other';
}

export async function listDestination(root: string, maxEntries = 5000): Promise<Listing> {
  const entries: ListingEntry[] = [];
  let truncated = false;
  // Breadth-first so a capped listing shows the top of the tree, not one deep corner of it.
  const queue: string[] = [''];
  while (queue.length > 0 && !truncated) {
    const relativeDir = queue.shift()!;
    let names: string[];
    try {
      names = (await fs.readdir(path.join(root, relativeDir))).sort();
    } catch {
      continue; // missing or unreadable: shown as what lstat said about it one level up
    }
    for (const name of names) {
      if (entries.length >= maxEntries) {
        truncated = true;
        break;
      }
      const relative = relativeDir === '' ? name : `${relativeDir}/${name}`;
      const stat = await fs.lstat(path.join(root, relative)).catch(() => undefined);
      if (!stat) continue;
      const type = typeOf(stat);
      const entry: ListingEntry = { path: relative, type, sizeBytes: type === 'file' ? stat.size : 0 };
      if (type === 'symlink') {
        const target = await fs.readlink(path.join(root, relative)).catch(() => undefined);
        if (target !== undefined) entry.linkTarget = target;
      }
      entries.push(entry);
      if (type === 'directory') queue.push(relative);
    }
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, truncated };
}
