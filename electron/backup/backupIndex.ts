// A small index beside one destination's backups, so that a prune need not read every kept backup's
// manifest (megabytes for 10,000 files) to learn what it already learnt the time before. For each
// backup whose manifest was read, found whole and settled (no entry pending), it holds that file's
// identity as lstat saw it before and after the read (device, inode, size, mtime and ctime in ns)
// and the summary read from it. A backup whose manifest still has that identity has those bytes: a
// write in place moves the mtime and the ctime, a replacement (how every manifest is written) the
// inode. Only a cache: a missing, torn or foreign index is ignored, an entry that does not match is
// read as before, and the index never makes a backup count as kept that reading would not. Read only
// when it is this user's and no one else can write it, never through a link. Writes only the index
// file itself (a temporary file, then a rename), never inside a backup.

import { constants, lstatSync, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { BACKUP_MANIFEST_NAME, type BackupSummary } from '../../shared/backupSchema';
import { isBackupId } from './backupLocation';

export const BACKUP_INDEX_NAME = '.backups-index.json';
const INDEX_KIND = 'distributor-inspector-backups-index';

/** What the index keeps of a summary: all but the folder, which is always the backup's own. */
type IndexedSummary = Omit<BackupSummary, 'folder' | 'problem'>;

export type BackupIndex = Map<string, { identity: string; summary: IndexedSummary }>;

/** The manifest file's identity, or undefined when it is not a regular file (or is gone). */
export function manifestIdentity(backupFolder: string): string | undefined {
  try {
    const stat = lstatSync(path.join(backupFolder, BACKUP_MANIFEST_NAME), { bigint: true });
    if (!stat.isFile()) return undefined;
    return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch {
    return undefined;
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const OUTCOMES: ReadonlySet<unknown> = new Set(['applied', 'refused', 'failed']);

/** An indexed summary as this module writes one, checked field by field; anything else is not used. */
function indexedSummary(value: unknown, id: string): IndexedSummary | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const s = value as Record<string, unknown>;
  const destination = s.destination as Record<string, unknown> | null | undefined;
  if (s.id !== id || !isString(s.action) || !isString(s.createdAt) || (s.method !== 'rename' && s.method !== 'copy')) return undefined;
  if (!isCount(s.sizeBytes) || !isCount(s.entryCount) || typeof destination !== 'object' || destination === null) return undefined;
  if (!isString(destination.path) || (destination.id !== undefined && !isString(destination.id))) return undefined;
  if (s.outcome !== undefined && !OUTCOMES.has(s.outcome)) return undefined;
  if (s.restoredAt !== undefined && !isString(s.restoredAt)) return undefined;
  return {
    id,
    destination: destination.id !== undefined ? { id: destination.id, path: destination.path } : { path: destination.path },
    action: s.action,
    createdAt: s.createdAt,
    method: s.method,
    sizeBytes: s.sizeBytes,
    entryCount: s.entryCount,
    ...(s.outcome !== undefined ? { outcome: s.outcome as NonNullable<BackupSummary['outcome']> } : {}),
    ...(s.restoredAt !== undefined ? { restoredAt: s.restoredAt } : {}),
  };
}

const INDEX_READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Owned by whoever runs this and writable by no one else (as pinnedBackup.ts asks of a backup's files). */
function ownedAndPrivate(stat: Stats): boolean {
  const uid = process.geteuid?.() ?? process.getuid?.();
  if (uid === undefined || process.platform === 'win32') return true;
  return stat.uid === uid && (stat.mode & 0o022) === 0;
}

/** The destination folder's index; empty when there is none or it is not one this module wrote. */
export async function readBackupIndex(destinationFolder: string): Promise<BackupIndex> {
  const index: BackupIndex = new Map();
  let json: unknown;
  try {
    // Never through a link, never blocking on a FIFO; the file opened is the one checked.
    const handle = await fs.open(path.join(destinationFolder, BACKUP_INDEX_NAME), INDEX_READ_FLAGS);
    try {
      const stat = await handle.stat();
      // Kept small by construction (one line a backup); one another user could write is not ours either.
      if (!stat.isFile() || stat.size > 1024 * 1024 || !ownedAndPrivate(stat)) return index;
      json = JSON.parse(await handle.readFile('utf8'));
    } finally {
      await handle.close();
    }
  } catch {
    return index;
  }
  const document = json as { kind?: unknown; backups?: unknown } | null;
  if (typeof document !== 'object' || document === null || document.kind !== INDEX_KIND) return index;
  if (typeof document.backups !== 'object' || document.backups === null) return index;
  for (const [id, entry] of Object.entries(document.backups as Record<string, unknown>)) {
    const { identity, summary } = (entry ?? {}) as { identity?: unknown; summary?: unknown };
    const checked = isBackupId(id) && isString(identity) ? indexedSummary(summary, id) : undefined;
    if (checked) index.set(id, { identity: identity as string, summary: checked });
  }
  return index;
}

/** The indexed summary of the backup `id` in `destinationFolder`, when its manifest still has the identity indexed. */
export function indexedBackup(index: BackupIndex, destinationFolder: string, id: string): BackupSummary | undefined {
  const entry = index.get(id);
  if (!entry) return undefined;
  const folder = path.join(destinationFolder, id);
  if (manifestIdentity(folder) !== entry.identity) return undefined;
  return { ...entry.summary, folder };
}

/** What the index keeps of a summary read from a settled manifest; a summary with a problem is never indexed. */
export function indexEntry(identity: string, summary: BackupSummary): { identity: string; summary: IndexedSummary } | undefined {
  if (summary.problem !== undefined) return undefined;
  const { folder: _folder, problem: _problem, ...rest } = summary;
  return { identity, summary: rest };
}

/** Replaces the index (a temporary file, then a rename; no flush: a torn index is ignored and costs one read each). */
export async function writeBackupIndex(destinationFolder: string, index: BackupIndex): Promise<void> {
  const file = path.join(destinationFolder, BACKUP_INDEX_NAME);
  const temp = `${file}.${process.pid}.tmp`;
  const text = `${JSON.stringify({ kind: INDEX_KIND, version: 1, backups: Object.fromEntries(index) })}\n`;
  await fs.writeFile(temp, text, { mode: 0o600, flag: 'wx' });
  try {
    await fs.rename(temp, file);
  } catch (cause) {
    await fs.rm(temp, { force: true });
    throw cause;
  }
}
