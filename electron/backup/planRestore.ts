// Plans the restore of a backup: the destination put back exactly as it was before the apply that
// made the backup (the same bytes, the same state). Read-only. Refuses when the destination changed
// since that apply (an output it wrote edited, a state it did not write, an entry added after a
// forced replace), when the backup itself changed, or when something would be overwritten. Also
// plans the rest of a restore or apply that was killed mid-way: what is already back in place (the
// same inode after a rename, the same bytes after a copy) is left, what the apply wrote is removed.

import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BACKUP_FILES_DIR, type BackupEntry, type BackupManifest, type RestorePlan } from '../../shared/backupSchema';
import type { FingerprintEntry } from '../../shared/plan';
import { parseState } from '../../shared/parseDocument';
import { planKindNoun, planKindOf } from '../../shared/planKinds';
import type { Problem, Result } from '../../shared/result';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { hashRegularFile } from './fileDigest';
import { isStagingFolderName, parseStagingMarker, restoreStagingSourceId, STAGING_MARKER_NAME } from '../../shared/staging';
import { interruptedStagingFolders, stagingCandidates } from '../engine/stagingReader';
import { joinRelative, lstatEntry, readStateFileBytes, walkTree } from '../replace/fingerprint';
import { realPathOf } from '../replace/safeDestination';
import { openPinnedBackup, type PinnedBackup } from './pinnedBackup';

const refuse = (code: string, message: string, details?: Record<string, unknown>): Result<never, Problem> => ({
  ok: false,
  error: { code, message, ...(details ? { details } : {}) },
});
const sha256Of = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const ancestorsOf = (relative: string) => {
  const parts = relative.split('/');
  return parts.slice(0, -1).map((_, index) => parts.slice(0, index + 1).join('/'));
};
const parentOf = (relative: string) => (path.posix.dirname(relative) === '.' ? '' : path.posix.dirname(relative));
const isBelow = (relative: string, folder: string) => relative === folder || relative.startsWith(`${folder}/`);

/** The file's sha256 when it is a regular file of that size; undefined when it is not, or cannot be read. */
const fileSha256 = (file: string, sizeBytes: number) => hashRegularFile(file, sizeBytes).catch(() => undefined);

/** Whether what stands at `full` is the entry as it was kept: by inode after a rename, by content after a copy. */
export async function entryMatches(
  entry: BackupEntry,
  seen: FingerprintEntry,
  full: string,
  method: BackupManifest['method'],
): Promise<boolean> {
  if (seen.type !== entry.type) return false;
  if (method === 'rename') {
    if (seen.ino !== entry.ino) return false;
    // A folder's mtime moves when it moves (its ".." entry changes); a file's and a link's do not.
    return entry.type === 'directory' || (seen.mtimeNs === entry.mtimeNs && seen.size === entry.size);
  }
  if (entry.type === 'directory') return true;
  if (entry.type === 'symlink') return (await fs.readlink(full).catch(() => undefined)) === entry.linkTarget;
  if (entry.type === 'file') return seen.size === entry.size && (await fileSha256(full, entry.size)) === entry.sha256;
  return false;
}

/** Whether the state the destination holds now is the one the apply left (known by hash, or, if it was killed, by its outputs). */
function isApplysState(bytes: Buffer, manifest: BackupManifest): boolean {
  if (manifest.after?.stateSha256 !== undefined) return sha256Of(bytes) === manifest.after.stateSha256;
  const parsed = parseState(bytes);
  if (parsed.status !== 'managed') return false;
  const key = (o: { path: string; sha256: string; size: number }) => `${o.path}\0${o.sha256}\0${o.size}`;
  return parsed.state.outputs.map(key).sort().join('\n') === manifest.writes.map(key).sort().join('\n');
}

/**
 * The staging folders a restore removes: those an interrupted apply (or restore) left. A discard's
 * backup keeps staging folders themselves: those go back, so only the restore's own (a killed restore
 * of this backup, marked as such) are removed; one a later apply left there is not this restore's to remove.
 */
function stagingToRemove(destReal: string, manifest: BackupManifest): string[] {
  const interrupted = interruptedStagingFolders(destReal);
  if (!planKindOf(manifest.action).onlyStaging) return interrupted;
  const kept = new Set(manifest.entries.map((entry) => entry.path.split('/')[0]));
  const markers = new Map(stagingCandidates(destReal, interrupted).map((candidate) => [candidate.name, candidate.markerText]));
  return interrupted.filter(
    (name) => !kept.has(name) && parseStagingMarker(markers.get(name))?.source.id === restoreStagingSourceId(manifest.id),
  );
}

export interface RestoreInput {
  /** The backup folder (`<backups>/<destination>/<id>`). */
  backupFolder: string;
  /** The destination as the workspace names it now; must be the folder the backup was made of. */
  destinationPath: string;
  now?: () => Date;
}

export async function planRestore(input: RestoreInput): Promise<Result<RestorePlan, Problem>> {
  const opened = await openPinnedBackup(input.backupFolder);
  if (!opened.ok) return { ok: false, error: opened.error };
  try {
    return await planPinned(input, opened.backup);
  } finally {
    await opened.backup.close();
  }
}

/**
 * Whether every entry the restore would put back is in the backup as it was kept, and the backup
 * holds nothing else: checked as a whole, before anything moves, so a backup that was tampered with
 * (a link planted on the way, an entry added or swapped) is refused outright.
 */
export async function backupFilesProblem(backup: PinnedBackup, puts: readonly BackupEntry[], folder: string): Promise<Problem | undefined> {
  const { manifest } = backup;
  const strays = await backup.strays().catch((cause: NodeJS.ErrnoException) => [`(the listing failed: ${cause.code ?? cause.message})`]);
  if (strays.length > 0)
    return {
      code: 'backup_changed',
      message: `${path.join(folder, BACKUP_FILES_DIR)} holds ${strays.map((stray) => `"${stray}"`).join(', ')}, which its manifest does not list: the backup was changed since it was made and is not restored`,
      details: { path: strays[0] },
    };
  for (const entry of puts) {
    const why = await backup.unreachable(entry.path);
    const matches =
      why === undefined &&
      (await backup.at(entry.path, async (full) => entryMatches(entry, await lstatEntry(full, ''), full, manifest.method)));
    if (!matches)
      return {
        code: 'backup_changed',
        message: `"${entry.path}" in the backup ${why ?? 'is not the entry that was kept'} (${joinRelative(path.join(folder, BACKUP_FILES_DIR), entry.path)}): this backup can no longer restore it`,
        details: { path: entry.path },
      };
  }
  return undefined;
}

async function planPinned(input: RestoreInput, backup: PinnedBackup): Promise<Result<RestorePlan, Problem>> {
  const { manifest } = backup;
  const destinationPath = path.resolve(input.destinationPath);
  const destEntry = await lstatEntry(destinationPath, '');
  if (destEntry.type !== 'directory')
    return refuse(
      'destination_changed',
      `${destinationPath} is ${destEntry.type === 'missing' ? 'missing' : `a ${destEntry.type}`} now, not the folder the backup was made of`,
    );
  const destReal = await realPathOf(destinationPath);
  if (destReal !== manifest.destination.realPath)
    return refuse('destination_changed', `${destinationPath} is ${destReal} now; the backup was made of ${manifest.destination.realPath}`);
  const walk = await walkTree(destReal);
  if (walk.mountPoints.length > 0)
    return refuse(
      'crosses_mount_point',
      `${joinRelative(destReal, walk.mountPoints[0] as string)} is a mount point; a restore never crosses into one`,
    );
  const byPath = new Map(walk.entries.map((entry) => [entry.path, entry]));

  // ── each kept entry: still in the backup (to put back), or already back in place ──
  const puts: BackupEntry[] = [];
  const alreadyInPlace: string[] = [];
  const notKept: string[] = [];
  for (const entry of manifest.entries) {
    // A pending entry (an apply killed before its end was recorded) is in the backup or still in place.
    if (!entry.kept && !entry.pending) {
      notKept.push(entry.path);
      continue;
    }
    const here = byPath.get(entry.path);
    const inPlace = here ? await entryMatches(entry, here, joinRelative(destReal, entry.path), manifest.method) : false;
    if (inPlace) alreadyInPlace.push(entry.path);
    else {
      const { pending: _pending, ...settled } = entry;
      puts.push({ ...settled, kept: true });
    }
  }
  const backupProblem = await backupFilesProblem(backup, puts, input.backupFolder);
  if (backupProblem) return { ok: false, error: backupProblem };
  // A folder moved whole is back with all below it; a copied folder is one entry, each below it its own.
  const inPlaceCovers = (relative: string) =>
    alreadyInPlace.some(
      (kept) => relative === kept || (manifest.method === 'rename' && isBelow(relative, kept) && byPath.get(kept)?.type === 'directory'),
    );

  // ── what the apply left: its state, its outputs, its staging folder ──
  const removes: RestorePlan['removes'] = [];
  const stateBytes = await readStateFileBytes(destReal);
  const stateKeptBack = alreadyInPlace.includes(STATE_FILE_NAME);
  if (typeof stateBytes === 'string')
    return refuse(
      'destination_changed',
      `${path.join(destinationPath, STATE_FILE_NAME)} is ${stateBytes === 'symlink' ? 'a symbolic link' : 'not a file'} now`,
    );
  if (manifest.stateLeft !== undefined) {
    // A repair never touched the state: it must still be the same, and it stays where it is.
    if (!stateBytes || sha256Of(stateBytes) !== manifest.stateLeft)
      return refuse(
        'destination_changed',
        `the state file of ${destinationPath} is not the one the ${planKindNoun(manifest.action)} of ${manifest.createdAt} left in place: the destination changed since; a restore would not match it`,
        { path: STATE_FILE_NAME },
      );
  } else if (planKindOf(manifest.action).onlyStaging) {
    // A discard in a destination with no state: there must still be none (a publish since is a change).
    if (stateBytes)
      return refuse(
        'destination_changed',
        `${path.join(destinationPath, STATE_FILE_NAME)} was written after the discard of staging of ${manifest.createdAt}: the destination changed since; a restore would not match it`,
        { path: STATE_FILE_NAME },
      );
  } else if (stateBytes && !stateKeptBack) {
    if (!isApplysState(stateBytes, manifest))
      return refuse(
        'destination_changed',
        `the state file of ${destinationPath} is not the one the ${planKindNoun(manifest.action)} of ${manifest.createdAt} wrote: the destination changed since; a restore would lose that`,
        { path: STATE_FILE_NAME },
      );
    removes.push({ path: STATE_FILE_NAME, type: 'file', size: stateBytes.length });
  }
  for (const write of manifest.writes) {
    const here = byPath.get(write.path);
    if (!here || here.type === 'missing' || inPlaceCovers(write.path)) continue;
    const full = joinRelative(destReal, write.path);
    if (here.type !== 'file' || here.size !== write.size || (await fileSha256(full, write.size)) !== write.sha256)
      return refuse(
        'destination_changed',
        `"${write.path}" changed since the ${planKindNoun(manifest.action)} wrote it: a restore would lose that change`,
        {
          path: write.path,
        },
      );
    removes.push({ path: write.path, type: 'file', size: write.size });
  }
  const removeStaging = stagingToRemove(destReal, manifest);
  const gone = new Set(removes.map((entry) => entry.path));
  const isGone = (relative: string) => gone.has(relative) || removeStaging.some((name) => isBelow(relative, name));
  // Folders the apply's outputs leave empty, deepest first (a folder that still holds anything stays),
  // but none that stood before the apply (`foldersLeft`; an older backup did not record them).
  // After a forced replace every folder of its outputs is its own (all that was there is in the backup):
  // also one a killed restore already emptied, which would otherwise stand where the old folder goes back.
  const writtenFolders = planKindOf(manifest.action).deletesWholeTree ? manifest.writes.flatMap((write) => ancestorsOf(write.path)) : [];
  const candidates = [...new Set([...removes.flatMap((entry) => ancestorsOf(entry.path)), ...writtenFolders])].sort().reverse();
  const foldersLeft = new Set(manifest.foldersLeft ?? []);
  for (const folder of candidates) {
    if (inPlaceCovers(folder) || foldersLeft.has(folder)) continue;
    const children = walk.entries.filter((entry) => entry.path.startsWith(`${folder}/`));
    if (byPath.get(folder)?.type === 'directory' && children.every((child) => isGone(child.path))) {
      removes.push({ path: folder, type: 'directory', size: 0 });
      gone.add(folder);
    }
  }
  const remaining = walk.entries.filter((entry) => entry.path !== '' && !isGone(entry.path) && !inPlaceCovers(entry.path));

  // ── nothing may be overwritten; after a forced replace, nothing may have been added ──
  // (After a discard, nothing may have been added inside the staging folders it kept.)
  const keptFolders = planKindOf(manifest.action).onlyStaging
    ? manifest.entries.filter((entry) => !entry.path.includes('/')).map((entry) => entry.path)
    : [];
  const putPaths = new Set(puts.map((entry) => entry.path));
  const folderOfPuts = new Set(puts.flatMap((entry) => ancestorsOf(entry.path)));
  for (const entry of remaining) {
    const put = puts.find((candidate) => candidate.path === entry.path);
    const mergesFolder = put?.type === 'directory' && entry.type === 'directory' && manifest.method === 'copy';
    if (put && !mergesFolder)
      return refuse(
        'target_exists',
        `"${entry.path}" is in ${destinationPath} now, where the backup puts its own "${entry.path}"; it is not overwritten`,
        {
          path: entry.path,
        },
      );
    if (folderOfPuts.has(entry.path) && entry.type !== 'directory')
      return refuse('target_exists', `"${entry.path}" is a ${entry.type} now, where the backup needs a folder`, { path: entry.path });
    const accounted = putPaths.has(entry.path) || (folderOfPuts.has(entry.path) && entry.type === 'directory');
    if (planKindOf(manifest.action).onlyStaging && keptFolders.some((folder) => isBelow(entry.path, folder)) && !accounted)
      return refuse(
        'destination_changed',
        `"${entry.path}" is in ${destinationPath} now, inside the staging folder the backup puts back: it was added after the discard of ${manifest.createdAt}; a restore never merges into it`,
        { path: entry.path },
      );
    if (planKindOf(manifest.action).deletesWholeTree && !accounted)
      return refuse(
        'destination_changed',
        `"${entry.path}" was added to ${destinationPath} after the forced replace of ${manifest.createdAt}; a restore puts back only what was there before, and would lose it`,
        { path: entry.path },
      );
  }

  const stateLast = (entry: BackupEntry) => (entry.path === STATE_FILE_NAME ? 1 : 0);
  // A staging folder put back entry by entry (from a copy) gets its marker first, right after the
  // folder: killed part-way, what is back is still marked, so inspect still calls it interrupted.
  const sortKey = (entry: BackupEntry) =>
    isStagingFolderName(parentOf(entry.path)) && path.posix.basename(entry.path) === STAGING_MARKER_NAME
      ? `${parentOf(entry.path)}/\u0000`
      : entry.path;
  puts.sort((a, b) => stateLast(a) - stateLast(b) || (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  const stateSha256 = stateBytes ? sha256Of(stateBytes) : null;
  return {
    ok: true,
    value: {
      planVersion: 1,
      backupId: manifest.id,
      backupFolder: path.resolve(input.backupFolder),
      destinationPath,
      destinationRealPath: destReal,
      method: manifest.method,
      removes,
      removeStaging,
      puts,
      alreadyInPlace,
      notKept,
      fingerprint: { stateSha256, wholeTree: true, entries: walk.entries },
      plannedAt: formatRfc3339Utc((input.now ?? (() => new Date()))()),
      summary: {
        removeCount: removes.length + removeStaging.length,
        putCount: puts.length,
        putBytes: puts.reduce((sum, entry) => sum + entry.size, 0),
      },
    },
  };
}
