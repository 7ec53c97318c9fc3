// The session's read-only work on destinations: scan, inspect, verify, compare, and the checks the
// Electron shell needs before revealing a path or opening a link. Reads the disk; never writes it.
// Every destination comes from an id resolved by the session, never from a path the renderer sent.

import path from 'node:path';
import type { DestinationEntry, JobResultOf, ResponseOf, ScanEntry } from '../../shared/api';
import { cleanPathProblem } from '../../shared/cleanPath';
import { compare, explainComparison, type DestinationState } from '../../shared/compare';
import { diffManifests } from '../../shared/diffManifests';
import { hasErrors } from '../../shared/issues';
import type { JobContext } from './jobRegistry';
import { fail } from '../../shared/apiError';
import { inspectDestination, type DestinationInspection } from '../engine/inspectDestination';
import { listDestination } from '../engine/listing';
import { readSource } from '../engine/readSource';
import type { SessionContext } from './sessionContext';
import { scanWorkspace, summarizeInspection } from '../engine/scan';
import { verifyWorkspace, type VerifyTarget } from '../engine/verify';

function pick(session: SessionContext, ids: string[] | undefined): DestinationEntry[] {
  const open = session.workspace();
  return ids === undefined ? open.summary.destinations : ids.map((id) => session.destination(id));
}

/** The list row of one destination, from a fresh inspection (after inspect, verify or apply). */
export function scanEntryOf(destination: DestinationEntry, inspection: DestinationInspection): ScanEntry {
  const { state: _state, stateText: _text, ...data } = inspection;
  return { destination: destination.id, inspection: data, summary: summarizeInspection(data, data.stateJson) };
}

export async function scanJob(
  session: SessionContext,
  ids: string[] | undefined,
  context: JobContext<'scan'>,
): Promise<JobResultOf<'scan'>> {
  const open = session.workspace();
  const destinations = pick(session, ids);
  const report = await scanWorkspace(
    { ...open.loaded, destinations },
    {
      signal: context.signal,
      pool: session.hashPool(),
      retain: 'summary',
      onProgress: ({ done, total }) => context.progress(done, total, 0),
      onResult: (row) => {
        const entry: ScanEntry = { destination: row.destination.id, inspection: row.inspection, summary: row.summary };
        open.scans.set(row.destination.id, entry);
        context.item(entry);
      },
    },
  );
  context.signal.throwIfAborted();
  return { counts: report.counts };
}

export async function verifyJob(
  session: SessionContext,
  ids: string[] | undefined,
  context: JobContext<'verify'>,
): Promise<JobResultOf<'verify'>> {
  const open = session.workspace();
  const candidates = pick(session, ids);
  const pool = session.hashPool();
  // Read each state afresh: verify checks the disk as it is now, not as the last scan saw it.
  const scanned = await scanWorkspace({ ...open.loaded, destinations: candidates }, { signal: context.signal, pool, retain: 'full' });
  const targets: (VerifyTarget & { id: string })[] = [];
  for (const row of scanned.rows) {
    open.scans.set(row.destination.id, { destination: row.destination.id, inspection: row.inspection, summary: row.summary });
    if (row.state) targets.push({ id: row.destination.id, path: row.inspection.path, state: row.state });
  }
  const result = { intact: 0, drifted: 0, skipped: candidates.length - targets.length };
  await verifyWorkspace(targets, {
    signal: context.signal,
    pool,
    onProgress: ({ done, total, bytes }) => context.progress(done, total, bytes),
    onResult: (index, report) => {
      const id = targets[index]!.id;
      open.verifies.set(id, report);
      result[report.status]++;
      context.item({ destination: id, report });
    },
  });
  return result;
}

export async function inspectHandler(session: SessionContext, id: string): Promise<ResponseOf<'inspectDestination'>> {
  const destination = session.destination(id);
  const inspection = await inspectDestination(destination.path, { includeText: true });
  session.workspace().scans.set(id, scanEntryOf(destination, inspection));
  const { state: _state, ...data } = inspection;
  return { destination, inspection: data, listing: await listDestination(destination.path) };
}

export async function compareHandler(
  session: SessionContext,
  id: string,
  sourceOverride: string | undefined,
): Promise<ResponseOf<'compare'>> {
  const destination = session.destination(id);
  const sourcePath = sourceOverride ?? destination.source;
  if (sourcePath === undefined)
    throw fail('invalid_source', `no source bundle is configured for "${destination.id}": choose one to compare with`);
  const source = await readSource(sourcePath);
  if (!source.ok) {
    const first = source.issues[0];
    throw fail('invalid_source', `${source.manifestFile}: ${first?.message ?? 'cannot be read'}`, {
      issues: source.issues,
      file: source.manifestFile,
    });
  }
  const inspection = await inspectDestination(destination.path);
  const state: DestinationState = inspection.state
    ? { status: 'managed', state: inspection.state }
    : inspection.status === 'invalid'
      ? { status: 'invalid' }
      : { status: 'none' };
  const comparison = compare({
    destination: state,
    hasContent: inspection.hasContent,
    source: source.manifest,
    configured: { pipelineId: destination.pipelineId, destinationId: destination.destinationId },
  });
  const recorded = inspection.state?.source.manifest;
  return {
    sourcePath: source.bundleDir,
    comparison,
    explanation: explainComparison(comparison),
    diff: recorded ? diffManifests(recorded, source.manifest) : undefined,
    current: source.manifest,
    recorded,
  };
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
