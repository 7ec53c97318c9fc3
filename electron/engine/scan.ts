// Scans a workspace: every destination inspected with inspectDestination's rules (read in the
// HashPool's worker threads by scanReader.ts), each row handed to the caller as soon as its batch
// is back, so a list can grow while the scan runs. Never follows a symbolic link, never writes.

import { error, hasErrors } from '../../shared/issues';
import type { State } from '../../shared/stateSchema';
import type { ScanCounts, ScanReport, ScanRow, VerifyReport } from '../../shared/verifyReport';
import type { LoadedWorkspace, WorkspaceDestination } from '../../shared/workspaceSchema';
import type { SyncStatus } from '../../shared/syncStatus';
import { choiceAt, HashPool, type InspectOutcome, type PerIndex } from './hashPool';
import { checkUnchangedDestinations } from './reverify';
import type { StatCache } from './statCache';
import type { SourceManifests } from './sourceManifests';

export type { ScanReport, ScanRow, ScanSummary } from '../../shared/verifyReport';
export { summarizeInspection } from './scanReader';

/** A row as the engine holds it: the data of ScanRow, plus the validated state of a managed destination. */
export interface ScannedDestination extends ScanRow {
  state?: State;
  /** With a stat cache: how many outputs had their bytes read (the rest were proven unchanged by their stat). */
  hashedFiles?: number;
  /** With the `sync` option: the decision against the destination's configured source (shared/syncStatus.ts). */
  sync?: SyncStatus;
  /** With the `rowText` option: the row's fields from `path` on, as `scan --json` prints them (shared/scanRowText.ts). */
  text?: string;
  /** With `verify` and `rowText` or `driftedReportsOnly`: the verify's status, where its report did not come. */
  verifyStatus?: VerifyReport['status'];
}

export interface EngineScanReport extends ScanReport {
  rows: ScannedDestination[];
}

export interface ScanOptions {
  signal?: AbortSignal;
  /** Worker threads reading at once when the scan makes its own pool (default: one per core). */
  concurrency?: number;
  /** Share the pool with a verify that follows; without it, one is made and closed for this call. */
  pool?: HashPool;
  /** Each row as it finishes, in completion order, with its index among the workspace's destinations. */
  onResult?: (row: ScannedDestination, index: number) => void;
  /** Destinations done; with verify, bytes hashed too. */
  onProgress?: (progress: { done: number; total: number; bytes?: number }) => void;
  /**
   * Verify each managed destination in the same pass, against the state just read (row.verify):
   * the state never has to travel to the main thread, which makes `scan --verify` one read of each file.
   */
  verify?: boolean;
  /**
   * 'full' (default) keeps each state (stateJson, and state when managed): what the UI and a verify
   * need. 'summary' keeps status, issues and summary only: for tens of thousands of destinations,
   * the parsed states are most of the memory and most of the time.
   */
  retain?: 'full' | 'summary';
  /**
   * With verify: re-hash only the outputs whose stat signature changed since the cache recorded them
   * (electron/engine/statCache.ts); what each verify saw is recorded back into it.
   */
  statCache?: StatCache;
  /**
   * Decide each row's sync against its configured source, read once per bundle from here: the state
   * of a destination with a source is read for it, then dropped again when `retain` is 'summary'.
   */
  sync?: SourceManifests;
  /**
   * False: the rows carry no fingerprint (`stateSha256`, `listingDigest`), which only a verify
   * result's freshness needs (shared/verifyFreshness.ts): a caller that keeps no verify result,
   * as the command line's scan, skips a hash of every state file (and, for a folder without
   * subfolders, its listing). A function: only the destinations at the indexes it accepts carry
   * one, as the Session's scan asks for those it holds a verify result of (asked once for each, as
   * the scan starts; a stat cache's check by stats alone always digests). Default true.
   */
  digests?: PerIndex;
  /**
   * False: a row's `hasContent` is not settled where the status does not need it and it would cost a
   * call of its own (a flat folder with a state file: it reads true there, unchecked). For a caller
   * that never reports it and decides no sync, as the command line's scan without sources. Default true.
   */
  settleContent?: boolean;
  /**
   * Each row's fields from `path` on rendered where it was read, as `scan --json` prints them
   * (row.text), `verifiedAt` the time they give a verify: a verify's report then comes in that text
   * only, its status beside it (row.verifyStatus), and is never parsed nor printed on this thread.
   * For the command line's --json; an unreadable destination's row comes without text.
   */
  rowText?: { verifiedAt?: string };
  /**
   * With verify: an intact destination's report is not sent back, only its status (row.verifyStatus);
   * a drifted one's comes in full. For a caller that lists the drifts only, as the command line's table.
   */
  driftedReportsOnly?: boolean;
}

export function countRows(rows: readonly ScanRow[]): ScanCounts {
  const counts: ScanCounts = { total: rows.length, empty: 0, unmanaged: 0, managed: 0, invalid: 0 };
  for (const row of rows) counts[row.summary.status] += 1;
  return counts;
}

/** Whether a row is a finding for exit codes: invalid state, or an error such as a linked destination or an interrupted replace. */
export function isFinding(row: ScanRow): boolean {
  return row.summary.status === 'invalid' || hasErrors(row.inspection.issues);
}

/** The row's sync, from its state (the only time a 'summary' scan holds it); the sources were read before the pass. */
function withSync(row: ScannedDestination, sources: SourceManifests, retain: ScanOptions['retain']): void {
  // A state withheld for its size never travelled: no decision rather than a wrong one (Compare reads it whole).
  if (row.destination.source === undefined || row.inspection.status !== 'managed' || row.state)
    row.sync = sources.syncOf(row.destination, { ...row.inspection, ...(row.state ? { state: row.state } : {}) });
  if (retain === 'summary') {
    delete row.state;
    delete row.inspection.stateJson;
  }
}

function rowOf(destination: WorkspaceDestination, outcome: InspectOutcome): ScannedDestination {
  if (outcome.kind === 'error') {
    // One unreadable destination (permissions, I/O) is a row with an issue, not the end of the scan.
    const issues = [error([], 'destination_unreadable', outcome.message)];
    return {
      destination,
      inspection: { path: destination.path, status: 'invalid', issues, hasContent: true },
      summary: { status: 'invalid', outputCount: 0, errorCount: 1, warningCount: 0 },
    };
  }
  // Parsed from the worker's JSON (or handed over by this thread's run), the inspection is this row's own.
  const inspection = outcome.inspection;
  const row: ScannedDestination = { destination, inspection, summary: outcome.summary };
  if (outcome.verify) row.verify = outcome.verify;
  if (outcome.text !== undefined) row.text = outcome.text;
  if (outcome.verifyStatus) row.verifyStatus = outcome.verifyStatus;
  // The worker validated the state and found it a JSON object; the state schema has no transforms,
  // so for a managed destination its JSON is the validated state (scanReader.test.ts checks it
  // against inspectDestination).
  if (inspection.stateJson && inspection.status === 'managed') row.state = inspection.stateJson as State;
  return row;
}

export async function scanWorkspace(workspace: LoadedWorkspace, options: ScanOptions = {}): Promise<EngineScanReport> {
  const { signal } = options;
  signal?.throwIfAborted();
  const destinations = workspace.destinations;
  const total = destinations.length;
  const rows = new Array<ScannedDestination>(total);
  let done = 0;
  let bytes = 0;
  const progress = () => options.onProgress?.(options.verify ? { done, total, bytes } : { done, total });
  progress();
  if (total === 0) return { rows, counts: countRows(rows) };

  const { sync } = options;
  if (sync) await sync.readAll(destinations);
  const pool = options.pool ?? new HashPool(options.concurrency ? { size: options.concurrency } : {});
  const statCache = options.statCache;
  const digests = options.digests ?? true;
  const deliver = (index: number, row: ScannedDestination) => {
    if (sync) withSync(row, sync, options.retain);
    rows[index] = row;
    done += 1;
    options.onResult?.(row, index);
    progress();
  };
  try {
    // With 'summary', a state travels back only where a sync decision reads it: a destination
    // without a source is `no_source` whatever its state says (withSync).
    const withState: PerIndex =
      options.retain !== 'summary' ? true : sync ? (index: number) => destinations[index]!.source !== undefined : false;
    // Through the stat cache, a destination proven unchanged by its stats is not read again (reverify.ts);
    // one whose state is wanted always is.
    const pending =
      options.verify && statCache
        ? await checkUnchangedDestinations(pool, destinations, statCache, {
            digests: digests !== false,
            ...(signal ? { signal } : {}),
            eligible: (index) => !choiceAt(withState, index),
            onRow: (index, row) => deliver(index, { destination: destinations[index]!, ...row, hashedFiles: 0 }),
          })
        : destinations.map((_, index) => index);
    // The pool numbers the pending destinations from 0; a choice per destination is asked by its index in the workspace.
    const forPending = (choice: PerIndex): PerIndex => (typeof choice === 'function' ? (at: number) => choice(pending[at]!) : choice);
    await pool.inspect(
      pending.map((index) => destinations[index]!.path),
      {
        withState: forPending(withState),
        verify: options.verify === true,
        digests: forPending(digests),
        ...(options.settleContent === false && !sync ? { settleContent: false } : {}),
        ...(options.rowText ? { rowText: options.rowText } : {}),
        ...(options.driftedReportsOnly ? { driftedReportsOnly: true } : {}),
        ...(options.verify && statCache ? { knownOf: (at: number) => statCache.known(destinations[pending[at]!]!.path) ?? {} } : {}),
        signal,
        onProgress: (delta) => {
          if (delta.bytes === 0) return;
          bytes += delta.bytes;
          progress();
        },
        onOutcome: (at, outcome) => {
          const index = pending[at]!;
          const row = rowOf(destinations[index]!, outcome);
          if (statCache && outcome.kind === 'inspected' && outcome.cache) {
            statCache.update(destinations[index]!.path, outcome.cache.changed, outcome.cache.dropped, outcome.cache.state);
            row.hashedFiles = outcome.cache.hashed;
          }
          deliver(index, row);
        },
      },
    );
  } finally {
    if (!options.pool) await pool.close();
  }
  return { rows, counts: countRows(rows) };
}
