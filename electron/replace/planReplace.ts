// Plans a normal or forced replace of one destination: reads the destination, the source manifest
// and the source files, decides with compare(), and returns every path to delete and write plus a
// fingerprint of what it read. Read-only: planning never changes the disk, and it refuses (as data,
// naming the path) rather than plan anything the contract forbids.

import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { isCleanRelativePath } from '../../shared/cleanPath';
import { compare, destinationStateOf } from '../../shared/compare';
import { describeComparison, refusalMessage } from '../../shared/comparisonWords';
import { interruptedStagingOf, normalReplaceVerdict } from '../../shared/replaceVerdict';
import { formatIssuePath } from '../../shared/issues';
import type {
  Fingerprint,
  FingerprintEntry,
  PlanDelete,
  PlanOutcome,
  PlanRefusal,
  PlanWrite,
  ReplaceMode,
  ReplacePlan,
} from '../../shared/plan';
import { problem, type Result } from '../../shared/result';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { chooseStagingName, isRecordedFolder, STAGING_FILES_DIR } from '../../shared/staging';
import { STATE_FILE_NAME, type OutputRecord } from '../../shared/stateSchema';
import { fingerprintPaths, joinRelative, lstatEntry, lstatEntrySync, mountPointsAmong, stateFileSha256, walkTree } from './fingerprint';
import { timeSlicer } from './timeSlice';
import { changedOnDisk } from './changedOutputs';
import { NAME_MAX, nameLength, notPortableRefusal, pathMaxFor, segmentTooLong } from './nameLimits';
import type { HashPool } from '../engine/hashPool';
import { listExtra, listingFor } from '../engine/judgeOutputs';
import { inspectDestination, type DestinationInspection } from '../engine/inspectDestination';
import { preparePublication, type VerifiedOutputs } from './publish';
import { outputRuleFor } from '../../shared/publishRules';
import { readSource } from '../engine/readSource';
import { verifyDestination } from '../engine/verify';
import { outputDriftOf } from '../../shared/outputDrift';
import { missingDestinationParentRefusal } from './destinationParent';
import { destinationSafetyRefusal, realPathOf, type ProtectedPath } from './safeDestination';

export interface PlanReplaceInput {
  destinationPath: string;
  sourcePath: string;
  mode: ReplaceMode;
  configured?: { pipelineId?: string; destinationId?: string };
  baseUrl?: string;
  /** Configured primary output path (link policy). */
  primary?: string;
  replacePolicy?: 'allow' | 'deny';
  /** Paths a forced replace must never delete, e.g. the workspace file. */
  protectedPaths?: ProtectedPath[];
  /** A forced replace of a folder owned by another user is refused unless this is set (--allow-other-owner). */
  allowOtherOwner?: boolean;
  /** Filled with the outputs' verified bytes, for an apply that follows at once (publish.ts VerifiedOutputs). */
  keepVerified?: VerifiedOutputs;
  /** The worker pool that hashes recorded outputs to tell which changed on disk (the session's); without it, one is made for the call. */
  pool?: HashPool;
  /** For tests: the clock, the home directory, the passwd file, the longest name the file system takes, the platform. */
  now?: () => Date;
  platform?: NodeJS.Platform;
  homeDirectory?: string;
  passwdFile?: string;
  nameMax?: number;
}

/** A step of planning: its value, or the refusal that ends the plan. */
type Step<T> = Result<T, PlanRefusal>;
type Refused = { ok: false; error: PlanRefusal };

function refuse(code: string, message: string, details?: Record<string, unknown>): Refused {
  return { ok: false, error: problem(code, message, details) };
}

/** "a/b/c.html" → ["a", "a/b"]: the folders on the way, outermost first. */
export function ancestorsOf(relative: string): string[] {
  const segments = relative.split('/');
  return segments.slice(1).map((_, index) => segments.slice(0, index + 1).join('/'));
}

const depth = (relative: string) => relative.split('/').length;
/** Deepest first, so children go before their folders; then by path, for a stable order. */
const deepestFirst = <T extends { path: string }>(a: T, b: T) =>
  depth(b.path) - depth(a.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The contract reserves only the state file's name; every other clean path may be an output. */
function isReserved(relative: string): boolean {
  return relative === STATE_FILE_NAME;
}

interface DeletionPlan {
  deletes: PlanDelete[];
  fingerprint: Fingerprint;
  nestedDestinations: string[];
  /** Normal replace: the extra entries, kept. */
  extras?: string[];
}

/** The extra entries a normal replace keeps: listed like verify lists them (in the pool's worker when there is one), never through a link. */
async function keptExtras(dest: string, outputs: readonly OutputRecord[], pool: HashPool | undefined): Promise<string[] | undefined> {
  const stat = await fs.lstat(dest).catch(() => undefined);
  if (!stat?.isDirectory()) return [];
  const listing = listingFor(outputs);
  try {
    return pool
      ? await pool.list(dest, { exclude: [...listing.exclude], expectedDirs: [...listing.expectedDirs] })
      : listExtra(dest, outputs);
  } catch {
    // Only what the plan shows: a listing that failed leaves the extras unsaid, never the plan refused.
    return undefined;
  }
}

function mountRefusal(dest: string, mountPoints: string[]): Refused {
  const first = mountPoints[0] as string;
  const more = mountPoints.length > 1 ? ` (and ${mountPoints.length - 1} more: ${mountPoints.slice(1, 4).join(', ')})` : '';
  return refuse(
    'crosses_mount_point',
    `${joinRelative(dest, first)} is a mount point${more}; a replace never deletes or descends into another file system (like rm --one-file-system): unmount it, or move it out of the destination`,
    { path: first, mountPoints },
  );
}

/** Normal replace: only recorded managed outputs (and the folders they leave empty) go. */
async function planNormalDeletions(
  dest: string,
  inspection: DestinationInspection,
  stateSha256: string | null,
  newOutputs: readonly Pick<OutputRecord, 'path'>[],
  stagingName: string,
  pool: HashPool | undefined,
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
    else toHash.push({ entry: planned, output });
    outputDeletes.push(planned);
    deletedOutputs.add(output.path);
  }

  // Folders the deletions leave empty go too, unless a new output needs them.
  const neededFolders = new Set(newOutputs.flatMap((output) => ancestorsOf(output.path)));
  const candidates = [...new Set([...deletedOutputs].flatMap(ancestorsOf))].map((folder) => ({ path: folder })).sort(deepestFirst);
  const emptiedFolders = new Set<string>();
  for (const { path: folder } of candidates) {
    if (neededFolders.has(folder)) continue;
    const names = await fs.readdir(joinRelative(dest, folder)).catch(() => undefined);
    if (names === undefined) continue;
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
  const changed = await changedOnDisk(
    dest,
    toHash.map(({ output }) => output),
    pool,
  );
  toHash.forEach(({ entry, output }, index) => {
    const why = changed[index];
    if (why !== undefined) entry.changed = why;
    else entry.sha256 = output.sha256;
  });
  const extras = await keptExtras(dest, inspection.state?.outputs ?? [], pool);
  return { ok: true, value: { deletes, fingerprint, nestedDestinations: [], ...(extras ? { extras } : {}) } };
}

/** Forced replace: everything in the tree, links as links; the state first. Refused across a mount point. */
async function planForcedDeletions(
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

/** A name (or the whole path) the file system cannot hold: refused now rather than failing mid-apply. */
function nameLimitRefusal(
  destReal: string,
  stagingName: string,
  writes: OutputRecord[],
  nameMax: number,
  platform: NodeJS.Platform,
): Refused | null {
  const notPortable = notPortableRefusal(writes, platform);
  if (notPortable) return { ok: false, error: notPortable };
  const pathMax = pathMaxFor(platform);
  for (const write of writes) {
    const tooLong = segmentTooLong(write.path, platform, nameMax);
    if (tooLong) {
      return refuse(
        'name_too_long',
        `output "${write.path}" (from source file "${write.source_path}") has the name "${tooLong.segment}" of ${tooLong.length} bytes; the file system holds names of at most ${nameMax}`,
        { path: write.path, source_path: write.source_path, segment: tooLong.segment, length: tooLong.length, limit: nameMax },
      );
    }
    // Staged under <staging>/files/ first: the longest path apply uses for this output.
    const staged = path.join(destReal, stagingName, STAGING_FILES_DIR, ...write.path.split('/'));
    if (pathMax !== undefined && nameLength(staged, platform) > pathMax) {
      return refuse(
        'path_too_long',
        `output "${write.path}" (from source file "${write.source_path}") would need the path ${staged}, longer than the ${pathMax} bytes the system allows`,
        { path: write.path, source_path: write.source_path, limit: pathMax },
      );
    }
  }
  return null;
}

function sourceRefusal(manifestFile: string, issues: { path: (string | number)[]; message: string; severity: string }[]): Refused {
  const errors = issues.filter((issue) => issue.severity === 'error');
  const text = errors
    .map((issue) => (issue.path.length > 0 ? `${formatIssuePath(issue.path)}: ${issue.message}` : issue.message))
    .join('; ');
  return refuse('source_invalid', `${manifestFile}: ${text}`, { file: manifestFile, issues: errors });
}

export async function planReplace(input: PlanReplaceInput): Promise<PlanOutcome> {
  try {
    return await planUnchecked(input);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return refuse('io_error', `planning failed while reading the disk: ${(cause as Error).message}`, code ? { errno: code } : undefined);
  }
}

async function planUnchecked(input: PlanReplaceInput): Promise<PlanOutcome> {
  const dest = path.resolve(input.destinationPath);
  const now = (input.now ?? (() => new Date()))();
  const source = await readSource(input.sourcePath);
  if (!source.ok) return sourceRefusal(source.manifestFile, source.issues);
  const bundleRealPath = await fs.realpath(source.bundleDir);

  const safety = await destinationSafetyRefusal({
    destinationPath: dest,
    sourceRealPath: bundleRealPath,
    mode: input.mode,
    protectedPaths: input.protectedPaths,
    allowOtherOwner: input.allowOtherOwner,
    homeDirectory: input.homeDirectory,
    passwdFile: input.passwdFile,
  });
  if (safety) return { ok: false, error: safety };
  const destExists = (await lstatEntry(dest, '')).type !== 'missing';
  if (!destExists) {
    const parentRefusal = await missingDestinationParentRefusal(dest);
    if (parentRefusal) return { ok: false, error: parentRefusal };
  }

  const inspection = await inspectDestination(dest);
  const comparison = compare({
    destination: destinationStateOf(inspection),
    hasContent: inspection.hasContent,
    source: source.manifest,
    configured: input.configured,
  });
  // The one rule (shared/replaceVerdict.ts) decides a normal replace, here as in Compare: the decision,
  // the replace policy and a staging folder an interrupted replace left (as inspect found it).
  const facts = {
    comparison,
    replaceAllowed: input.replacePolicy !== 'deny',
    interruptedStaging: interruptedStagingOf(inspection.issues),
  };
  const planComparison = { ...comparison, explanation: describeComparison(comparison, { ...facts, destinationPath: dest }) };
  // The fingerprint holds the state as apply will read it (also a link or a folder in its place);
  // it must be the state the decision was made on.
  const stateSha256 = await stateFileSha256(dest);
  const decidedOn = inspection.stateSha256 ?? null;
  const stateChanged = decidedOn !== null ? decidedOn !== stateSha256 : stateSha256?.startsWith('sha256:') === true;
  if (stateChanged) {
    return refuse('changed_while_planning', `${path.join(dest, STATE_FILE_NAME)} changed while the plan was being made; plan again`, {
      path: STATE_FILE_NAME,
    });
  }

  const base = {
    planVersion: 1 as const,
    mode: input.mode,
    destinationPath: dest,
    destinationRealPath: await realPathOf(dest),
    destinationExists: destExists,
    sourcePath: bundleRealPath,
    ...(inspection.state
      ? { recordedSource: { id: inspection.state.source.manifest.id, digest: inspection.state.source.manifest.digest } }
      : {}),
    comparison: planComparison,
    plannedAt: formatRfc3339Utc(now),
  };

  if (input.mode === 'replace') {
    // The same manifest says nothing of the files: verified, so a drifted destination is never called
    // up to date, and the words are those Compare shows (drift included), also in a refusal.
    if (comparison.decision === 'skip' && inspection.state) {
      const drift = outputDriftOf(await verifyDestination(dest, inspection.state, { pool: input.pool }));
      base.comparison = { ...comparison, explanation: describeComparison(comparison, { ...facts, drift, destinationPath: dest }) };
    }
    const verdict = normalReplaceVerdict(facts);
    if (verdict.outcome === 'refused') return refuse(verdict.code, refusalMessage(base.comparison.explanation), verdict.details);
    if (verdict.outcome === 'nothing') {
      const fingerprint = await fingerprintPaths(dest, ['', STATE_FILE_NAME], stateSha256);
      const summary = { deleteCount: 0, writeCount: 0, deleteBytes: 0, writeBytes: 0, changedCount: 0 };
      const plan: ReplacePlan = {
        ...base,
        action: 'nothing',
        stagingName: '',
        nestedDestinations: [],
        deletes: [],
        writes: [],
        fingerprint,
        summary,
      };
      return { ok: true, value: plan };
    }
  }

  const pipelineId = input.configured?.pipelineId ?? inspection.state?.pipeline_id;
  const destinationId = input.configured?.destinationId ?? inspection.state?.destination_id;
  if (!pipelineId || !destinationId) {
    const missing = [!pipelineId ? 'pipeline_id' : undefined, !destinationId ? 'destination_id' : undefined].filter(Boolean);
    return refuse(
      'ids_required',
      `the destination has no valid state to take ${missing.join(' and ')} from; give them (--pipeline, --destination)`,
      { missing },
    );
  }

  // A working folder no old or new output uses, and that is not an entry on disk (shared/staging.ts).
  // The new outputs' paths follow from the manifest alone (publishRules.ts), before any byte is read.
  const oldOutputs = (inspection.state?.outputs ?? []).map((output) => output.path);
  const newOutputs = source.manifest.files.map((file) => ({ path: outputRuleFor(file.path).path }));
  const newOutputPaths = newOutputs.map((output) => output.path);
  const names = destExists ? new Set(await fs.readdir(dest)) : new Set<string>();
  const stagingName = chooseStagingName(
    (name) => names.has(name) || isRecordedFolder(name, oldOutputs) || isRecordedFolder(name, newOutputPaths),
    () => randomBytes(4).toString('hex'),
  );

  // The source is verified while the deletions are planned: each hashes on its own (the source's
  // large files in this thread, the old outputs in the pool), so a 1 GiB source and a 1 GiB old
  // output take the time of one. Read-only both; their refusals keep their order (source first).
  const deletionPlanned = (
    input.mode === 'force'
      ? planForcedDeletions(dest, stateSha256, destExists, stagingName)
      : planNormalDeletions(dest, inspection, stateSha256, newOutputs, stagingName, input.pool)
  ).then(
    (step) => ({ step }),
    (cause: unknown) => ({ cause }),
  );
  const publication = await preparePublication({
    bundleRealPath,
    manifest: source.manifest,
    pipelineId,
    destinationId,
    publishedAt: base.plannedAt,
    baseUrl: input.baseUrl,
    primary: input.primary,
    ...(input.keepVerified ? { keep: input.keepVerified } : {}),
  }).catch(async (cause: unknown) => {
    await deletionPlanned;
    throw cause;
  });
  const deletionDone = await deletionPlanned;
  if (!publication.ok) return publication;
  const tooLong = nameLimitRefusal(
    base.destinationRealPath,
    stagingName,
    publication.value.outputs,
    input.nameMax ?? NAME_MAX,
    input.platform ?? process.platform,
  );
  if (tooLong) return tooLong;
  if ('cause' in deletionDone) throw deletionDone.cause;
  const deletionStep = deletionDone.step;
  if (!deletionStep.ok) return deletionStep;
  const deletion = deletionStep.value;

  const writes: PlanWrite[] = publication.value.outputs.map((output) => ({
    path: output.path,
    size: output.size,
    sha256: output.sha256,
    kind: output.kind,
    source_path: output.source_path,
  }));
  const summary = {
    deleteCount: deletion.deletes.length,
    writeCount: writes.length,
    deleteBytes: deletion.deletes.reduce((sum, entry) => sum + (entry.type === 'directory' ? 0 : entry.size), 0),
    writeBytes: writes.reduce((sum, write) => sum + write.size, 0),
    changedCount: deletion.deletes.filter((entry) => entry.changed !== undefined).length,
  };
  const plan: ReplacePlan = {
    ...base,
    action: 'replace',
    stagingName,
    nestedDestinations: deletion.nestedDestinations,
    ...(deletion.extras ? { extras: deletion.extras } : {}),
    deletes: deletion.deletes,
    writes,
    newState: publication.value.state,
    fingerprint: deletion.fingerprint,
    summary,
  };
  return { ok: true, value: plan };
}
