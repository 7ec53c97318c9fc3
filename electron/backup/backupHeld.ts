// What a backup made by rename really holds. Its manifest is written (durable) before the apply
// moves anything into it, listing each entry as `pending`: in the backup, or still in the destination.
// When the apply ends, each pending entry is settled, by its inode, to kept (moved here) or not kept
// (never moved: the apply stopped first); a backup that then holds nothing is removed, so it is never
// listed as one nor takes a slot of the newest kept. Reads the backup through its pinned folders
// (pinnedBackup.ts); writes only the manifest (atomically) or removes the backup's own folder.

import path from 'node:path';
import { BACKUP_FILES_DIR, type BackupEntry, type BackupManifest } from '../../shared/backupSchema';
import { lstatEntry } from '../replace/fingerprint';

/** Whether what stands at `full` is the entry as the apply moved it (the same inode and type). */
export function movedHere(entry: BackupEntry, seen: { type: string; ino: string }): boolean {
  return seen.type === entry.type && seen.ino === entry.ino;
}

/** How many entries the backup holds now: the kept ones, and the pending ones already moved here. For a list. */
export async function heldCount(folder: string, manifest: BackupManifest): Promise<{ count: number; sizeBytes: number }> {
  let count = 0;
  let sizeBytes = 0;
  for (const entry of manifest.entries) {
    const held =
      entry.kept ||
      (entry.pending === true &&
        movedHere(entry, await lstatEntry(path.join(folder, BACKUP_FILES_DIR), entry.path).catch(() => ({ type: 'missing', ino: '0' }))));
    if (!held) continue;
    count++;
    sizeBytes += entry.size;
  }
  return { count, sizeBytes };
}
