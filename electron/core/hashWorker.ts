// One hashing thread of HashPool: takes a batch of files, examines and hashes each (hashTask.ts),
// and reports bytes as it goes. Synchronous reads on purpose: this thread has nothing else to do,
// and a sync read skips a round trip through libuv's thread pool per chunk.
// Never follows a link; never holds more than one read buffer.

import { parentPort } from 'node:worker_threads';
import { examineAndHash, type FromWorker, type HashOutcome, type ToWorker } from './hashTask';

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

port.on('message', (message: ToWorker) => {
  if (message.type !== 'batch') return;
  batchId = message.id;
  unreported = 0;
  // Parent directories are trusted for one batch only: a folder swapped for a link later is seen.
  hasher.checkedDirs.clear();
  const outcomes: HashOutcome[] = message.tasks.map((task) => examineAndHash(task, hasher));
  port.postMessage({ type: 'done', id: message.id, outcomes, bytes: unreported } satisfies FromWorker);
});
