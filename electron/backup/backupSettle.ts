// The end of an apply for its backup made by rename: every entry written as `pending` before the
// apply moved anything is settled, by its inode, to kept (moved here) or not kept (the apply stopped
// first), and a backup that then holds nothing is removed, so it is never listed as one nor takes a
// slot of the newest kept. Writes only the manifest (atomically) or removes the backup's own folder.

import path from 'node:path';
import type { BackupEntry, BackupManifest } from '../../shared/backupSchema';
import { removeTree } from '../replace/removeTree';
import { movedHere } from './backupHeld';
import { writeBackupManifest, type WrittenManifest } from './backupStore';
import { openPinnedBackup } from './pinnedBackup';

/**
 * Records how the apply ended (`after`) with every pending entry settled; removes the backup instead
 * when it holds nothing (unless `keepEmpty`). Returns whether it was kept, and the manifest written
 * (for the prune after it). Throws (naming the folder) when it cannot.
 */
export async function settleBackupEntries(
  folder: string,
  after: NonNullable<BackupManifest['after']>,
  keepEmpty = false,
): Promise<{ kept: boolean; written?: WrittenManifest }> {
  const opened = await openPinnedBackup(folder);
  if (!opened.ok) throw new Error(opened.error.message);
  let entries: BackupEntry[];
  // Read once, through the pinned folder: the manifest written back is this one with its entries settled.
  const read = opened.backup.manifest;
  try {
    const pending = opened.backup.manifest.entries.filter((entry) => entry.pending);
    const seenNow = await opened.backup.seenEach(pending.map((entry) => entry.path));
    const seenOf = new Map(pending.map((entry, index) => [entry, seenNow[index] ?? ({ type: 'missing', ino: '0' } as const)]));
    entries = opened.backup.manifest.entries.map((entry) => {
      const seen = seenOf.get(entry);
      if (seen === undefined) return entry;
      const { pending: _pending, ...rest } = entry;
      return { ...rest, kept: movedHere(entry, seen) };
    });
  } finally {
    await opened.backup.close();
  }
  // keepEmpty: an adopt's backup holds no entry, yet its record is how an undo removes the state it wrote.
  if (!keepEmpty && !entries.some((entry) => entry.kept)) {
    await removeTree(folder);
    return { kept: false };
  }
  const manifest = { ...read, entries, after };
  const identity = await writeBackupManifest(folder, manifest);
  return { kept: true, ...(identity !== undefined ? { written: { id: path.basename(folder), identity, manifest } } : {}) };
}
