// Whether a folder may hold a subfolder, from its lstat alone: on file systems that count a folder's
// subfolders in its link count (2 for itself and its `.`, one more per subfolder's `..`: ext2/3/4,
// XFS, tmpfs), a link count of 2 means none. Elsewhere (btrfs, overlay, network file systems) and
// on other systems the answer is always "may": the caller lists. Only for a folder this process
// owns and may read and search, so that skipping its listing never hides a listing that would fail
// (a folder one may search but not read). Never opens or lists the folder.

import { statfsSync, type Stats } from 'node:fs';

/** statfs f_type magic numbers (linux/magic.h): ext2/3/4, XFS, tmpfs. */
const COUNTING_FILE_SYSTEMS = new Set([0xef53, 0x58465342, 0x01021994]);

/**
 * By device: one statfs per file system a process meets. A device number is reused only after its
 * file system is unmounted; this module is for the short-lived scans of the command line and its workers.
 */
const countsByDevice = new Map<number, boolean>();

function countsSubfolders(dir: string, dev: number): boolean {
  let counts = countsByDevice.get(dev);
  if (counts === undefined) {
    try {
      counts = COUNTING_FILE_SYSTEMS.has(Number(statfsSync(dir).type) >>> 0);
    } catch {
      counts = false;
    }
    countsByDevice.set(dev, counts);
  }
  return counts;
}

const OWNER_READ_SEARCH = 0o500;
// Read once: a process's uid does not change under a scan (a call into the system each time otherwise).
const ownUid = process.getuid?.();

/** False only when `stat` (an lstat of the directory `dir`) proves it holds no subfolder. */
export function mayHoldSubfolders(dir: string, stat: Stats): boolean {
  if (process.platform !== 'linux' || stat.nlink !== 2) return true;
  if (stat.uid !== ownUid || (stat.mode & OWNER_READ_SEARCH) !== OWNER_READ_SEARCH) return true;
  return !countsSubfolders(dir, stat.dev);
}
