// The verify and stage steps of every kind that writes outputs (replace, force, repair): every source
// byte proven before anything is written, then a private staging folder with its marker and the new
// outputs in it, flushed together before anything old is touched. A source that changed since the
// plan fails the apply here, while the destination is still exactly as it was.

import type { ManifestFile } from '../../shared/manifestSchema';
import type { PlanWrite } from '../../shared/plan';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { STAGING_FILES_DIR, STAGING_MARKER_KIND, STAGING_MARKER_NAME, stagingMarkerText } from '../../shared/staging';
import type { State } from '../../shared/stateSchema';
import { manifestFileOf, notThePlannedBytes, sourceChanged } from './applyErrors';
import type { ApplyRun } from './applyRun';
import { boundedAll } from './boundedAll';
import { CHUNK_BYTES } from './hashedChunks';
import { ancestorsOf } from './planPaths';
import { outputBytesFor } from './publish';
import { canCopyInKernel } from './kernelCopy';
import { isStreamedSource, openSourceForCopy, readVerifiedSourceFile, sha256Of, SourceRefused, verifiedSourceChunks } from './sourceFile';
import { holdStagedCopyForTest } from './testHold';

// Per-output work in flight at once: keeps libuv's four threads and the disk queue busy (one call at a
// time left the main thread idle 70% of a 10,000-file replace), few enough descriptors.
export const FILES_IN_FLIGHT = 16;
// Bytes of source files read at once: sixteen 1 GiB files are never held together.
const BYTES_IN_FLIGHT = 256 * 1024 * 1024;
// Verified output bytes kept from the verify step for the stage step, so each source file is read
// and hashed once per apply; past this, an output is read and verified only when it is staged.
const KEPT_BYTES_MAX = 256 * 1024 * 1024;
// A streamed output (a large file published as it is) holds one read buffer, not its size: many
// stream at once (hashedChunks.ts).
const STREAM_WEIGHT_BYTES = CHUNK_BYTES;
// From this size on a streamed output is copied by the kernel (kernelCopy.ts). Its gain grows with the
// size: none measured from 16 to 512 MiB (the child's own copy and start cost what our buffers did,
// within the spread), 0.3-0.5 s of CPU at 1 GiB, where copying through our buffers costs most.
export const KERNEL_COPY_MIN_BYTES = 768 * 1024 * 1024;

/** What the stage step writes: the state its outputs belong to, and how their bytes are proven. */
export interface StagedPublication {
  /** The state the writes publish (a repair's: the state on disk, which stays). */
  state: State;
  /** A repair's own proof of an output's bytes (expectedBytes.ts); without it, the source is read again. */
  provenBytes?: (write: PlanWrite) => Promise<Buffer>;
  /** The marker's word for the interrupted apply, if it stops past here. */
  markerMode: 'replace' | 'force' | 'repair';
}

/** Verifies every write's bytes, then stages them all in a new staging folder (durable, nothing old touched). */
export async function verifyAndStage(run: ApplyRun, publication: StagedPublication): Promise<void> {
  const { plan, options, ops } = run;
  const { state, provenBytes } = publication;
  // Built once, not searched per write (quadratic: 16 s of lookups at 50,000 outputs). The first
  // entry of a path wins, as Array.find did.
  const manifestFiles = new Map<string, ManifestFile>();
  for (const file of state.source.manifest.files) if (!manifestFiles.has(file.path)) manifestFiles.set(file.path, file);

  async function sourceBytes(write: PlanWrite): Promise<Buffer> {
    // A repair writes exactly the bytes the state records, proven the one way (expectedBytes.ts).
    if (provenBytes) return provenBytes(write);
    const file = manifestFileOf(manifestFiles, write);
    const read = await readVerifiedSourceFile(plan.sourcePath, file);
    if (!read.ok) throw sourceChanged(read.error);
    const output = outputBytesFor(file, read.value);
    // Published as it is: its sha256 was just checked equal to the manifest's, exactly as written there.
    const outputSha256 = output === read.value ? file.sha256 : sha256Of(output);
    if (outputSha256 !== write.sha256 || output.length !== write.size) throw notThePlannedBytes(write);
    return output;
  }

  /**
   * The write's bytes as the plan verified them (options.verified), when the plan proved them to be
   * exactly this write's (its sha256 and size): hashed once, by the plan, and held unchanged since.
   */
  const heldOutput = (write: PlanWrite): Buffer | undefined => {
    const held = provenBytes ? undefined : options.verified?.get(write.path);
    return held !== undefined && held.sha256 === write.sha256 && held.bytes.length === write.size ? held.bytes : undefined;
  };

  /**
   * A write staged in chunks as its source is read and hashed (sourceFile.ts isStreamedSource): never
   * held in memory, verified by the time its last byte is written. A repair writes the bytes the
   * state records (expectedBytes.ts), not streamed.
   */
  const isStreamed = (write: PlanWrite) =>
    !provenBytes && write.kind === 'source' && isStreamedSource({ path: write.source_path, size: write.size });

  /** The source's chunks for a streamed write; a source that changed since the plan fails the apply (the staging folder is removed). */
  async function* streamedSourceBytes(write: PlanWrite): AsyncGenerator<Buffer, void> {
    const file = manifestFileOf(manifestFiles, write);
    if (file.sha256 !== write.sha256 || file.size !== write.size) throw notThePlannedBytes(write);
    try {
      const chunks = verifiedSourceChunks(plan.sourcePath, file, (read) => {
        run.bytes += read;
        run.progress(write.path);
      });
      // A cancel stops a large copy between two chunks, not after the whole file.
      for await (const chunk of chunks) {
        run.throwIfCancelled();
        yield chunk;
        await holdStagedCopyForTest();
      }
    } catch (cause) {
      throw cause instanceof SourceRefused ? sourceChanged(cause.refusal) : cause;
    }
  }

  /**
   * A streamed write copied by the kernel (kernelCopy.ts) and then read back from the staged file and
   * hashed: what is staged is what was hashed, as with the chunks, for a fifth of the CPU of copying
   * through our buffers. The source is opened and checked the same way; a cancel kills the copy.
   */
  async function stageCopied(write: PlanWrite): Promise<void> {
    const file = manifestFileOf(manifestFiles, write);
    if (file.sha256 !== write.sha256 || file.size !== write.size) throw notThePlannedBytes(write);
    try {
      const source = await openSourceForCopy(plan.sourcePath, file);
      try {
        const check = (fd: number) =>
          source.checkCopy(fd, async (read) => {
            run.bytes += read;
            run.progress(write.path);
            run.throwIfCancelled();
            await holdStagedCopyForTest();
          });
        const signal = options.signal;
        await ops.writeFile(
          run.stagedFile(write.path),
          { copyFrom: source.fd, sizeBytes: file.size, check, ...(signal ? { signal } : {}) },
          { durable: false },
        );
      } finally {
        await source.close();
      }
    } catch (cause) {
      run.throwIfCancelled();
      throw cause instanceof SourceRefused ? sourceChanged(cause.refusal) : cause;
    }
  }

  // ── verify: every source byte, before anything is written ──
  run.enter('verify', plan.writes.length);
  run.progress();
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
      const output = heldOutput(write) ?? (await sourceBytes(write));
      if (keptBytes + output.length <= KEPT_BYTES_MAX) {
        kept.set(write.path, output);
        keptBytes += output.length;
      }
      run.stepDone++;
      run.progress(write.path);
    },
    { limit: FILES_IN_FLIGHT, weight: (write) => write.size, maxWeight: BYTES_IN_FLIGHT },
  );
  // The others are checked as they are staged.
  run.stepDone = plan.writes.length;
  run.progress();

  // ── stage: a private staging folder with its marker, then the new outputs into it ──
  run.enter('stage', plan.writes.length);
  run.progress();
  if (!plan.destinationExists) await run.createDestination();
  await ops.mkdir(run.staging, 0o700);
  run.stagingCreated = true;
  const marker = stagingMarkerText({
    kind: STAGING_MARKER_KIND,
    version: 1,
    created: formatRfc3339Utc(run.now()),
    mode: publication.markerMode,
    source: { id: state.source.manifest.id, digest: state.source.manifest.digest },
    plannedAt: plan.plannedAt,
    pipeline_id: state.pipeline_id,
    destination_id: state.destination_id,
  });
  await ops.writeFile(run.inStaging(STAGING_MARKER_NAME), Buffer.from(marker, 'utf8'));
  await ops.mkdir(run.inStaging(STAGING_FILES_DIR));
  // Folders first (outermost first), then the files many at once, each written but not yet flushed:
  // one syncFiles below makes them all durable together, before anything old is touched.
  const stagedFolders = new Set<string>();
  for (const write of plan.writes) {
    for (const folder of ancestorsOf(write.path)) {
      if (stagedFolders.has(folder)) continue;
      await ops.mkdir(run.stagedFile(folder));
      stagedFolders.add(folder);
    }
  }
  await boundedAll(
    plan.writes,
    async (write) => {
      if (isStreamed(write) && write.size >= (options.kernelCopyMinBytes ?? KERNEL_COPY_MIN_BYTES) && canCopyInKernel()) {
        await stageCopied(write);
      } else if (isStreamed(write)) {
        await ops.writeFile(run.stagedFile(write.path), streamedSourceBytes(write), { durable: false });
      } else {
        const output = kept.get(write.path) ?? (await sourceBytes(write));
        kept.delete(write.path);
        await ops.writeFile(run.stagedFile(write.path), output, { durable: false });
        run.bytes += output.length;
      }
      run.stepped(write.path);
    },
    {
      limit: FILES_IN_FLIGHT,
      weight: (write) => (kept.has(write.path) ? 0 : isStreamed(write) ? STREAM_WEIGHT_BYTES : write.size),
      maxWeight: BYTES_IN_FLIGHT,
      beforeEach: () => run.throwIfCancelled(),
    },
  );
  if (plan.writes.length > 0) await ops.syncFiles(plan.writes.map((write) => run.stagedFile(write.path)));
}
