// A verify through the stat cache, its first pass (docs/verify-freshness.md): every destination whose
// state file and outputs the cache can vouch for (shared/verifyFreshnessCheck.ts) is checked by stats
// alone in the pool's workers (statCheck.ts). One found unchanged gets its row here, from the cache,
// through the same classifier and judge a full verify uses, so it is the row the full verify would
// make; the rest, and any the check found changed, are left to the full verify (scan.ts).
// Never touches the disk itself.

import type { OutputVerification, ScanSummary, VerifyReport } from '../../shared/verifyReport';
import type { CachedOutput, CachedState } from '../../shared/verifyFreshnessCache';
import { sizeOfSignature } from '../../shared/verifyFreshnessStat';
import type { WorkspaceDestination } from '../../shared/workspaceSchema';
import { classifyDestination, type ClassifiedInspection } from './classifyDestination';
import type { HashPool } from './hashPool';
import { judge, summarize } from './judgeOutputs';
import { summarizeInspection } from './scanReader';
import type { StatCache, Vouched } from './statCache';
import type { CheckOutcome } from './statCheck';

export interface UnchangedRow {
  inspection: ClassifiedInspection;
  summary: ScanSummary;
  verify: VerifyReport;
}

/** The row of a destination (its absolute path) the stat check found as the cache recorded it (`known` holds every output of `state`). */
export function unchangedRow(
  destinationPath: string,
  state: CachedState,
  known: Record<string, CachedOutput>,
  found: Extract<CheckOutcome, { kind: 'unchanged' }>,
  digests: boolean,
): UnchangedRow {
  const json: Record<string, unknown> = { outputs: state.outputs };
  if (state.pipeline_id !== undefined) json.pipeline_id = state.pipeline_id;
  if (state.destination_id !== undefined) json.destination_id = state.destination_id;
  if (state.published_at !== undefined) json.published_at = state.published_at;
  const records = state.outputs;
  // Each output as hashThroughCache answers for an unchanged signature: its size now, the hash recorded.
  // Indexed loops, no destructuring: this runs for every output of every destination.
  const outputPaths = new Array<string>(records.length);
  const outputs = new Array<OutputVerification>(records.length);
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i]!;
    const entry = known[record[0]]!;
    outputPaths[i] = record[0];
    outputs[i] = judge(
      { path: record[0], size: record[1], sha256: record[2] },
      { kind: 'file', size: sizeOfSignature(entry[0]), sha256: entry[1] },
    );
  }
  const { inspection } = classifyDestination(destinationPath, {
    kind: 'directory',
    stateFile: { kind: 'validated', ...(digests ? { sha256: state.file[1] } : {}), issues: state.issues, outputPaths, json },
    hasContent: found.hasContent,
    staging: found.staging,
    ...(found.listingDigest === undefined ? {} : { listingDigest: found.listingDigest }),
  });
  return { inspection, summary: summarizeInspection(inspection, json), verify: summarize(outputs, found.extra) };
}

/**
 * Checks each destination the cache can vouch for (and `eligible` accepts) in the pool, hands each one
 * found unchanged to `onRow`, and answers the indexes left for the full verify: those it could not
 * vouch for, then those found changed.
 */
export async function checkUnchangedDestinations(
  pool: HashPool,
  destinations: readonly WorkspaceDestination[],
  statCache: StatCache,
  options: {
    digests: boolean;
    signal?: AbortSignal;
    eligible: (index: number) => boolean;
    onRow: (index: number, row: UnchangedRow) => void;
  },
): Promise<number[]> {
  const rest: number[] = [];
  // The entries each expectation was made from, held as they were: a verify running beside this one
  // replaces entries (never edits them), so a row is built from exactly what the workers checked.
  const checks: { index: number; vouched: Vouched }[] = [];
  for (let index = 0; index < destinations.length; index += 1) {
    const vouched = options.eligible(index) ? statCache.vouched(destinations[index]!.path) : undefined;
    if (vouched) checks.push({ index, vouched });
    else rest.push(index);
  }
  if (checks.length === 0) return rest;
  const changed: number[] = [];
  const now = Date.now();
  await pool.check(
    checks.map((check) => ({ path: destinations[check.index]!.path, expectation: check.vouched.expectation })),
    {
      digests: options.digests,
      ...(options.signal ? { signal: options.signal } : {}),
      onOutcome: (i, outcome) => {
        const { index, vouched } = checks[i]!;
        if (outcome.kind !== 'unchanged') {
          changed.push(index);
          return;
        }
        statCache.touch(vouched.key, now);
        options.onRow(index, unchangedRow(vouched.key, vouched.state, vouched.known, outcome, options.digests));
      },
    },
  );
  return [...rest, ...changed];
}
