// What a normal or a forced replace deletes, and the fingerprint of what planning read to decide it:
// a normal replace only recorded outputs (and the folders they leave empty), a forced one the whole
// tree. Read-only; refused (as data) across a mount point or through a link.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isCleanRelativePath } from '../../shared/cleanPath';
import type { Fingerprint, FingerprintEntry, PlanDelete } from '../../shared/plan';
import { STATE_FILE_NAME, type OutputRecord } from '../../shared/stateSchema';
import { fingerprintPaths, joinRelative, lstatEntry, lstatEntrySync, mountPointsAmong, walkTree } from './fingerprint';
import { timeSlicer } from './timeSlice';
import { changedOnDisk, IN_THREAD_FILE_BYTES, poolIsRunning } from './changedOutputs';
import type { HashPool } from '../engine/hashPool';
import { listExtra, listingFor } from '../engine/judgeOutputs';
import { type DestinationInspection } from '../engine/inspectDestination';
import { mountRefusal, refuse, type Step } from './planRefusals';
import { ancestorsOf, deepestFirst, isReserved } from './planPaths';

export interface DeletionPlan {
  deletes: PlanDelete[];
  fingerprint: Fingerprint;
  nestedDestinations: string[];
  /** Normal replace: the extra entries, kept. */
  extras?: string[];
  /** Normal replace: folders holding only outputs it deletes (ReplacePlan.wholeFolders). */
  wholeFolders?: string[];
}

/** The extra entries a normal replace keeps: listed like verify lists them (in the pool's worker when it is running), never through a link. */
async function keptExtras(dest: string, outputs: readonly OutputRecord[], pool: HashPool | undefined): Promise<string[] | undefined> {
  const stat = await fs.lstat(dest).catch(() => undefined);
  if (!stat?.isDirectory()) return [];
  const listing = listingFor(outputs);
  try {
    return poolIsRunning(pool)
      ? await pool.list(dest, { exclude: [...listing.exclude], expectedDirs: [...listing.expectedDirs] })
      : listExtra(dest, outputs);
  } catch {
    // Only what the plan shows: a listing that failed leaves the extras unsaid, never the plan refused.
    return undefined;
  }
}

/**
 * Normal replace: only recorded managed outputs (and the folders they leave empty) go. With
 * `hashLargeAtApply` (a plan applied at once), a large output is left for the apply to hash beside
 * its staging (`hashAtApply`): hashed here it would run alone, before the copy.
 */
export async function planNormalDeletions(
  dest: string,
  inspection: DestinationInspection,
  stateSha256: string | null,
  newOutputs: readonly Pick<OutputRecord, 'path'>[],
  stagingName: string,
  pool: HashPool | undefined,
  hashLargeAtApply = false,
): Promise<Step<DeletionPlan>> {
  const touched = new Set<string>(['', STATE_FILE_NAME, stagingName]);
  const outputDeletes: PlanDelete[] = [];
  const deletedOutputs = new Set<string>();
  // Recorded outputs that are files of the recorded size: only their bytes say whether they changed.
  const toHash: { entry: PlanDelete; output: OutputRecord }[] = [];
  // Synchronous lstats (thousands), the event loop let in between slices.
  const slice = timeSlicer();
  // Each path looked at once: a folder of 10,000 outputs is one lstat, not 20,000; an output both
  // deleted and written again one, not two; and the fingerprint takes the entries planning saw.
  const seen = new Map<string, FingerprintEntry>();
  const entryOf = (relative: string): FingerprintEntry => {
    let entry = seen.get(relative);
    if (entry === undefined) seen.set(relative, (entry = lstatEntrySync(dest, relative)));
    return entry;
  };

  for (const output of inspection.state?.outputs ?? []) {
    await slice.yield();
    // The schema already rejects such paths; this check keeps apply bounded even if it did not.
    if (!isCleanRelativePath(output.path) || isReserved(output.path)) {
      return refuse(
        'unsafe_output_path',
        `the state records the output path ${JSON.stringify(output.path)}, which is not a clean path inside the destination`,
        { path: output.path },
      );
    }
    let reachable = true;
    for (const folder of ancestorsOf(output.path)) {
      touched.add(folder);
      const entry = entryOf(folder);
      if (entry.type === 'directory') continue;
      if (entry.type === 'symlink') {
        return refuse(
          'parent_is_symlink',
          `the folder "${folder}" of managed output "${output.path}" is a symbolic link; a normal replace never deletes through a link (a forced replace removes the link itself)`,
          { path: folder, output: output.path },
        );
      }
      reachable = false;
      break;
    }
    touched.add(output.path);
    if (!reachable) continue;
    const entry = entryOf(output.path);
    if (entry.type === 'missing') continue;
    if (entry.type === 'directory' || entry.type === 'other') {
      return refuse(
        'managed_output_not_a_file',
        `managed output "${output.path}" is ${entry.type === 'directory' ? 'a directory' : 'not a regular file'} on disk; a normal replace deletes only files (use a forced replace)`,
        { path: output.path },
      );
    }
    const planned: PlanDelete = { path: output.path, type: entry.type, size: entry.size };
    if (entry.type !== 'file') planned.changed = 'not_a_file';
    else if (entry.size !== output.size) planned.changed = 'size_mismatch';
    else if (hashLargeAtApply && output.size > IN_THREAD_FILE_BYTES) planned.hashAtApply = output.sha256;
    else toHash.push({ entry: planned, output });
    outputDeletes.push(planned);
    deletedOutputs.add(output.path);
  }

  // Folders the deletions leave empty go too, unless a new output needs them. Each folder of a
  // deleted output is listed once: the same listing says whether it can be moved whole.
  const neededFolders = new Set(newOutputs.flatMap((output) => ancestorsOf(output.path)));
  const candidates = [...new Set([...deletedOutputs].flatMap(ancestorsOf))].map((folder) => ({ path: folder })).sort(deepestFirst);
  const emptiedFolders = new Set<string>();
  const wholeFolders = new Set<string>();
  for (const { path: folder } of candidates) {
    const names = await fs.readdir(joinRelative(dest, folder)).catch(() => undefined);
    if (names === undefined) continue;
    if (names.every((name) => isWholeFolderChild(`${folder}/${name}`, deletedOutputs, wholeFolders, seen))) wholeFolders.add(folder);
    if (neededFolders.has(folder)) continue;
    if (names.every((name) => deletedOutputs.has(`${folder}/${name}`) || emptiedFolders.has(`${folder}/${name}`)))
      emptiedFolders.add(folder);
  }

  for (const output of newOutputs) {
    await slice.yield();
    for (const folder of ancestorsOf(output.path)) {
      touched.add(folder);
      const entry = entryOf(folder);
      if (entry.type === 'missing') break;
      if (entry.type === 'directory') continue;
      if (entry.type === 'symlink') {
        return refuse('parent_is_symlink', `new output "${output.path}" would be written through "${folder}", a symbolic link`, {
          path: folder,
          output: output.path,
        });
      }
      if (deletedOutputs.has(folder)) break;
      return refuse(
        'parent_is_file',
        `new output "${output.path}" needs the folder "${folder}", but an extra file is there; a normal replace never deletes extra files`,
        { path: folder, output: output.path },
      );
    }
    touched.add(output.path);
    const entry = entryOf(output.path);
    if (entry.type === 'missing' || deletedOutputs.has(output.path) || emptiedFolders.has(output.path)) continue;
    return refuse(
      'output_on_extra_file',
      `new output "${output.path}" would land on the extra ${entry.type === 'directory' ? 'folder' : 'file'} "${output.path}"; a normal replace never overwrites extra files`,
      { path: output.path },
    );
  }

  const deletes: PlanDelete[] = [];
  const stateEntry = await lstatEntry(dest, STATE_FILE_NAME);
  if (stateEntry.type === 'file') deletes.push({ path: STATE_FILE_NAME, type: 'file', size: stateEntry.size });
  for (const entry of outputDeletes.sort(deepestFirst)) deletes.push(entry);
  for (const folder of [...emptiedFolders].map((p) => ({ path: p })).sort(deepestFirst)) {
    touched.add(folder.path);
    deletes.push({ path: folder.path, type: 'directory', size: 0 });
  }
  const fingerprint = await fingerprintPaths(dest, touched, stateSha256, seen);
  const mountPoints = await mountPointsAmong(dest, fingerprint.entries);
  if (mountPoints.length > 0) return mountRefusal(dest, mountPoints);
  // Hashed last, in the worker pool, once nothing refuses the plan (and never across a mount point).
  // Each was lstat'ed above as a regular file of its recorded size below real folders: opened
  // without a second lstat. A swap since is either told by the open and the read, or changes the
  // lstat the apply's stale-plan check compares with this plan's (the fingerprint holds that lstat).
  const changed = await changedOnDisk(
    dest,
    toHash.map(({ output }) => output),
    pool,
    undefined,
    true,
  );
  toHash.forEach(({ entry, output }, index) => {
    const why = changed[index];
    if (why !== undefined) entry.changed = why;
    else entry.sha256 = output.sha256;
  });
  const extras = await keptExtras(dest, inspection.state?.outputs ?? [], pool);
  return {
    ok: true,
    value: {
      deletes,
      fingerprint,
      nestedDestinations: [],
      ...(extras ? { extras } : {}),
      ...(wholeFolders.size > 0 ? { wholeFolders: [...wholeFolders].sort() } : {}),
    },
  };
}

/**
 * Whether an entry of a folder's listing lets the folder be moved whole: a recorded output the plan
 * deletes that lstat saw as a regular file, or a folder that itself holds only such (checked first:
 * the folders are taken deepest first). A link, an extra file or anything else keeps it per file.
 */
function isWholeFolderChild(
  child: string,
  deletedOutputs: ReadonlySet<string>,
  wholeFolders: ReadonlySet<string>,
  seen: ReadonlyMap<string, FingerprintEntry>,
): boolean {
  if (wholeFolders.has(child)) return true;
  return deletedOutputs.has(child) && seen.get(child)?.type === 'file';
}

/** Forced replace: everything in the tree, links as links; the state first. Refused across a mount point. */
export async function planForcedDeletions(
  dest: string,
  stateSha256: string | null,
  destExists: boolean,
  stagingName: string,
): Promise<Step<DeletionPlan>> {
  if (!destExists) {
    const fingerprint = await fingerprintPaths(dest, ['', STATE_FILE_NAME, stagingName], stateSha256);
    return { ok: true, value: { deletes: [], fingerprint, nestedDestinations: [] } };
  }
  const walk = await walkTree(dest);
  if (walk.mountPoints.length > 0) return mountRefusal(dest, walk.mountPoints);
  const fingerprint: Fingerprint = { stateSha256, wholeTree: true, entries: walk.entries };
  const entries = walk.entries.filter((entry) => entry.path !== '');
  const asDelete = (entry: (typeof entries)[number]): PlanDelete => ({
    path: entry.path,
    type: entry.type === 'missing' ? 'other' : entry.type,
    size: entry.size,
  });
  const stateFile = entries.filter((entry) => entry.path === STATE_FILE_NAME && entry.type !== 'directory');
  const rest = entries.filter((entry) => !stateFile.includes(entry)).sort(deepestFirst);
  // Another destination's state deeper in the tree: its outputs would go too, so the operator must say so.
  const nestedDestinations = entries
    .filter((entry) => entry.type === 'file' && entry.path.endsWith(`/${STATE_FILE_NAME}`))
    .map((entry) => path.posix.dirname(entry.path))
    .sort();
  return { ok: true, value: { deletes: [...stateFile, ...rest].map(asDelete), fingerprint, nestedDestinations } };
}
