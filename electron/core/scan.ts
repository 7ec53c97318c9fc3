// Scans a workspace: every destination inspected (inspectDestination.ts) with bounded concurrency,
// each row handed to the caller as soon as it is ready, so a list can grow while the scan runs.
// Never follows a symbolic link (inspectDestination refuses linked destinations), never writes.

import path from 'node:path';
import { error, hasErrors } from '../../shared/issues';
import type { State } from '../../shared/stateSchema';
import type { ScanCounts, ScanReport, ScanRow, ScanSummary } from '../../shared/verifyReport';
import type { Workspace } from '../../shared/workspaceSchema';
import { inspectDestination, type DestinationInspection } from './inspectDestination';

export type { ScanReport, ScanRow, ScanSummary } from '../../shared/verifyReport';

/** A row as the engine holds it: the data of ScanRow, plus the validated state of a managed destination. */
export interface ScannedDestination extends ScanRow {
  state?: State;
}

export interface EngineScanReport extends ScanReport {
  rows: ScannedDestination[];
}

export interface ScanOptions {
  signal?: AbortSignal;
  /** Destinations read at once (default 32): enough to keep the disk busy, few enough for the file table. */
  concurrency?: number;
  /** Each row as it finishes, in completion order. */
  onResult?: (row: ScannedDestination) => void;
  onProgress?: (progress: { done: number; total: number }) => void;
  /**
   * 'summary' keeps only what a list and a verify need (no stateJson) in the returned rows: for tens of
   * thousands of destinations, the parsed JSON of every state is most of the memory. Default 'full'.
   */
  retain?: 'full' | 'summary';
}

function stringField(json: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = json?.[key];
  return typeof value === 'string' ? value : undefined;
}

export function summarizeInspection(inspection: DestinationInspection): ScanSummary {
  const json = inspection.stateJson;
  const summary: ScanSummary = {
    status: inspection.status,
    outputCount: Array.isArray(json?.outputs) ? json.outputs.length : 0,
    errorCount: inspection.issues.filter((issue) => issue.severity === 'error').length,
    warningCount: inspection.issues.filter((issue) => issue.severity === 'warning').length,
  };
  const pipelineId = stringField(json, 'pipeline_id');
  const destinationId = stringField(json, 'destination_id');
  const publishedAt = stringField(json, 'published_at');
  if (pipelineId !== undefined) summary.pipeline_id = pipelineId;
  if (destinationId !== undefined) summary.destination_id = destinationId;
  if (publishedAt !== undefined) summary.published_at = publishedAt;
  return summary;
}

export function countRows(rows: readonly ScanRow[]): ScanCounts {
  const counts: ScanCounts = { total: rows.length, empty: 0, unmanaged: 0, managed: 0, invalid: 0 };
  for (const row of rows) counts[row.summary.status] += 1;
  return counts;
}

/** Whether a row is a finding for exit codes: invalid state, or an error such as a linked destination. */
export function isFinding(row: ScanRow): boolean {
  return row.summary.status === 'invalid' || hasErrors(row.inspection.issues);
}

/** One unreadable destination (permissions, I/O) is a row with an issue, not the end of the scan. */
async function inspectSafely(destinationPath: string): Promise<DestinationInspection> {
  try {
    return await inspectDestination(destinationPath);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException)?.code ?? String(cause);
    return { path: path.resolve(destinationPath), status: 'invalid', hasContent: true, issues: [error([], 'destination_unreadable', `${destinationPath} cannot be read (${code})`)] };
  }
}

export async function scanWorkspace(workspace: Workspace, options: ScanOptions = {}): Promise<EngineScanReport> {
  const { signal } = options;
  signal?.throwIfAborted();
  const destinations = workspace.destinations;
  const total = destinations.length;
  const rows = new Array<ScannedDestination>(total);
  let next = 0;
  let done = 0;
  options.onProgress?.({ done, total });

  const lane = async () => {
    while (next < total && !signal?.aborted) {
      const index = next++;
      const destination = destinations[index]!;
      const { state, stateText: _stateText, ...inspection } = await inspectSafely(destination.path);
      const summary = summarizeInspection(inspection);
      const row: ScannedDestination = { destination, inspection, summary };
      if (state) row.state = state;
      if (signal?.aborted) return;
      options.onResult?.(row);
      if (options.retain === 'summary') delete row.inspection.stateJson;
      rows[index] = row;
      done += 1;
      options.onProgress?.({ done, total });
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency ?? 32, total));
  // Lanes stop taking work on abort; waiting for the ones in flight keeps reads from outliving the call.
  await Promise.all(Array.from({ length: lanes }, lane));
  signal?.throwIfAborted();
  return { rows, counts: countRows(rows) };
}
