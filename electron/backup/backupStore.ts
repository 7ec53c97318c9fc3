// The backups kept in a workspace's backup folder: read one (its manifest, checked), list them with
// their sizes, mark how an apply or a restore ended, and prune all but the newest N of each
// destination. A pruned backup leaves the kept set by one rename before any of its files go; removal
// goes through replace/removeTree.ts (never follows a link, never crosses into another file system);
// nothing outside the backup folder is ever touched.

import { promises as fs, type BigIntStats } from 'node:fs';
import path from 'node:path';
import {
  BACKUP_MANIFEST_NAME,
  backupManifestSchema,
  type BackupManifest,
  type BackupSettings,
  type BackupSummary,
} from '../../shared/backupSchema';
import { plainBackupManifest } from '../../shared/backupManifestCheck';
import { readRegularFile } from '../engine/regularFile';
import { removeTree } from '../replace/removeTree';
import { isBackupId } from './backupLocation';
import { heldCount } from './backupHeld';
import { indexedBackup, indexEntry, manifestIdentity, readBackupIndex, writeBackupIndex, type BackupIndex } from './backupIndex';

const sameIndex = (a: BackupIndex, b: BackupIndex) =>
  a.size === b.size && [...b].every(([id, entry]) => a.get(id)?.identity === entry.identity);

export type ReadBackup = { ok: true; manifest: BackupManifest; folder: string } | { ok: false; folder: string; problem: string };

export async function readBackup(folder: string): Promise<ReadBackup> {
  const file = path.join(folder, BACKUP_MANIFEST_NAME);
  const read = await readRegularFile(file, { maxBytes: 256 * 1024 * 1024 }).catch((cause: Error) => ({
    kind: 'error' as const,
    message: cause.message,
  }));
  if (read.kind === 'missing')
    return { ok: false, folder, problem: `${file} is missing: the apply that made it was interrupted before it kept anything` };
  if (read.kind !== 'bytes')
    return { ok: false, folder, problem: `${file} cannot be read (${'message' in read ? read.message : read.kind})` };
  const parsed = parseBackupManifest(read.bytes, file);
  return parsed.ok ? { ok: true, manifest: parsed.manifest, folder } : { ok: false, folder, problem: parsed.problem };
}

/** A backup.json's bytes as a manifest, or why they are not one, naming the file and the field. */
export function parseBackupManifest(bytes: Buffer, file: string): { ok: true; manifest: BackupManifest } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    return { ok: false, problem: `${file} is not JSON: ${(cause as Error).message}` };
  }
  // Records that pass the plain predicates skip zod (shared/backupManifestCheck.ts); zod judges the rest.
  const plain = plainBackupManifest(json);
  if (plain) return { ok: true, manifest: plain };
  const parsed = backupManifestSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { ok: false, problem: `${file}: ${first?.path.join('.') || '(top)'}: ${first?.message ?? 'not a backup manifest'}` };
  }
  return { ok: true, manifest: parsed.data };
}

/** Replaces the manifest atomically (temporary file, fsync, rename): how an apply's or a restore's end is recorded. */
export async function updateBackup(folder: string, change: (manifest: BackupManifest) => BackupManifest): Promise<void> {
  const read = await readBackup(folder);
  if (!read.ok) throw new Error(read.problem);
  await writeBackupManifest(folder, change(read.manifest));
}

/**
 * Writes `manifest` as the backup's manifest atomically (temporary file, fsync, rename), for a caller
 * that has just read it. Returns the identity of the file written (backupIndex.ts), when the manifest
 * standing after the rename is that same file, unchanged.
 */
export async function writeBackupManifest(folder: string, manifest: BackupManifest): Promise<string | undefined> {
  const temp = path.join(folder, `${BACKUP_MANIFEST_NAME}.tmp`);
  await fs.rm(temp, { force: true });
  const handle = await fs.open(temp, 'wx', 0o600);
  let written: BigIntStats;
  try {
    await handle.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
    await handle.sync();
    written = await handle.stat({ bigint: true });
  } finally {
    await handle.close();
  }
  await fs.rename(temp, path.join(folder, BACKUP_MANIFEST_NAME));
  const standing = manifestIdentity(folder);
  return standing?.startsWith(`${written.dev}:${written.ino}:${written.size}:${written.mtimeNs}:`) ? standing : undefined;
}

/** A manifest this process has just written, and the identity of its file then: a prune need not read it back. */
export interface WrittenManifest {
  id: string;
  identity: string;
  manifest: BackupManifest;
}

async function summaryOf(read: ReadBackup, id: string): Promise<BackupSummary> {
  if (!read.ok)
    return {
      id,
      folder: read.folder,
      destination: { path: '' },
      action: 'unknown',
      createdAt: '',
      method: 'rename',
      sizeBytes: 0,
      entryCount: 0,
      problem: read.problem,
    };
  const { manifest } = read;
  // What it really holds: an apply killed mid-way moved only some of its pending entries here.
  const held = await heldCount(read.folder, manifest);
  if (held.count === 0 && manifest.entries.some((entry) => entry.pending))
    return {
      id,
      folder: read.folder,
      destination: { path: manifest.destination.path },
      action: manifest.action,
      createdAt: manifest.createdAt,
      method: manifest.method,
      sizeBytes: 0,
      entryCount: 0,
      problem: `${read.folder} holds nothing: the ${manifest.action} that made it stopped before it moved anything into it (the destination still has it all)`,
    };
  return {
    id: manifest.id,
    folder: read.folder,
    destination:
      manifest.destination.id !== undefined
        ? { id: manifest.destination.id, path: manifest.destination.path }
        : { path: manifest.destination.path },
    action: manifest.action,
    createdAt: manifest.createdAt,
    method: manifest.method,
    sizeBytes: held.sizeBytes,
    entryCount: held.count,
    ...(manifest.after ? { outcome: manifest.after.outcome } : {}),
    ...(typeof manifest.restoredAt === 'string' ? { restoredAt: manifest.restoredAt } : {}),
  };
}

async function namesIn(folder: string): Promise<string[]> {
  const entries = await fs
    .readdir(folder, { withFileTypes: true })
    .catch((cause: NodeJS.ErrnoException) => (cause.code === 'ENOENT' ? [] : Promise.reject(cause)));
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

/**
 * The backups of one destination's folder, newest first. With `index` (backupIndex.ts), a backup whose
 * manifest still has the identity indexed takes its summary from there unread; every summary read
 * from a settled manifest is put into `fresh`, with the identity its manifest had before and after the read.
 */
async function summariesIn(folder: string, index?: BackupIndex, fresh?: BackupIndex, written?: WrittenManifest): Promise<BackupSummary[]> {
  const summaries: BackupSummary[] = [];
  for (const id of (await namesIn(folder)).filter(isBackupId)) {
    const backupFolder = path.join(folder, id);
    const indexed = index && indexedBackup(index, folder, id);
    if (indexed) {
      fresh?.set(id, index.get(id) as NonNullable<ReturnType<BackupIndex['get']>>);
      summaries.push(indexed);
      continue;
    }
    const before = fresh && manifestIdentity(backupFolder);
    const known = written?.id === id && before !== undefined && before === written.identity ? written.manifest : undefined;
    const read: ReadBackup = known ? { ok: true, manifest: known, folder: backupFolder } : await readBackup(backupFolder);
    const summary = await summaryOf(read, id);
    const settled = read.ok && !read.manifest.entries.some((entry) => entry.pending);
    const entry = settled && before !== undefined && manifestIdentity(backupFolder) === before ? indexEntry(before, summary) : undefined;
    if (entry) fresh?.set(id, entry);
    summaries.push(summary);
  }
  return summaries.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** Every backup under the settings' folder, newest first; `destinationFolder` limits it to one destination's. */
export async function listBackups(settings: BackupSettings, destinationFolder?: string): Promise<BackupSummary[]> {
  if (!settings.enabled) return [];
  const folders =
    destinationFolder !== undefined
      ? [destinationFolder]
      : (await namesIn(settings.folder)).map((name) => path.join(settings.folder, name));
  const summaries: BackupSummary[] = [];
  for (const folder of folders) summaries.push(...(await summariesIn(folder)));
  return summaries.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** A backup folder without a manifest this old is a killed apply's, never one being made now. */
const UNFINISHED_AGE_MS = 10 * 60 * 1000;

/**
 * Where a prune moves a backup before removing it: a sibling named `.pruning-<id>`, reached by one
 * rename. No backup id has this form, so from that rename on no list, restore or prune counts it,
 * and a prune killed while removing it leaves a folder the next prune finishes, never a backup that
 * holds less than its manifest says.
 */
export const PRUNING_PREFIX = '.pruning-';

async function pruningLeftovers(folder: string): Promise<string[]> {
  const entries = await fs
    .readdir(folder, { withFileTypes: true })
    .catch((cause: NodeJS.ErrnoException) => (cause.code === 'ENOENT' ? [] : Promise.reject(cause)));
  return entries
    .filter((entry) => entry.name.startsWith(PRUNING_PREFIX) && entry.isDirectory())
    .map((entry) => path.join(folder, entry.name));
}

/** Removes each folder in turn (removeTree: never follows a link, never leaves the file system); the first failure, or undefined. */
async function removeAside(folders: readonly string[]): Promise<Error | undefined> {
  let failed: Error | undefined;
  for (const folder of folders) await removeTree(folder).catch((cause: Error) => void (failed ??= cause));
  return failed;
}

/**
 * Keeps the newest `keep` backups of each destination (of one, with `destinationFolder`) and moves
 * the rest, and any folder of a killed apply that never kept anything, out of the kept set by one
 * rename each (PRUNING_PREFIX), then removes what it moved aside and what a killed prune left there.
 * Returns what it removed; throws the first removal that failed, once it tried every folder.
 * `written`: the manifest the apply just settled, taken as read while its file keeps that identity.
 */
export async function pruneBackups(
  settings: BackupSettings,
  destinationFolder?: string,
  nowMs: number = Date.now(),
  written?: WrittenManifest,
): Promise<{ removed: BackupSummary[]; kept: number }> {
  if (!settings.enabled) return { removed: [], kept: 0 };
  const folders =
    destinationFolder !== undefined
      ? [destinationFolder]
      : (await namesIn(settings.folder)).map((name) => path.join(settings.folder, name));
  const removed: BackupSummary[] = [];
  const aside: string[] = [];
  let keptCount = 0;
  for (const folder of folders) {
    aside.push(...(await pruningLeftovers(folder)));
    const index = await readBackupIndex(folder);
    const fresh: BackupIndex = new Map();
    const all = await summariesIn(folder, index, fresh, written);
    let kept = 0;
    for (const summary of all) {
      const unfinished = summary.problem !== undefined;
      if (unfinished) {
        const stat = await fs.stat(summary.folder).catch(() => undefined);
        if (!stat || nowMs - stat.mtimeMs < UNFINISHED_AGE_MS) continue;
      } else if (kept < settings.keep) {
        kept++;
        continue;
      }
      fresh.delete(summary.id);
      const pruning = path.join(folder, `${PRUNING_PREFIX}${summary.id}`);
      await fs.rename(summary.folder, pruning);
      aside.push(pruning);
      removed.push(summary);
    }
    keptCount += kept;
    if (!sameIndex(index, fresh))
      // Only a cache: when it cannot be written, the next prune reads the manifests it would have skipped.
      await writeBackupIndex(folder, fresh).catch(() => undefined);
  }
  const failed = await removeAside(aside);
  if (failed) throw failed;
  return { removed, kept: keptCount };
}
