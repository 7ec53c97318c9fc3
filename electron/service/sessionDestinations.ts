// The session's read-only work on destinations: scan, inspect, verify, compare, and the checks the
// Electron shell needs before revealing a path or opening a link. Reads the disk; never writes it.
// Every destination comes from an id resolved by the session, never from a path the renderer sent.

import path from 'node:path';
import type { DestinationEntry, DestinationRead, JobResultOf, ResponseOf, ScanEntry, VerifyEntry } from '../../shared/api';
import { cleanPathProblem } from '../../shared/cleanPath';
import { hasErrors } from '../../shared/issues';
import type { JobContext } from './jobRegistry';
import { fail } from '../../shared/apiError';
import { inspectDestination } from './destinationRead';
import { compareDestination } from '../operations/compareDestination';
import { diffOutput } from '../operations/diffOutput';
import { scanEntryOf } from '../operations/scanEntry';
import { entryWithSync } from './sessionSync';
import { listDestination } from '../engine/listing';
import type { OpenWorkspace, RequestValue, SessionContext } from './sessionContext';
import { FRESH, fingerprintOf, nextVerifyFreshness } from '../../shared/verifyFreshness';
import { countRows, scanWorkspace, type ScannedDestination } from './workspaceScan';
import { recordedOutputsDigest } from '../engine/outputSignatures';
import { withOutputsDigest } from './rereadOutputs';

function pick(session: SessionContext, ids: string[] | undefined): DestinationEntry[] {
  const open = session.workspace();
  return ids === undefined ? open.summary.destinations : ids.map((id) => session.destination(id));
}

/**
 * Keeps a read of a destination (a scan row, an inspect) and applies the freshness rule to the verify
 * result held for it: a result whose fingerprint no longer matches the disk turns stale for good.
 */
export function keepReread(open: OpenWorkspace, entry: ScanEntry, at?: string): void {
  open.scans.set(entry.destination, entry);
  const held = open.verifies.get(entry.destination);
  if (!held) return;
  // The moment is taken only here: a scan of 100,000 rows without verify results would make as many dates for nothing.
  const reread = { kind: 'reread' as const, fingerprint: fingerprintOf(entry.inspection), at: at ?? new Date().toISOString() };
  const freshness = nextVerifyFreshness(held.stamp, held.freshness, reread);
  if (freshness !== held.freshness) open.verifies.set(entry.destination, { ...held, freshness });
}

/** Keeps a verify result just taken (fresh) and makes the entry that carries it to the renderer. */
export function keepVerify(
  open: OpenWorkspace,
  destination: string,
  report: VerifyEntry['report'],
  stamp: VerifyEntry['stamp'],
): VerifyEntry {
  open.verifies.set(destination, { report, stamp, freshness: FRESH });
  return { destination, report, stamp };
}

export async function scanJob(
  session: SessionContext,
  ids: string[] | undefined,
  context: JobContext<'scan'>,
): Promise<JobResultOf<'scan'>> {
  const open = session.workspace();
  const destinations = pick(session, ids);
  const statCache = await session.statCache();
  // A row's fingerprint (its state's sha256, its listing's digest) only ever judges a verify result
  // held for it: the other rows are read without one, with no hash of their state and, for a folder
  // without subfolders, no listing (a fifth of a worker's time on the 100,000-destination demo). A
  // stale result is fingerprinted too, though the rule never moves it: the page may not have heard
  // yet that it went stale, and judges the row by its own copy. A host's agent fingerprints every
  // row: its client holds the results (and keeps them across a reconnection, which starts a new
  // agent), not the agent.
  const everyRow = session.options.transport === 'agent';
  const judges = (id: string) => everyRow || open.verifies.has(id);
  const fingerprinted = destinations.map((destination) => judges(destination.id));
  const deliver = (row: ScannedDestination) => {
    const entry = scanEntryOf(row.destination.id, row.inspection, row.summary, row.sync);
    keepReread(open, withOutputsDigest(open, statCache, entry, row.destination.path));
    context.item(entry);
  };
  const scanOptions = { signal: context.signal, pool: session.hashPool(), retain: 'summary' as const, sync: open.sources };
  // Rows read without a fingerprint for a result a verify kept while this scan ran: such a row proves
  // nothing about that result (and taken as a re-read, would turn it stale), so it is read again.
  const late: number[] = [];
  const report = await scanWorkspace(
    { ...open.loaded, destinations },
    {
      ...scanOptions,
      digests: (index) => fingerprinted[index]!,
      onProgress: ({ done, total }) => context.progress(done, total, 0),
      onResult: (row, index) => {
        if (!fingerprinted[index] && judges(row.destination.id)) late.push(index);
        else deliver(row);
      },
    },
  );
  if (late.length > 0) {
    const again = await scanWorkspace(
      { ...open.loaded, destinations: late.map((index) => destinations[index]!) },
      { ...scanOptions, onResult: deliver },
    );
    late.forEach((index, at) => (report.rows[index] = again.rows[at]!));
  }
  context.signal.throwIfAborted();
  return { counts: late.length > 0 ? countRows(report.rows) : report.counts };
}

/**
 * Verifies each destination in one pass in a worker: its state read afresh (verify checks the disk as
 * it is now, not as the last scan saw it; that read is the result's basis, so a later read with
 * another fingerprint makes the result stale), then its outputs checked through the stat cache: an
 * output whose stat signature is unchanged since it was hashed is not read again (docs/verify-freshness.md).
 * Each destination's row read in this pass is kept as a scan's is and handed to `onRead` with the
 * result taken from that same read (kept, fresh), or alone when there was nothing to verify: a client
 * takes both from one item, so a row's status and its report never come from two reads.
 */
export async function verifyPass(
  session: SessionContext,
  open: OpenWorkspace,
  candidates: DestinationEntry[],
  options: {
    signal?: AbortSignal;
    onProgress?: (done: number, total: number, bytes: number) => void;
    onRead: (read: DestinationRead) => void;
  },
): Promise<JobResultOf<'verify'>> {
  const statCache = await session.statCache();
  const readAt = new Date().toISOString();
  const result = { intact: 0, drifted: 0, skipped: 0 };
  try {
    await scanWorkspace(
      { ...open.loaded, destinations: candidates },
      {
        ...(options.signal ? { signal: options.signal } : {}),
        pool: session.hashPool(),
        retain: 'summary',
        verify: true,
        sync: open.sources,
        ...(statCache ? { statCache } : {}),
        onProgress: ({ done, total, bytes }) => options.onProgress?.(done, total, bytes ?? 0),
        onResult: (row) => {
          const id = row.destination.id;
          const entry = scanEntryOf(id, row.inspection, row.summary, row.sync);
          keepReread(open, entry, readAt);
          if (!row.verify) {
            result.skipped += 1;
            options.onRead({ entry });
            return;
          }
          result[row.verify.status] += 1;
          // The outputs part: what the cache recorded as this pass hashed (or reused) each output.
          const known = statCache?.known(row.destination.path);
          const basis = { ...fingerprintOf(row.inspection), ...(known ? { outputs: recordedOutputsDigest(known) } : {}) };
          options.onRead({ entry, verify: keepVerify(open, id, row.verify, { verifiedAt: readAt, basis }) });
        },
      },
    );
  } finally {
    await statCache?.save();
  }
  return result;
}

export async function verifyJob(
  session: SessionContext,
  ids: string[] | undefined,
  context: JobContext<'verify'>,
): Promise<JobResultOf<'verify'>> {
  return verifyPass(session, session.workspace(), pick(session, ids), {
    signal: context.signal,
    onProgress: (done, total, bytes) => context.progress(done, total, bytes),
    onRead: (read) => context.item(read),
  });
}

export async function inspectHandler(session: SessionContext, id: string): Promise<ResponseOf<'inspectDestination'>> {
  const destination = session.destination(id);
  const inspection = await inspectDestination(destination.path, { includeText: true });
  const open = session.workspace();
  const entry = withOutputsDigest(open, await session.statCache(), await entryWithSync(open, destination, inspection), destination.path);
  keepReread(open, entry);
  const { state: _state, ...data } = inspection;
  return { destination, inspection: data, listing: await listDestination(destination.path) };
}

export async function compareHandler(
  session: SessionContext,
  id: string,
  sourceOverride: string | undefined,
  ids: { pipelineId?: string; destinationId?: string } = {},
): Promise<ResponseOf<'compare'>> {
  const destination = session.destination(id);
  const sourcePath = sourceOverride !== undefined ? session.typedPath(sourceOverride, 'source') : destination.source;
  if (sourcePath === undefined)
    throw fail('invalid_source', `no source bundle is configured for "${destination.id}": choose one to compare with`);
  const compared = await compareDestination({
    destinationPath: destination.path,
    sourcePath,
    configured: { pipelineId: ids.pipelineId ?? destination.pipelineId, destinationId: ids.destinationId ?? destination.destinationId },
    replacePolicy: destination.replacePolicy,
    pool: session.hashPool(),
  });
  if (!compared.ok) throw fail('invalid_source', compared.error.message, compared.error.details);
  const {
    sourcePath: bundle,
    manifestFile,
    sourceIssues,
    inspection,
    comparison,
    explanation,
    drift,
    diff,
    current,
    recorded,
  } = compared.value;
  const destinationInspection = { path: inspection.path, status: inspection.status, issues: inspection.issues };
  return { sourcePath: bundle, manifestFile, sourceIssues, destinationInspection, comparison, explanation, drift, diff, current, recorded };
}

/** One output's content diff; the source defaults to the one the workspace configures for the destination. */
export async function contentDiffHandler(
  session: SessionContext,
  request: RequestValue<'contentDiff'>,
): Promise<ResponseOf<'contentDiff'>> {
  const destination = session.destination(request.destination);
  const sourcePath = request.source !== undefined ? session.typedPath(request.source, 'source') : destination.source;
  const diffed = await diffOutput({
    destinationPath: destination.path,
    path: request.path,
    ...(request.against ? { against: request.against } : {}),
    ...(sourcePath !== undefined ? { sourcePath } : {}),
  });
  if (!diffed.ok) throw fail(diffed.error.code, diffed.error.message, diffed.error.details);
  return diffed.value;
}

/** An absolute path inside one destination of the open workspace, for the file manager; refuses anything else. */
export function pathInside(session: SessionContext, id: string, relative: string | undefined): string {
  const destination = session.destination(id);
  if (relative === undefined || relative === '') return destination.path;
  const problem = cleanPathProblem(relative);
  if (problem) throw fail('refused', `"${relative}" is not a path inside the destination: it ${problem}`);
  return path.join(destination.path, ...relative.split('/'));
}

/** Whether `url` is an https link the destination's current, valid state records (primary or an output's url). */
export async function recordedHttpsLink(session: SessionContext, id: string, url: string): Promise<boolean> {
  const destination = session.destination(id);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:') return false;
  const inspection = await inspectDestination(destination.path);
  if (!inspection.state || hasErrors(inspection.issues)) return false;
  const links = [inspection.state.links?.primary_url, ...inspection.state.outputs.map((output) => output.url)];
  return links.includes(url);
}
