// What polling compares between two sweeps of one destination: the stat of its folder, its state file
// and its preferred staging folder. The folder's own stat changes when a top-level entry is added,
// removed or renamed (a staging folder made under another name, a state file renamed into place), the
// state file's when it is written in place, the staging folder's when a replace works inside it.
// An output edited in place is not seen by polling (a native watch sees the folder's direct children):
// docs/live-refresh.md says so. Never follows a symbolic link; never reads a file's bytes.

import { promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { STATE_FILE_NAME } from '../../shared/stateSchema';

/** `-` for an entry that is not there (or cannot be read: the next sweep that can read it differs). */
function part(stats: Stats | undefined): string {
  if (!stats) return '-';
  return `${stats.ino}:${stats.mode}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

const lstatOrUndefined = (file: string) => fs.lstat(file).catch(() => undefined);

/** One destination's signature now, and whether its folder is there (a directory). */
export async function pollSignature(root: string): Promise<{ signature: string; folderPresent: boolean }> {
  const [folder, state, staging] = await Promise.all([
    lstatOrUndefined(root),
    lstatOrUndefined(path.join(root, STATE_FILE_NAME)),
    lstatOrUndefined(path.join(root, STAGING_DIR_NAME)),
  ]);
  return { signature: `${part(folder)}|${part(state)}|${part(staging)}`, folderPresent: folder?.isDirectory() === true };
}

/** A single file's (the workspace file's) signature. */
export async function fileSignature(file: string): Promise<string> {
  return part(await lstatOrUndefined(file));
}
