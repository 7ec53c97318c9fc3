// Applies a replace plan, in the one order that keeps the contract's promise at every instant,
// also when the process is killed between two steps: a `.distributor.json` on disk always describes
// outputs whose bytes are on disk as it says (docs/replace.md explains each step).
// Never touches anything outside the destination: every path is a clean relative path, and every
// mutation acts on one name inside a folder held open (pinnedDir.ts: opened step by step with
// O_NOFOLLOW from the destination, on its device), so a folder swapped for a link mid-way cannot
// redirect it. A forced replace first moves the old entries into a private trash folder, then removes
// only inside it (removeTree.ts). A failure before the old state is removed takes everything back out.
// All mutations go through FsOps; failures come back as data, never as a throw.

import path from 'node:path';
import type { ManifestFile } from '../../shared/manifestSchema';
import {
  nestedDestinationsText,
  nestedNotAcknowledged,
  replacePlanSchema,
  type ApplyPhase,
  type ApplyProgress,
  type ApplyResult,
  type ReplacePlan,
} from '../../shared/plan';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import {
  STAGING_FILES_DIR,
  STAGING_MARKER_KIND,
  STAGING_MARKER_NAME,
  STAGING_STATE_TEMP,
  STAGING_TRASH_DIR,
  stagingMarkerText,
} from '../../shared/staging';
import { STATE_FILE_NAME, type State } from '../../shared/stateSchema';
import { checkDiscardPlan, discardStagingFolder } from './kinds/discardStaging';
import { repairBytes, repairTarget } from './kinds/repair';
import { BackupRefused, countedFsOps, type BackupStep, type PreparedBackup } from './backupStep';
import { boundedAll } from './boundedAll';
import { checkFingerprint, joinRelative, lstatEntry, stateFileSha256 } from './fingerprint';
import { nodeFsOps, type FileBytes, type FsOps, type WriteOptions } from './fsOps';
import { PinCache } from './pinCache';
import { childPath, pinDirectory, pinRelative, type PinnedDir } from './pinnedDir';
import { ancestorsOf } from './planPaths';
import { CHUNK_BYTES } from './hashedChunks';
import { outputBytesFor, stateFileBytes, type VerifiedOutputs } from './publish';
import { isStreamedSource, readVerifiedSourceFile, sha256Of, SourceRefused, verifiedSourceChunks } from './sourceFile';
import { realPathOf } from './safeDestination';
import { ApplyFailure, manifestFileOf, notThePlannedBytes, reachFailure, sourceChanged, type PlannedWrite } from './applyErrors';
import { checkNormalDeletes, checkPlanPaths, parentOf } from './applyChecks';
import { failedBeforeStart, initialResult } from './applyResult';

export interface ApplyOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ApplyProgress) => void;
  fs?: FsOps;
  now?: () => Date;
  /** The operator acknowledged the nested managed destinations a forced plan deletes (--include-nested). */
  includeNested?: boolean;
  /** The operator accepted a repair that leaves its refused outputs as they are (--accept-partial). */
  acceptPartial?: boolean;
  /** Keeps what the apply removes (backup/backupWriter.ts); without it, removed entries are deleted. */
  backup?: BackupStep;
  /**
   * The plan's own verified outputs, when the apply follows the plan at once (`replace --yes`):
   * each is hashed and staged if it is exactly the write's bytes (sha256 and size), so the source
   * is not read a second time; any other is read from the source as always.
   */
  verified?: VerifiedOutputs;
}

// Per-output work in flight at once: keeps libuv's four threads and the disk queue busy (one call at a
// time left the main thread idle 70% of a 10,000-file replace), few enough descriptors.
const FILES_IN_FLIGHT = 16;
// Bytes of source files read at once: sixteen 1 GiB files are never held together.
const BYTES_IN_FLIGHT = 256 * 1024 * 1024;
// Verified output bytes kept from the verify step for the stage step, so each source file is read
// and hashed once per apply; past this, an output is read and verified only when it is staged.
const KEPT_BYTES_MAX = 256 * 1024 * 1024;
// A streamed output (a large file published as it is) holds one read buffer, not its size: many
// stream at once (hashedChunks.ts).
const STREAM_WEIGHT_BYTES = CHUNK_BYTES;

export async function applyPlan(planInput: ReplacePlan, options: ApplyOptions = {}): Promise<ApplyResult> {
  const startedMs = performance.now();
  const parsedPlan = replacePlanSchema.safeParse(planInput);
  if (!parsedPlan.success) {
    const problems = parsedPlan.error.issues.map((issue) => `${issue.path.join('.') || '(plan)'}: ${issue.message}`).join('; ');
    return failedBeforeStart(planInput, `the plan is not a valid plan: ${problems}`, startedMs);
  }
  const plan = parsedPlan.data;
  const inner = options.fs ?? nodeFsOps;
  const result = initialResult(plan.mode, plan.destinationPath);
  let destReal = plan.destinationRealPath;
  const staging = plan.stagingName;
  const inStaging = (relative: string) => `${staging}/${relative}`;
  const stagedFile = (outputPath: string) => `${staging}/${STAGING_FILES_DIR}/${outputPath}`;
  // The destination, held open from the check on: every mutation is reached from it, one folder at a time.
  let destPin: PinnedDir | undefined;
  // Folders of the staging folder, opened once (apply's own, below a 0700 folder); destination folders are pinned per mutation.
  const pins = new PinCache(staging);
  let createdDestination = false;
  // A repair's state (on disk, unchanged): its outputs' bytes are proven from it, not from a new manifest.
  let repairState: State | undefined;
  let stagingCreated = false;
  // The backup of what the apply removes: entered just before the point of no return.
  let backupEntered = false;
  let backupTaken: PreparedBackup | undefined;
  const backupFs = countedFsOps(inner, () => void result.mutations++);
  // Set when the old state is about to go: from then on a failure leaves things for a forced replace.
  let pastNoReturn = false;
  let phase = 'check' as ApplyPhase; // widened: enter() changes it inside a closure
  let done = 0;
  let bytes = 0;
  const total = plan.writes.length * 2 + plan.deletes.length + 1;
  // The phase's own count, beside the apply's overall done/total: "staging 3,400 / 10,000".
  let stepDone = 0;
  let stepTotal = 0;
  const progress = (at?: string) =>
    options.onProgress?.({
      phase,
      step: { phase, done: stepDone, total: stepTotal },
      done,
      total,
      bytes,
      ...(at !== undefined ? { path: at } : {}),
    });
  const enter = (next: ApplyPhase, count: number) => {
    phase = next;
    stepDone = 0;
    stepTotal = count;
  };

  /** The path of `relative` reached through its pinned parent folder; messages name the real path, never /proc/self/fd. */
  async function reach(relative: string): Promise<{ full: string; release: () => Promise<void>; humanize: (cause: unknown) => unknown }> {
    if (!destPin) throw new ApplyFailure('invalid_plan', 'the destination is not open');
    const folder = parentOf(relative);
    let pin: PinnedDir;
    let release: () => Promise<void>;
    try {
      ({ pin, release } = await pins.pin(destPin, folder));
    } catch (cause) {
      throw reachFailure(cause, relative);
    }
    const realFolder = joinRelative(destReal, folder);
    return {
      full: childPath(pin, path.posix.basename(relative)),
      release,
      humanize: (cause) => {
        if (pin.anchored && cause instanceof Error) cause.message = cause.message.split(pin.path).join(realFolder);
        return reachFailure(cause, relative);
      },
    };
  }
  const mutate = async (relative: string, action: (full: string) => Promise<void>) => {
    const target = await reach(relative);
    try {
      result.mutations++;
      result.changed = true;
      // From the state's unlink on, every mutation acts on what was there before.
      if (phase === 'remove_state' || phase === 'delete') result.oldTouched = true;
      await action(target.full);
    } catch (cause) {
      throw target.humanize(cause);
    } finally {
      await target.release();
    }
  };
  const ops = {
    mkdir: (relative: string, mode?: number) => mutate(relative, (full) => inner.mkdir(full, mode)),
    writeFile: (relative: string, data: FileBytes, writeOptions?: WriteOptions) =>
      mutate(relative, (full) => inner.writeFile(full, data, writeOptions)),
    /** One mutation: the files (written with `durable: false`) flushed together. */
    syncFiles: async (relatives: readonly string[]) => {
      const targets: Awaited<ReturnType<typeof reach>>[] = [];
      try {
        for (const relative of relatives) targets.push(await reach(relative));
        result.mutations++;
        await inner.syncFiles(targets.map((target) => target.full));
      } catch (cause) {
        // The message names one file by its /proc/self/fd path: each target puts back its real folder.
        for (const target of targets) target.humanize(cause);
        throw reachFailure(cause, relatives[0] ?? '.');
      } finally {
        await Promise.all(targets.map((target) => target.release()));
      }
    },
    rename: async (from: string, to: string) => {
      if ((await lstatEntry(destReal, to)).type !== 'missing')
        throw new ApplyFailure('target_exists', `"${to}" appeared in the destination during the replace; it is not overwritten`, {
          path: to,
        });
      const target = await reach(to);
      try {
        await mutate(from, (full) => inner.rename(full, target.full));
      } catch (cause) {
        throw target.humanize(cause);
      } finally {
        await target.release();
      }
    },
    unlink: (relative: string) => mutate(relative, (full) => inner.unlink(full)),
    rmdir: (relative: string) => mutate(relative, (full) => inner.rmdir(full)),
    removeTree: (relative: string) => mutate(relative, (full) => inner.removeTree(full)),
    /** Into the backup, outside the destination: a folder the backup made itself, private to this user. */
    moveOut: (relative: string, target: string) => mutate(relative, (full) => inner.rename(full, target)),
    fsyncDir: async (folder: string) => {
      if (!destPin) throw new ApplyFailure('invalid_plan', 'the destination is not open');
      let pin: PinnedDir;
      try {
        pin = await pinRelative(destPin, folder);
      } catch (cause) {
        throw reachFailure(cause, folder || '.');
      }
      try {
        result.mutations++;
        await inner.fsyncDir(pin.path);
      } finally {
        await pin.close();
      }
    },
  };

  async function deleteEntry(entry: ReplacePlan['deletes'][number], record = true): Promise<void> {
    // A repair's folder delete is the empty folder that stood where an output goes: kept, as a file is.
    if (backupTaken?.moves && (entry.type !== 'directory' || plan.mode === 'repair'))
      await ops.moveOut(entry.path, backupTaken.targetOf(entry.path));
    else if (entry.type === 'directory') await ops.rmdir(entry.path);
    else await ops.unlink(entry.path); // files, links (the link itself) and special files alike
    if (record) result.deleted.push(entry.path);
    done++;
    stepDone++;
    progress(entry.path);
  }

  /** Keeps what will be removed, before anything is: a failure here stops the apply with nothing deleted. */
  async function prepareBackup(step: BackupStep): Promise<PreparedBackup> {
    const seen = new Map(plan.fingerprint.entries.map((entry) => [entry.path, entry]));
    const units = plan.deletes
      // Force and discard: each top-level entry whole (a discard's are its staging folders). Replace:
      // files, links and special files (the folders it empties come back with them). Repair: also the
      // empty folder standing where an output goes.
      .filter((entry) =>
        plan.mode === 'force' || plan.mode === 'discard_staging'
          ? !entry.path.includes('/')
          : entry.type !== 'directory' || plan.mode === 'repair',
      )
      .flatMap((entry) => seen.get(entry.path) ?? []);
    enter('backup', units.length);
    progress();
    backupEntered = true;
    try {
      return await step.prepare({ plan, destRealPath: destReal, units, fs: backupFs });
    } catch (cause) {
      if (cause instanceof BackupRefused) throw new ApplyFailure(cause.code, cause.message);
      const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
      throw new ApplyFailure(
        'backup_failed',
        `could not keep a backup of what it removes (${(cause as Error)?.message ?? String(cause)}); it stopped before anything was deleted`,
        { phase: 'backup', ...(errno ? { errno } : {}) },
      );
    }
  }

  async function sourceBytes(plan: ReplacePlan, manifestFiles: ReadonlyMap<string, ManifestFile>, write: PlannedWrite): Promise<Buffer> {
    if (repairState) {
      // A repair writes exactly the bytes the state records, proven the one way (expectedBytes.ts).
      const proven = await repairBytes(repairState, write, plan.sourcePath);
      if (!proven.ok) throw sourceChanged(proven.error);
      return proven.value;
    }
    const file = manifestFileOf(manifestFiles, write);
    const read = await readVerifiedSourceFile(plan.sourcePath, file);
    if (!read.ok) throw sourceChanged(read.error);
    const output = outputBytesFor(file, read.value);
    // Published as it is: its sha256 was just checked equal to the manifest's, exactly as written there.
    const outputSha256 = output === read.value ? file.sha256 : sha256Of(output);
    if (outputSha256 !== write.sha256 || output.length !== write.size) throw notThePlannedBytes(write);
    return output;
  }

  /** The write's bytes as the caller holds them from the plan (options.verified), if they are exactly the planned ones. */
  const heldOutput = (write: PlannedWrite): Buffer | undefined => {
    const held = repairState ? undefined : options.verified?.get(write.path);
    return held !== undefined && held.length === write.size && sha256Of(held) === write.sha256 ? held : undefined;
  };

  /**
   * A write staged in chunks as its source is read and hashed (sourceFile.ts isStreamedSource): never
   * held in memory, verified by the time its last byte is written. A repair writes the bytes the
   * state records (expectedBytes.ts), not streamed.
   */
  const isStreamed = (write: PlannedWrite) =>
    !repairState && write.kind === 'source' && isStreamedSource({ path: write.source_path, size: write.size });

  /** The source's chunks for a streamed write; a source that changed since the plan fails the apply (the staging folder is removed). */
  async function* streamedSourceBytes(
    plan: ReplacePlan,
    manifestFiles: ReadonlyMap<string, ManifestFile>,
    write: PlannedWrite,
  ): AsyncGenerator<Buffer, void> {
    const file = manifestFileOf(manifestFiles, write);
    if (file.sha256 !== write.sha256 || file.size !== write.size) throw notThePlannedBytes(write);
    try {
      yield* verifiedSourceChunks(plan.sourcePath, file, (read) => {
        bytes += read;
        progress(write.path);
      });
    } catch (cause) {
      throw cause instanceof SourceRefused ? sourceChanged(cause.refusal) : cause;
    }
  }

  /** Opens the destination and proves it is the folder the plan fingerprinted (same device and inode). */
  async function pinDestination(): Promise<void> {
    const pin = await pinDirectory(destReal, { label: plan.destinationPath }).catch((cause) => {
      throw reachFailure(cause, '.');
    });
    const planned = plan.fingerprint.entries.find((entry) => entry.path === '');
    if (plan.destinationExists && planned && (planned.ino !== pin.ino.toString() || planned.dev !== pin.dev.toString())) {
      await pin.close();
      throw new ApplyFailure('stale_plan', `${plan.destinationPath} was replaced by another folder since the plan was made`);
    }
    destPin = pin;
  }

  try {
    progress();
    // ── check: the destination is still the one planned, and the plan is safe to run ──
    const destEntry = await lstatEntry(plan.destinationPath, '');
    if (destEntry.type === 'symlink') throw new ApplyFailure('unsafe_path', `${plan.destinationPath} is now a symbolic link`);
    if (destEntry.type !== (plan.destinationExists ? 'directory' : 'missing'))
      throw new ApplyFailure('stale_plan', `${plan.destinationPath} changed since the plan was made`);
    destReal = await realPathOf(plan.destinationPath);
    if (destReal !== plan.destinationRealPath)
      throw new ApplyFailure('stale_plan', `${plan.destinationPath} now resolves to ${destReal}, not ${plan.destinationRealPath}`);
    const fresh = await checkFingerprint(destReal, plan.fingerprint);
    if (!fresh.fresh) {
      throw new ApplyFailure(
        'stale_plan',
        `the destination changed since the plan was made: "${fresh.path || '.'}" was ${fresh.planned}, is now ${fresh.now}; make a new plan`,
        { path: fresh.path, planned: fresh.planned, now: fresh.now },
      );
    }
    if (fresh.mountPoints.length > 0) {
      const first = fresh.mountPoints[0] as string;
      throw new ApplyFailure(
        'crosses_mount_point',
        `${joinRelative(destReal, first)} is a mount point now; a replace never deletes or descends into another file system`,
        { path: first, mountPoints: fresh.mountPoints },
      );
    }
    if (plan.action === 'nothing') {
      result.ok = true;
      return result;
    }
    if (plan.mode === 'discard_staging') {
      const refusal = await checkDiscardPlan(plan, destReal);
      if (refusal) throw new ApplyFailure(refusal.code, refusal.message, refusal.details);
      await pinDestination();
      // Only apply's own leftovers go, nothing of the publication; still kept, as every apply keeps
      // what it removes: each folder moved whole into the backup (rename never follows a link), or
      // copied and verified first and then removed as before.
      if (options.backup) backupTaken = await prepareBackup(options.backup);
      pastNoReturn = true;
      enter('delete', plan.deletes.length);
      progress();
      for (const entry of plan.deletes) {
        if (backupTaken?.moves) await ops.moveOut(entry.path, backupTaken.targetOf(entry.path));
        else await discardStagingFolder(entry.path, destReal, ops);
        result.deleted.push(entry.path);
        done++;
        stepDone++;
        progress(entry.path);
      }
      await ops.fsyncDir('');
      enter('done', 0);
      progress();
      result.ok = true;
      return result;
    }
    // What the writes publish: the new state, or for a repair the state on disk, which stays.
    const target = plan.mode === 'repair' ? await repairTarget(plan, destReal, options.acceptPartial) : undefined;
    if (target && !target.ok) throw new ApplyFailure(target.error.code, target.error.message, target.error.details);
    repairState = target?.value;
    const newState = target ? target.value : plan.newState;
    if (!newState) throw new ApplyFailure('invalid_plan', 'the plan has no new state');
    checkPlanPaths(plan, newState);
    if (plan.mode === 'replace') await checkNormalDeletes(plan, destReal);
    if (nestedNotAcknowledged(plan, options.includeNested)) {
      throw new ApplyFailure(
        'nested_not_acknowledged',
        `this forced replace of ${plan.destinationPath} would delete ${nestedDestinationsText(plan)}; confirm that they go too (--include-nested)`,
        { nestedDestinations: plan.nestedDestinations },
      );
    }
    if (plan.destinationExists) await pinDestination();

    // ── verify: every source byte, before anything is written ──
    enter('verify', plan.writes.length);
    progress();
    // Built once, not searched per write (quadratic: 16 s of lookups at 50,000 outputs). The first
    // entry of a path wins, as Array.find did.
    const manifestFiles = new Map<string, ManifestFile>();
    for (const file of newState.source.manifest.files) if (!manifestFiles.has(file.path)) manifestFiles.set(file.path, file);
    // Read, hashed and rendered many at once; what fits in KEPT_BYTES_MAX is kept and staged from
    // that same read (bytes written are the bytes just verified). The rest (a 1 GiB file) is read
    // once, at staging, and verified there before a byte of it is written: reading it here too
    // would only read it twice. Either way a changed source fails the apply before anything old is
    // touched, and the staging folder is taken out again.
    const kept = new Map<string, Buffer>();
    let plannedBytes = 0;
    const verifiedNow = plan.writes.filter((write) => !isStreamed(write) && (plannedBytes += write.size) <= KEPT_BYTES_MAX);
    let keptBytes = 0;
    await boundedAll(
      verifiedNow,
      async (write) => {
        const output = heldOutput(write) ?? (await sourceBytes(plan, manifestFiles, write));
        if (keptBytes + output.length <= KEPT_BYTES_MAX) {
          kept.set(write.path, output);
          keptBytes += output.length;
        }
        stepDone++;
        progress(write.path);
      },
      { limit: FILES_IN_FLIGHT, weight: (write) => write.size, maxWeight: BYTES_IN_FLIGHT },
    );
    // The others are checked as they are staged.
    stepDone = plan.writes.length;
    progress();

    // ── stage: a private staging folder with its marker, then the new outputs into it ──
    enter('stage', plan.writes.length);
    progress();
    if (!plan.destinationExists) {
      result.mutations++;
      result.changed = true;
      await inner.mkdir(destReal);
      createdDestination = true;
      await pinDestination();
    }
    await ops.mkdir(staging, 0o700);
    stagingCreated = true;
    const marker = stagingMarkerText({
      kind: STAGING_MARKER_KIND,
      version: 1,
      created: formatRfc3339Utc((options.now ?? (() => new Date()))()),
      mode: plan.mode === 'force' ? 'force' : plan.mode === 'repair' ? 'repair' : 'replace',
      source: { id: newState.source.manifest.id, digest: newState.source.manifest.digest },
      plannedAt: plan.plannedAt,
      pipeline_id: newState.pipeline_id,
      destination_id: newState.destination_id,
    });
    await ops.writeFile(inStaging(STAGING_MARKER_NAME), Buffer.from(marker, 'utf8'));
    await ops.mkdir(inStaging(STAGING_FILES_DIR));
    // Folders first (outermost first), then the files many at once, each written but not yet flushed:
    // one syncFiles below makes them all durable together, before anything old is touched.
    const stagedFolders = new Set<string>();
    for (const write of plan.writes) {
      for (const folder of ancestorsOf(write.path)) {
        if (stagedFolders.has(folder)) continue;
        await ops.mkdir(stagedFile(folder));
        stagedFolders.add(folder);
      }
    }
    await boundedAll(
      plan.writes,
      async (write) => {
        if (isStreamed(write)) {
          await ops.writeFile(stagedFile(write.path), streamedSourceBytes(plan, manifestFiles, write), { durable: false });
        } else {
          const output = kept.get(write.path) ?? (await sourceBytes(plan, manifestFiles, write));
          kept.delete(write.path);
          await ops.writeFile(stagedFile(write.path), output, { durable: false });
          bytes += output.length;
        }
        done++;
        stepDone++;
        progress(write.path);
      },
      {
        limit: FILES_IN_FLIGHT,
        weight: (write) => (kept.has(write.path) ? 0 : isStreamed(write) ? STREAM_WEIGHT_BYTES : write.size),
        maxWeight: BYTES_IN_FLIGHT,
        beforeEach: () => {
          if (options.signal?.aborted)
            throw new ApplyFailure('cancelled', 'cancelled before the destination was changed; the staging folder is removed');
        },
      },
    );
    if (plan.writes.length > 0) await ops.syncFiles(plan.writes.map((write) => stagedFile(write.path)));
    if (plan.mode === 'force') await ops.mkdir(inStaging(STAGING_TRASH_DIR), 0o700);
    if (options.signal?.aborted)
      throw new ApplyFailure('cancelled', 'cancelled before the destination was changed; the staging folder is removed');
    // ── backup: what will be removed, kept outside the destination (moved by rename, or copied first) ──
    if (options.backup) backupTaken = await prepareBackup(options.backup);

    // ── remove_state: from here on no state file claims anything until the new one is in place ──
    // (A repair keeps the state: its point of no return is the first drifted output it removes.)
    if (plan.mode !== 'repair') {
      enter('remove_state', 1);
      progress();
    }
    pastNoReturn = true;
    const stateDelete = plan.deletes.find((entry) => entry.path === STATE_FILE_NAME && entry.type !== 'directory');
    const otherDeletes = plan.deletes.filter((entry) => entry !== stateDelete);
    if (stateDelete) {
      await deleteEntry(stateDelete);
      await ops.fsyncDir('');
    }

    // ── delete: normal: recorded outputs and their emptied folders; force: everything, via the trash ──
    enter('delete', otherDeletes.length);
    progress();
    if (plan.mode === 'force' && backupTaken?.moves) {
      // Each top-level entry moves whole into the backup (rename never follows a link): nothing is deleted.
      for (const entry of otherDeletes) {
        if (entry.path.includes('/')) continue;
        await ops.moveOut(entry.path, backupTaken.targetOf(entry.path));
      }
      await ops.fsyncDir('');
      await ops.rmdir(inStaging(STAGING_TRASH_DIR));
      for (const entry of otherDeletes) result.deleted.push(entry.path);
      done += otherDeletes.length;
      stepDone = otherDeletes.length;
      progress();
    } else if (plan.mode === 'force') {
      // Each top-level entry moves into the private trash by rename (which never follows a link), so
      // what is removed next is exactly what was in the destination, and removal never leaves the trash.
      for (const entry of otherDeletes) {
        if (entry.path.includes('/')) continue;
        await ops.rename(entry.path, inStaging(`${STAGING_TRASH_DIR}/${entry.path}`));
      }
      await ops.fsyncDir('');
      await ops.removeTree(inStaging(STAGING_TRASH_DIR));
      for (const entry of otherDeletes) result.deleted.push(entry.path);
      done += otherDeletes.length;
      stepDone = otherDeletes.length;
      progress();
    } else {
      // Files (and links) many at once; then the folders they emptied, deepest first, one by one.
      // `deleted` lists them in the plan's order, also after a failure part-way (what was deleted, no more).
      const files = otherDeletes.filter((entry) => entry.type !== 'directory');
      const gone = new Set<string>();
      try {
        await boundedAll(files, (entry) => deleteEntry(entry, false).then(() => void gone.add(entry.path)), { limit: FILES_IN_FLIGHT });
      } finally {
        for (const entry of files) if (gone.has(entry.path)) result.deleted.push(entry.path);
      }
      for (const entry of otherDeletes) if (entry.type === 'directory') await deleteEntry(entry);
    }

    // ── move: staged outputs into place ──
    enter('move', plan.writes.length);
    progress();
    // Folders first (each checked once, outermost first), then the renames many at once; each rename
    // still reaches its folder afresh, never through a link, and never over an existing path.
    const movedFolders = new Set<string>(['']);
    const checkedFolders = new Set<string>();
    for (const write of plan.writes) {
      for (const folder of ancestorsOf(write.path)) {
        if (checkedFolders.has(folder)) continue;
        const entry = await lstatEntry(destReal, folder);
        if (entry.type === 'missing') await ops.mkdir(folder);
        else if (entry.type !== 'directory') throw new ApplyFailure('unsafe_path', `"${folder}" is no longer a folder`, { path: folder });
        checkedFolders.add(folder);
      }
    }
    const moved = new Set<string>();
    try {
      await boundedAll(
        plan.writes,
        async (write) => {
          await ops.rename(stagedFile(write.path), write.path);
          movedFolders.add(parentOf(write.path));
          moved.add(write.path);
          done++;
          stepDone++;
          progress(write.path);
        },
        { limit: FILES_IN_FLIGHT },
      );
    } finally {
      // In the plan's order, also after a failure part-way: what is in place, no more.
      for (const write of plan.writes) if (moved.has(write.path)) result.written.push(write.path);
    }
    // The folders made on the way too: their names in their parents must last as long as the outputs.
    for (const folder of checkedFolders) movedFolders.add(folder);
    for (const folder of [...movedFolders].sort().reverse()) await ops.fsyncDir(folder);

    // ── write_state: temporary file (fsynced), rename, fsync of the folder (a repair keeps the state) ──
    if (plan.mode !== 'repair') {
      enter('write_state', 1);
      progress();
      const finalState: State = { ...newState, published_at: formatRfc3339Utc((options.now ?? (() => new Date()))()) };
      const stateBytes = stateFileBytes(finalState);
      await ops.writeFile(inStaging(STAGING_STATE_TEMP), stateBytes);
      await ops.rename(inStaging(STAGING_STATE_TEMP), STATE_FILE_NAME);
      result.stateWritten = true;
      result.state = finalState;
      result.stateSha256 = sha256Of(stateBytes);
      await ops.fsyncDir('');
    }
    done++;
    stepDone++;
    progress(STATE_FILE_NAME);

    // ── cleanup: the staging folder (now only empty folders), its marker last ──
    enter('cleanup', 1);
    progress();
    await ops.removeTree(inStaging(STAGING_FILES_DIR));
    await ops.unlink(inStaging(STAGING_MARKER_NAME));
    await ops.rmdir(staging);
    stagingCreated = false;
    await pins.closeAll();
    enter('done', 0);
    progress();
    result.ok = true;
    return result;
  } catch (cause) {
    const failure = cause instanceof ApplyFailure ? cause : undefined;
    const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
    const where = `while ${phase === 'check' ? 'checking' : `in the ${phase} step`}`;
    result.error = failure
      ? { code: failure.code, message: failure.message, ...(failure.details ? { details: failure.details } : {}) }
      : {
          code: 'io_error',
          message: `${errno ?? 'error'} ${where}: ${(cause as Error)?.message ?? String(cause)}`,
          details: { phase, ...(errno ? { errno } : {}) },
        };
    // Before the old state is removed, only apply's own folders are new: take them back out, so the
    // destination is exactly as it was (and a destination apply created is gone again). A failed
    // unlink of the state counts as before, when the state is provably still there, unchanged.
    const stateUntouched =
      phase === 'remove_state' &&
      result.deleted.length === 0 &&
      (await stateFileSha256(destReal).catch(() => undefined)) === plan.fingerprint.stateSha256;
    if (stateUntouched) result.oldTouched = false;
    if (!pastNoReturn || stateUntouched) {
      try {
        if (stagingCreated) {
          await pins.closeAll();
          await ops.removeTree(staging);
          stagingCreated = false;
        }
        if (backupEntered) await options.backup?.discard(backupFs);
        if (createdDestination) {
          await destPin?.close();
          destPin = undefined;
          result.mutations++;
          await inner.rmdir(destReal);
          createdDestination = false;
        }
        result.changed = false;
      } catch {
        // Left for inspect to report as an interrupted replace (the marker says so); a forced replace clears it.
      }
    }
    return result;
  } finally {
    await pins.closeAll();
    await destPin?.close();
    // A discard's own targets count too: one it did not finish removing is still there, marked.
    const leftovers = plan.mode === 'discard_staging' ? plan.deletes.map((entry) => entry.path) : [staging];
    let left = false;
    for (const name of leftovers.filter((name) => name !== ''))
      left ||= (await lstatEntry(destReal, name).catch(() => ({ type: 'missing' }))).type !== 'missing';
    result.stagingLeft = left;
    result.durationMs = Math.round(performance.now() - startedMs);
  }
}
