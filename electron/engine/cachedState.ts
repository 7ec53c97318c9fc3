// A state file as a verify through the stat cache reads it, in a worker: its signature taken just
// before the read, and the entry the cache keeps of it (shared/verifyFreshnessCache.ts) when it
// validated as managed, so that a re-verify that finds the same signature (statCheck.ts) needs neither
// its bytes nor its validation again. The signature comes before the read: a write after it changes
// the signature or falls within the racy margin of the read, so a stale entry is never trusted.
// Never follows a link, never writes.

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import type { CachedState } from '../../shared/verifyFreshnessCache';
import { statSignature, type StatSignature } from '../../shared/verifyFreshnessStat';
import type { RecordedOutput } from './judgeOutputs';
import type { InspectionWire } from './scanReader';

export interface StateFileBeforeRead {
  signature: StatSignature;
  /** The wall clock (ns) before the lstat: the racy rule's moment of the read. */
  readAtNs: bigint;
}

/** The state file's signature now, when it is a regular file (no link followed). */
export function stateFileBeforeRead(
  destination: string,
  nowNs: () => bigint = () => BigInt(Date.now()) * 1_000_000n,
): StateFileBeforeRead | undefined {
  const readAtNs = nowNs();
  const stats = lstatSync(path.join(path.resolve(destination), STATE_FILE_NAME), { bigint: true, throwIfNoEntry: false });
  return stats?.isFile() ? { signature: statSignature(stats), readAtNs } : undefined;
}

function stringField(json: Record<string, unknown>, key: string): string | undefined {
  const value = json[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The entry for a state read just after `before`, or null when there is nothing to keep: not managed,
 * no digest of its bytes, or an issue of the folder's own among its issues (an interrupted replace's
 * staging folder is read afresh each time, never cached with the state).
 */
export function cachedStateOf(
  before: StateFileBeforeRead | undefined,
  inspection: Pick<InspectionWire, 'status' | 'issues' | 'stateSha256'>,
  json: Record<string, unknown> | undefined,
): CachedState | null {
  if (!before || !json || inspection.status !== 'managed' || inspection.stateSha256 === undefined) return null;
  if (inspection.issues.some((issue) => issue.severity !== 'warning')) return null;
  const entry: CachedState = {
    file: [before.signature, inspection.stateSha256, String(before.readAtNs)],
    issues: inspection.issues,
    outputs: (json.outputs as RecordedOutput[]).map((output) => [output.path, output.size, output.sha256]),
  };
  for (const key of ['pipeline_id', 'destination_id', 'published_at'] as const) {
    const value = stringField(json, key);
    if (value !== undefined) entry[key] = value;
  }
  return entry;
}
