// One thread of HashPool: takes a batch of jobs (hash a file, list a destination, inspect a
// destination; poolProtocol.ts, run by poolJobs.ts) and answers with their outcomes, reporting
// bytes as it goes.
// Synchronous reads on purpose: this thread has nothing else to do, and a sync call skips a round
// trip through libuv's thread pool and a promise per syscall. The one exception is a file bigger
// than the buffer: it is read ahead on libuv's pool while this thread hashes (hashStream.ts), and
// the jobs after it wait for it.
// Never follows a link; never holds more than two read buffers.

import { parentPort } from 'node:worker_threads';
import { READ_BUFFER_BYTES } from './hashTask';
import { runAll } from './poolJobs';
import type { FromWorker, PoolJobOutcome, ToWorker } from './poolProtocol';

// Progress for a big file: often enough for a smooth bar, rarely enough to cost nothing.
const PROGRESS_EVERY_BYTES = 32 * 1024 * 1024;

const port = parentPort;
if (!port) throw new Error('hashWorker runs only as a worker thread');

let batchId = 0;
let unreported = 0;
const hasher = {
  buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
  spare: Buffer.allocUnsafe(READ_BUFFER_BYTES),
  checkedDirs: new Set<string>(),
  onBytes(bytes: number) {
    unreported += bytes;
    if (unreported >= PROGRESS_EVERY_BYTES) {
      port.postMessage({ type: 'progress', id: batchId, bytes: unreported } satisfies FromWorker);
      unreported = 0;
    }
  },
};

/** The rendered rows' texts taken out of their outcomes (poolProtocol.ts `texts`); undefined when none has one. */
function textsApart(outcomes: PoolJobOutcome[]): (string | null)[] | undefined {
  let texts: (string | null)[] | undefined;
  outcomes.forEach((outcome, index) => {
    if (outcome.kind !== 'inspected' || outcome.text === undefined) return;
    texts ??= new Array<string | null>(outcomes.length).fill(null);
    texts[index] = outcome.text;
    outcome.text = undefined; // JSON.stringify leaves it out
  });
  return texts;
}

/** Set while a batch reads a big file ahead: a batch that arrives meanwhile waits for it (one hasher, one batch at a time). */
let running: Promise<void> | undefined;

const runBatch = (incoming: Extract<ToWorker, { type: 'batch' }>): Promise<void> | undefined => {
  batchId = incoming.id;
  unreported = 0;
  // Directories are trusted for one batch only: a folder swapped for a link later is seen.
  hasher.checkedDirs.clear();
  const done = (outcomes: PoolJobOutcome[]) => {
    const texts = textsApart(outcomes);
    port.postMessage({
      type: 'done',
      id: incoming.id,
      outcomesJson: JSON.stringify(outcomes),
      ...(texts ? { texts } : {}),
      bytes: unreported,
    } satisfies FromWorker);
  };
  const outcomes = runAll(incoming.jobs, hasher);
  if (!(outcomes instanceof Promise)) return void done(outcomes);
  return outcomes.then(done);
};

port.on('message', (incoming: ToWorker) => {
  if (incoming.type !== 'batch') return;
  // The pool may send a batch of quick jobs before this one's answer; batches run in the order sent.
  const next = running ? running.then(() => runBatch(incoming)) : runBatch(incoming);
  if (!next) return;
  running = next;
  void next.then(() => {
    if (running === next) running = undefined;
  });
});

port.postMessage({ type: 'ready' } satisfies FromWorker);
