// The fingerprint of a destination as a plan saw it: the state file's bytes hash plus lstat
// (type, size, mtime in ns, inode, device) of every path the plan touches, or of the whole tree for a
// forced replace. Apply recomputes it and refuses a plan whose fingerprint no longer matches.
// Read-only; never follows a symbolic link (lstat, O_NOFOLLOW), never blocks on a FIFO (lstat first,
// O_NONBLOCK, fstat again), and never descends into a mount point (another device, or a path the
// kernel's mount table lists, such as a bind mount of the same file system).

import { lstatSync, promises as fs, type BigIntStats } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { EntryType, Fingerprint, FingerprintEntry } from '../../shared/plan';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { readRegularFile } from '../engine/regularFile';
import { readMountPoints } from './mountPoints';
import { realPathOf } from './safeDestination';
import { timeSlicer } from './timeSlice';

/** Joins a "/" relative path to the root; "" is the root itself. Callers check containment. */
export function joinRelative(root: string, relative: string): string {
  return relative === '' ? root : path.join(root, ...relative.split('/'));
}

function typeOf(stat: BigIntStats): EntryType {
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isDirectory()) return 'directory';
  if (stat.isFile()) return 'file';
  return 'other';
}

/** One lstat, synchronous: thousands per plan, and a quarter of the CPU of fs.promises (docs/performance.md). */
export function lstatEntrySync(root: string, relative: string): FingerprintEntry {
  try {
    const stat = lstatSync(joinRelative(root, relative), { bigint: true });
    return {
      path: relative,
      type: typeOf(stat),
      size: Number(stat.size),
      mtimeNs: stat.mtimeNs.toString(),
      ino: stat.ino.toString(),
      dev: stat.dev.toString(),
    };
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent on the way is a file; ENAMETOOLONG: no such name can exist. Either way, not there.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG')
      return { path: relative, type: 'missing', size: 0, mtimeNs: '0', ino: '0', dev: '0' };
    throw cause;
  }
}

export async function lstatEntry(root: string, relative: string): Promise<FingerprintEntry> {
  return lstatEntrySync(root, relative);
}

/** The state file's bytes, null when there is none; 'symlink' / 'not_a_file' when something else is there. Never follows a link. */
export async function readStateFileBytes(root: string): Promise<Buffer | null | 'symlink' | 'not_a_file'> {
  // The one safe read (engine/regularFile.ts): a FIFO or a device is never opened, a link never followed.
  const read = await readRegularFile(path.join(root, STATE_FILE_NAME));
  if (read.kind === 'missing') return null;
  if (read.kind === 'bytes') return read.bytes;
  return read.kind === 'not_a_file' && read.isSymlink ? 'symlink' : 'not_a_file';
}

/** sha256 of the state file's bytes, null when there is none. */
export async function stateFileSha256(root: string): Promise<string | null> {
  const bytes = await readStateFileBytes(root);
  if (bytes === null || typeof bytes === 'string') return bytes;
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Whether an entry is a mount point below the root: another device, or a path the mount table lists. */
function isMountPoint(entry: FingerprintEntry, rootDev: string, realRoot: string, mounts: ReadonlySet<string>): boolean {
  if (entry.type === 'missing' || entry.path === '') return false;
  return entry.dev !== rootDev || mounts.has(joinRelative(realRoot, entry.path));
}

export interface TreeWalk {
  entries: FingerprintEntry[];
  /** Relative paths of the mount points found (listed as entries, never entered). */
  mountPoints: string[];
}

/** Every entry under root (root itself as ""), sorted by path; directories are entered, links and mount points are not. */
export async function walkTree(root: string): Promise<TreeWalk> {
  const entries: FingerprintEntry[] = [];
  const mountPoints: string[] = [];
  const rootEntry = await lstatEntry(root, '');
  entries.push(rootEntry);
  if (rootEntry.type !== 'directory') return { entries, mountPoints };
  const realRoot = await realPathOf(root);
  const mounts = await readMountPoints();
  const pending: string[] = [''];
  const slice = timeSlicer();
  while (pending.length > 0) {
    await slice.yield();
    const dir = pending.pop() as string;
    const names = await fs.readdir(joinRelative(root, dir));
    for (const name of names) {
      const relative = dir === '' ? name : `${dir}/${name}`;
      const entry = lstatEntrySync(root, relative);
      entries.push(entry);
      if (isMountPoint(entry, rootEntry.dev, realRoot, mounts)) mountPoints.push(relative);
      else if (entry.type === 'directory') pending.push(relative);
    }
  }
  return { entries: entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), mountPoints: mountPoints.sort() };
}

/** The mount points among some fingerprinted paths (a normal replace's): another device than the root, or listed. */
export async function mountPointsAmong(root: string, entries: readonly FingerprintEntry[]): Promise<string[]> {
  const rootEntry = entries.find((entry) => entry.path === '') ?? (await lstatEntry(root, ''));
  if (rootEntry.type !== 'directory') return [];
  const realRoot = await realPathOf(root);
  const mounts = await readMountPoints();
  return entries.filter((entry) => isMountPoint(entry, rootEntry.dev, realRoot, mounts)).map((entry) => entry.path);
}

/** `seen`: entries the caller lstat'ed a moment ago, while deciding on them: those are what the fingerprint must hold. */
export async function fingerprintPaths(
  root: string,
  relatives: Iterable<string>,
  stateSha256: string | null,
  seen?: ReadonlyMap<string, FingerprintEntry>,
): Promise<Fingerprint> {
  const unique = [...new Set(relatives)].sort();
  const entries: FingerprintEntry[] = [];
  const slice = timeSlicer();
  for (const relative of unique) {
    entries.push(seen?.get(relative) ?? lstatEntrySync(root, relative));
    await slice.yield();
  }
  return { stateSha256, wholeTree: false, entries };
}

export async function fingerprintTree(root: string, stateSha256: string | null): Promise<Fingerprint> {
  return { stateSha256, wholeTree: true, entries: (await walkTree(root)).entries };
}

/** Fresh: nothing changed, and `mountPoints` lists what is mounted among the paths now (apply refuses any). */
export type FingerprintCheck = { fresh: true; mountPoints: string[] } | { fresh: false; path: string; planned: string; now: string };

function describe(entry: FingerprintEntry | undefined): string {
  if (!entry) return 'nothing';
  return entry.type === 'missing'
    ? 'missing'
    : `${entry.type}, ${entry.size} bytes, mtime ${entry.mtimeNs} ns, inode ${entry.ino}, device ${entry.dev}`;
}

/** Recomputes the fingerprint over the same paths (or the whole tree) and says what changed first. */
export async function checkFingerprint(root: string, planned: Fingerprint): Promise<FingerprintCheck> {
  const stateNow = await stateFileSha256(root);
  if (stateNow !== planned.stateSha256) {
    return { fresh: false, path: STATE_FILE_NAME, planned: planned.stateSha256 ?? 'no state file', now: stateNow ?? 'no state file' };
  }
  let now: FingerprintEntry[];
  let mountPoints: string[];
  if (planned.wholeTree) {
    ({ entries: now, mountPoints } = await walkTree(root));
  } else {
    now = (
      await fingerprintPaths(
        root,
        planned.entries.map((e) => e.path),
        stateNow,
      )
    ).entries;
    mountPoints = await mountPointsAmong(root, now);
  }
  const nowByPath = new Map(now.map((entry) => [entry.path, entry]));
  for (const entry of planned.entries) {
    const current = nowByPath.get(entry.path);
    if (
      !current ||
      current.type !== entry.type ||
      current.size !== entry.size ||
      current.mtimeNs !== entry.mtimeNs ||
      current.ino !== entry.ino ||
      current.dev !== entry.dev
    ) {
      return { fresh: false, path: entry.path, planned: describe(entry), now: describe(current) };
    }
  }
  if (now.length !== planned.entries.length) {
    const plannedPaths = new Set(planned.entries.map((entry) => entry.path));
    const added = now.find((entry) => !plannedPaths.has(entry.path));
    return { fresh: false, path: added?.path ?? '', planned: 'nothing', now: describe(added) };
  }
  return { fresh: true, mountPoints };
}
