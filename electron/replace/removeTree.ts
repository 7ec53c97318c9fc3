// Removes one folder and everything in it, as `rm -r --one-file-system` does with openat/unlinkat:
// every unlink and rmdir acts on one name inside a pinned (open) folder (pinnedDir.ts), so a folder
// swapped for a symbolic link mid-way is removed as a link, never followed; a folder on another device
// or listed as a mount point is never entered (the removal stops with EXDEV). It never acts outside
// the folder it was given. Apply calls it only on the trash and staging folders it made itself.
// A folder's files are removed many at once: on a file system mounted with `discard` (and on any,
// once the files were flushed), an unlink waits on the journal and the device, ~2 ms each one after
// another; overlapped in libuv's threads, 10,000 go in a tenth of that (docs/performance.md).

import { lstatSync, promises as fs } from 'node:fs';
import { boundedAll } from './boundedAll';
import { readMountPoints } from './mountPoints';
import { childPath, errnoError, pinChild, pinDirectory, type PinnedDir } from './pinnedDir';

const code = (cause: unknown) => (cause as NodeJS.ErrnoException | undefined)?.code;

/** How often a folder is listed again when a concurrent writer keeps adding to it. */
const MAX_PASSES = 8;

/** Entries of one folder removed at once: enough to overlap the device's waits, few enough descriptors. */
const REMOVALS_IN_FLIGHT = 16;

/** One removal's walk: the device it stays on, the mount points it never enters, what it removed. */
export interface Walk {
  dev: bigint;
  mounts: ReadonlySet<string>;
  removed: number;
}

/**
 * An entry its folder's listing showed as no folder: unlinked at once, without an lstat first. An
 * unlink never follows a link and never removes a folder (EISDIR, or EPERM elsewhere), and the
 * kernel refuses to unlink a mount point (EBUSY): whatever else made it fail (a folder swapped in
 * since the listing, a file mounted over) is then lstat'ed and treated as what that lstat says,
 * exactly as an entry the listing did not vouch for.
 */
export async function removeListedFile(dir: PinnedDir, name: string, walk: Walk): Promise<void> {
  try {
    await fs.unlink(childPath(dir, name));
    walk.removed++;
  } catch (cause) {
    if (code(cause) === 'ENOENT') return;
    await removeEntry(dir, name, walk);
  }
}

async function removeEntry(dir: PinnedDir, name: string, walk: Walk, attempt = 0): Promise<void> {
  const full = childPath(dir, name);
  // Synchronous: metadata only, no wait on the device; undefined when the entry is gone.
  const stat = lstatSync(full, { bigint: true, throwIfNoEntry: false });
  if (!stat) return;
  if (stat.dev !== walk.dev) throw errnoError('EXDEV', `"${name}" is on another file system (a mount point); it is not removed`);
  if (!stat.isDirectory()) {
    try {
      await fs.unlink(full);
      walk.removed++;
      return;
    } catch (cause) {
      if (code(cause) === 'ENOENT') return;
      // Swapped for a folder since the lstat: treat it as one, a bounded number of times.
      if ((code(cause) === 'EISDIR' || code(cause) === 'EPERM') && attempt < MAX_PASSES) return removeEntry(dir, name, walk, attempt + 1);
      throw cause;
    }
  }
  let child: PinnedDir;
  try {
    child = await pinChild(dir, name, { dev: walk.dev, mounts: walk.mounts, label: `"${name}"` });
  } catch (cause) {
    // A link or a file now where the folder was: remove that instead (as a link, never followed).
    if ((code(cause) === 'ELOOP' || code(cause) === 'ENOTDIR') && attempt < MAX_PASSES) return removeEntry(dir, name, walk, attempt + 1);
    if (code(cause) === 'ENOENT') return;
    throw cause;
  }
  try {
    await emptyFolder(child, walk);
  } finally {
    await child.close();
  }
  try {
    await fs.rmdir(full);
    walk.removed++;
  } catch (cause) {
    if (code(cause) === 'ENOENT') return;
    // Refilled, swapped for another folder, or for a link (ENOTDIR): go again, bounded.
    if ((code(cause) === 'ENOTEMPTY' || code(cause) === 'EEXIST' || code(cause) === 'ENOTDIR') && attempt < MAX_PASSES)
      return removeEntry(dir, name, walk, attempt + 1);
    throw cause;
  }
}

async function emptyFolder(dir: PinnedDir, walk: Walk): Promise<void> {
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const entries = await fs.readdir(dir.path, { withFileTypes: true });
    if (entries.length === 0) return;
    // Files many at once, then each folder in turn. A file is unlinked as listed (removeListedFile:
    // an unlink cannot follow a link, remove a folder or a mount point); a folder, and a file whose
    // unlink failed, is lstat'ed right before it is acted on and treated as what that lstat says.
    const files = entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name);
    await boundedAll(files, (name) => removeListedFile(dir, name, walk), { limit: REMOVALS_IN_FLIGHT });
    for (const entry of entries) if (entry.isDirectory()) await removeEntry(dir, entry.name, walk);
  }
}

/**
 * Removes `dirPath` (its last segment a real folder, never a link) and all it holds. Returns how many
 * entries went. Throws on the first entry it may not or cannot remove; what is left stays inside.
 */
export async function removeTree(dirPath: string): Promise<number> {
  const mounts = await readMountPoints();
  const root = await pinDirectory(dirPath, { mounts });
  const walk: Walk = { dev: root.dev, mounts, removed: 0 };
  try {
    await emptyFolder(root, walk);
  } finally {
    await root.close();
  }
  await fs.rmdir(dirPath);
  return walk.removed + 1;
}
