// One thread of HashPool: takes a batch of jobs (hash a file, list a destination, inspect a
// destination; poolProtocol.ts) and answers with their outcomes, reporting bytes as it goes.
// Synchronous reads on purpose: this thread has nothing else to do, and a sync call skips a round
// trip through libuv's thread pool and a promise per syscall.
// Never follows a link; never holds more than one read buffer.

import { lstatSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { CachedOutput } from '../../shared/verifyFreshnessCache';
import { cachedStateOf, stateFileBeforeRead } from './cachedState';
import { examineAndHash } from './hashTask';
import { verifyHere, type RecordedOutput } from './judgeOutputs';
import { listFiles } from './listFiles';
import type { FromWorker, Job, PoolJobOutcome, ToWorker } from './poolProtocol';
import { inspectDestinationSync, summarizeInspection } from './scanReader';
import { checkUnchanged } from './statCheck';

const CHUNK_BYTES = 1024 * 1024;
// Progress for a big file: often enough for a smooth bar, rarely enough to cost nothing.
const PROGRESS_EVERY_BYTES = 32 * 1024 * 1024;

const port = parentPort;
if (!port) throw new Error('hashWorker runs only as a worker thread');

let batchId = 0;
let unreported = 0;
const hasher = {
  buffer: Buffer.allocUnsafe(CHUNK_BYTES),
  checkedDirs: new Set<string>(),
  onBytes(bytes: number) {
    unreported += bytes;
    if (unreported >= PROGRESS_EVERY_BYTES) {
      port.postMessage({ type: 'progress', id: batchId, bytes: unreported } satisfies FromWorker);
      unreported = 0;
    }
  },
};

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

function run(job: Job): PoolJobOutcome {
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
    case 'check':
      try {
        return checkUnchanged(job.path, job.expectation, job.digests);
      } catch {
        // Unreadable now: the full verify says how.
        return { kind: 'changed' };
      }
    case 'inspect':
      try {
        // Through the stat cache, the state file's signature comes first: the entry kept of it must never outlive its bytes.
        const before = job.known ? stateFileBeforeRead(job.path) : undefined;
        const { inspection, json, entries } = inspectDestinationSync(job.path, { digests: job.digests, withText: job.withText });
        const summary = summarizeInspection(inspection, json);
        if (job.verify && job.known && (inspection.status !== 'managed' || !json))
          return { kind: 'inspected', inspection, summary, cache: { changed: {}, dropped: [], hashed: 0, state: null } };
        if (!job.verify || inspection.status !== 'managed' || !json) return { kind: 'inspected', inspection, summary };
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
        const state = cachedStateOf(before, inspection, json);
        return {
          kind: 'inspected',
          inspection,
          summary,
          verify,
          cache: { ...cacheDelta(job.known, cache.seen), hashed: cache.hashed, state },
        };
      } catch (cause) {
        return { kind: 'error', message: `${job.path} cannot be read (${message(cause)})` };
      }
  }
}

port.on('message', (incoming: ToWorker) => {
  if (incoming.type !== 'batch') return;
  batchId = incoming.id;
  unreported = 0;
  // Directories are trusted for one batch only: a folder swapped for a link later is seen.
  hasher.checkedDirs.clear();
  const outcomes = incoming.jobs.map(run);
  port.postMessage({ type: 'done', id: incoming.id, outcomesJson: JSON.stringify(outcomes), bytes: unreported } satisfies FromWorker);
});

port.postMessage({ type: 'ready' } satisfies FromWorker);
