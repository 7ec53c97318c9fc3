// One thread of HashPool: takes a batch of jobs (hash a file, list a destination, inspect a
// destination; poolProtocol.ts), runs them (poolJobs.ts) and answers with their outcomes, reporting
// bytes as it goes. Blocking reads are free here: this thread has nothing else to do.
// Never follows a link; never holds more than one read buffer.

import { parentPort } from 'node:worker_threads';
import type { Hasher } from './hashTask';
import type { FromWorker, ToWorker } from './poolProtocol';
import { runJob } from './poolJobs';

const CHUNK_BYTES = 1024 * 1024;
// Progress for a big file: often enough for a smooth bar, rarely enough to cost nothing.
const PROGRESS_EVERY_BYTES = 32 * 1024 * 1024;

const port = parentPort;
if (!port) throw new Error('hashWorker runs only as a worker thread');

let batchId = 0;
let unreported = 0;
const hasher: Hasher = {
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

port.on('message', (incoming: ToWorker) => {
  if (incoming.type !== 'batch') return;
  batchId = incoming.id;
  unreported = 0;
  // Directories are trusted for one batch only: a folder swapped for a link later is seen.
  hasher.checkedDirs.clear();
  const outcomes = incoming.jobs.map((job) => runJob(job, hasher));
  port.postMessage({ type: 'done', id: incoming.id, outcomesJson: JSON.stringify(outcomes), bytes: unreported } satisfies FromWorker);
});

port.postMessage({ type: 'ready' } satisfies FromWorker);
