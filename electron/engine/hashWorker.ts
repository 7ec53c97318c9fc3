// One thread of HashPool: takes a batch of jobs (hash a file, list a destination, inspect a
// destination; poolProtocol.ts) and answers with their outcomes, reporting bytes as it goes.
// Synchronous reads on purpose: this thread has nothing else to do, and a sync call skips a round
// trip through libuv's thread pool and a promise per syscall. The one exception is a file bigger
// than the buffer: it is read ahead on libuv's pool while this thread hashes (hashStream.ts), and
// the jobs after it wait for it.
// Never follows a link; never holds more than two read buffers.

import { lstatSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { CachedOutput } from '../../shared/verifyFreshnessCache';
import type { VerifyReport } from '../../shared/verifyReport';
import { examineAndHash } from './hashTask';
import { verifyHere, type RecordedOutput } from './judgeOutputs';
import { listFiles } from './listFiles';
import type { FromWorker, Job, PoolJobOutcome, ToWorker } from './poolProtocol';
import { inspectDestinationSync, summarizeInspection } from './scanReader';

const CHUNK_BYTES = 1024 * 1024;
// Progress for a big file: often enough for a smooth bar, rarely enough to cost nothing.
const PROGRESS_EVERY_BYTES = 32 * 1024 * 1024;

const port = parentPort;
if (!port) throw new Error('hashWorker runs only as a worker thread');

let batchId = 0;
let unreported = 0;
const hasher = {
  buffer: Buffer.allocUnsafe(CHUNK_BYTES),
  spare: Buffer.allocUnsafe(CHUNK_BYTES),
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

function run(job: Job): PoolJobOutcome | Promise<PoolJobOutcome> {
  switch (job.kind) {
    case 'hash':
      return examineAndHash(job, hasher, true);
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
      try {
        const { inspection, json, entries } = inspectDestinationSync(job.path, { digests: job.digests, withText: job.withText });
        const summary = summarizeInspection(inspection, json);
        if (!job.verify || inspection.status !== 'managed' || !json) return { kind: 'inspected', inspection, summary };
        // Managed means the state is valid: its outputs are records with clean paths, sizes and hashes.
        // The walk for extras starts from the listing the inspection read: one listing per destination.
        const outputs = json.outputs as RecordedOutput[];
        const cache = job.known ? { known: job.known, seen: {}, hashed: 0 } : undefined;
        const answer = (verify: VerifyReport): PoolJobOutcome =>
          cache && job.known
            ? { kind: 'inspected', inspection, summary, verify, cache: { ...cacheDelta(job.known, cache.seen), hashed: cache.hashed } }
            : { kind: 'inspected', inspection, summary, verify };
        const verify = verifyHere(inspection.path, outputs, hasher, entries, cache, true);
        return verify instanceof Promise ? verify.then(answer, (cause: unknown) => failed(job.path, cause)) : answer(verify);
      } catch (cause) {
        return failed(job.path, cause);
      }
  }
}

function failed(path: string, cause: unknown): PoolJobOutcome {
  return { kind: 'error', message: `${path} cannot be read (${message(cause)})` };
}

/** The batch's outcomes in order; a job that answers with a promise holds the next until it settles. */
function runAll(jobs: Job[], from = 0, outcomes: PoolJobOutcome[] = []): PoolJobOutcome[] | Promise<PoolJobOutcome[]> {
  for (let index = from; index < jobs.length; index += 1) {
    const outcome = run(jobs[index]!);
    if (outcome instanceof Promise)
      return outcome.then((settled) => {
        outcomes.push(settled);
        return runAll(jobs, index + 1, outcomes);
      });
    outcomes.push(outcome);
  }
  return outcomes;
}

port.on('message', (incoming: ToWorker) => {
  if (incoming.type !== 'batch') return;
  batchId = incoming.id;
  unreported = 0;
  // Directories are trusted for one batch only: a folder swapped for a link later is seen.
  hasher.checkedDirs.clear();
  const done = (outcomes: PoolJobOutcome[]) =>
    port.postMessage({ type: 'done', id: incoming.id, outcomesJson: JSON.stringify(outcomes), bytes: unreported } satisfies FromWorker);
  const outcomes = runAll(incoming.jobs);
  // The pool sends the next batch only after this one's answer: no other batch runs meanwhile.
  if (outcomes instanceof Promise) void outcomes.then(done);
  else done(outcomes);
});

port.postMessage({ type: 'ready' } satisfies FromWorker);
