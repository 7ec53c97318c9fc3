// What polling compares between two sweeps of one destination: the stat of every entry of its tree
// (each folder, each file, each link as a link), so an output edited in place three folders down,
// removed, replaced by a link or a folder, and a folder removed or renamed all change it, as a
// watch would have seen. Its cost grows with the tree, which is why a sweep of many polled
// destinations is spaced out (destinationWatcher.ts). Never follows a symbolic link; never reads a
// file's bytes.

import { createHash, type Hash } from 'node:crypto';
import { promises as fs, type BigIntStats } from 'node:fs';
import path from 'node:path';

/** `-` for an entry that is not there (or cannot be read: the next sweep that can read it differs). */
function part(stats: BigIntStats | undefined): string {
  if (!stats) return '-';
  return `${stats.ino}:${stats.mode}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/**
 * An entry stamped this close to the sweep may still change within the same timestamp tick (the
 * kernel's coarse clock, a file system's 2 s granularity): the signature says so, and so differs
 * from the next sweep's once the entry is older. A change made just after a sweep is then reported
 * by a later sweep, never lost (git's "racily clean" rule, for polling).
 */
const RACY_NS = 2_000_000_000n;

const lstatOrUndefined = (file: string) => fs.lstat(file, { bigint: true }).catch(() => undefined);

/** Folders below the root are entered one at a time: a sweep is a background check, not a race. */
interface Walk {
  hash: Hash;
  racySince: bigint;
  racy: boolean;
}

function note(walk: Walk, name: string, stats: BigIntStats | undefined): void {
  walk.hash.update(`${name}\0${part(stats)}\n`);
  if (stats && (stats.mtimeNs >= walk.racySince || stats.ctimeNs >= walk.racySince)) walk.racy = true;
}

async function addTree(walk: Walk, folder: string, relative: string): Promise<void> {
  const names = await fs.readdir(folder).catch(() => undefined);
  if (!names) {
    walk.hash.update(`${relative}/?\n`);
    return;
  }
  names.sort();
  for (const name of names) {
    const child = path.join(folder, name);
    const stats = await lstatOrUndefined(child);
    const childRelative = relative === '' ? name : `${relative}/${name}`;
    note(walk, childRelative, stats);
    if (stats?.isDirectory()) await addTree(walk, child, childRelative);
  }
}

/** One destination's signature now, and whether its folder is there (a directory). */
export async function pollSignature(root: string): Promise<{ signature: string; folderPresent: boolean }> {
  const walk: Walk = { hash: createHash('sha256'), racySince: BigInt(Date.now()) * 1_000_000n - RACY_NS, racy: false };
  const folder = await lstatOrUndefined(root);
  note(walk, '.', folder);
  if (folder?.isDirectory()) await addTree(walk, root, '');
  return { signature: `${walk.hash.digest('hex')}${walk.racy ? ':racy' : ''}`, folderPresent: folder?.isDirectory() === true };
}

/** A single file's (the workspace file's) signature. */
export async function fileSignature(file: string): Promise<string> {
  return part(await lstatOrUndefined(file));
}
