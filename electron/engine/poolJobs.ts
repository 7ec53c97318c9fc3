// What one job of HashPool does (poolProtocol.ts): hash a file, list a destination, inspect one
// (and verify it). Run by the worker threads (hashWorker.ts) and, for a pool that shares the calling
// thread, by that thread too (hashPool.ts): one implementation, so both answer alike.
// Synchronous on purpose: a sync call skips a round trip through libuv's thread pool and a promise
// per syscall. Never follows a link; never holds more than the one read buffer of its hasher.

import { lstatSync } from 'node:fs';
import type { CachedOutput } from '../../shared/verifyFreshnessCache';
import { examineAndHash, type Hasher } from './hashTask';
import { verifyHere, type RecordedOutput } from './judgeOutputs';
import { listFiles } from './listFiles';
import { STATE_FILE_MAX_BYTES } from '../../shared/stateSchema';
import type { InspectJob, InspectOutcome, Job, PoolJobOutcome } from './poolProtocol';
import { inspectDestinationSync, summarizeInspection } from './scanReader';

function message(cause: unknown): string {
  return (cause as NodeJS.ErrnoException)?.code ?? (cause as Error)?.message ?? String(cause);
}

/** Only what changed travels back: for an unchanged destination, nothing (a re-verify's usual case). */
function cacheDelta(known: Record<string, CachedOutput>, seen: Record<string, CachedOutput>) {
  const changed: Record<string, CachedOutput> = {};
  for (const [output, entry] of Object.entries(seen)) if (!Object.hasOwn(known, output) || known[output] !== entry) changed[output] = entry;
  const dropped = Object.keys(known).filter((output) => !Object.hasOwn(seen, output));
  return { changed, dropped };
}

export function runJob(job: Job, hasher: Hasher): PoolJobOutcome {
  switch (job.kind) {
    case 'hash':
      return examineAndHash(job, hasher);
    case 'list': {
      // The destination must be a real directory: listing through a link would leave it.
      const stat = lstatSync(job.root, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) return { kind: 'listed', entries: [] };
      try {
        return { kind: 'listed', entries: listFiles(job.root, { exclude: new Set(job.exclude), expectedDirs: new Set(job.expectedDirs) }) };
      } catch (cause) {
        return { kind: 'error', message: `${job.root} cannot be listed (${message(cause)})` };
      }
    }
    case 'inspect':
      return inspect(job, hasher, STATE_FILE_MAX_BYTES)!;
  }
}

// States above this are parsed in a worker, where running out of memory costs one row, not the process.
const HERE_STATE_MAX_BYTES = 1024 * 1024;

/**
 * An inspect job on the calling thread of a pool that shares it, which must not run out of memory
 * and does not hash: undefined (a worker's job then) for a verify, or a state file above 1 MiB.
 */
export function inspectHere(job: InspectJob): InspectOutcome | undefined {
  return job.verify ? undefined : inspect(job, undefined, HERE_STATE_MAX_BYTES);
}

function inspect(job: InspectJob, hasher: Hasher | undefined, stateBytesAtMost: number): InspectOutcome | undefined {
  try {
    const read = inspectDestinationSync(job.path, { digests: job.digests, withText: job.withText, stateBytesAtMost });
    if (!read) return undefined;
    const { inspection, json, entries } = read;
    const summary = summarizeInspection(inspection, json);
    if (!job.verify || !hasher || inspection.status !== 'managed' || !json) return { kind: 'inspected', inspection, summary };
    // Managed means the state is valid: its outputs are records with clean paths, sizes and hashes.
    // The walk for extras starts from the listing the inspection read: one listing per destination.
    if (!job.known)
      return {
        kind: 'inspected',
        inspection,
        summary,
        verify: verifyHere(inspection.path, json.outputs as RecordedOutput[], hasher, entries),
      };
    const cache = { known: job.known, seen: {}, hashed: 0 };
    const verify = verifyHere(inspection.path, json.outputs as RecordedOutput[], hasher, entries, cache);
    return { kind: 'inspected', inspection, summary, verify, cache: { ...cacheDelta(job.known, cache.seen), hashed: cache.hashed } };
  } catch (cause) {
    return { kind: 'error', message: `${job.path} cannot be read (${message(cause)})` };
  }
}
