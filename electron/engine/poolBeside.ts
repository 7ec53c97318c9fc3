// The calling thread's share of a HashPool request read beside the workers (HashPool's
// `besideHere`, the command line's plain scan): small batches taken from the front of the same
// queue the workers take theirs from, run by the pool's `runHere`, with a turn of the event loop
// between them so the workers' answers come in and their next batches go out. Takes only plain
// inspections: never a hash or a verify, never a job set apart to find the job that killed a worker.

import type { JobQueue } from './jobQueue';
import type { Job, PoolJobOutcome } from './poolProtocol';

// Small: a worker's answer waits for this thread's batch to end before the worker gets its next one
// (16 inspections are ~0.5–1 ms of this thread).
export const BATCH_MAX_HERE = 16;
// A worker's batches while this thread reads: larger than the usual 64, so the worker waits on this
// thread's turn (and, on a loaded machine, on the wake-up a message costs) a quarter as often; the
// last batch still ends within a few ms of this thread's.
export const BATCH_MAX_BESIDE_HERE = 256;

export function readableHere(item: { job: Job; alone?: boolean }): boolean {
  return !item.alone && item.job.kind === 'inspect' && !item.job.verify;
}

export interface Lane<I> {
  queue: JobQueue<I>;
  runHere: (jobs: Job[], options: { onOutcome?: (index: number, outcome: PoolJobOutcome) => void }) => Promise<unknown>;
  /** One outcome with its progress, as a worker's answer gives it. */
  deliver: (item: I, outcome: PoolJobOutcome) => void;
  /** A batch that threw (a bug: a job's own failure is an outcome): its requests fail. */
  fail: (item: I, cause: unknown) => void;
}

function takeFront<I extends { job: Job; alone?: boolean }>(queue: JobQueue<I>): I[] {
  const items: I[] = [];
  while (items.length < BATCH_MAX_HERE && queue.length > 0 && readableHere(queue.peek()!)) items.push(queue.shift()!);
  return items;
}

/** Reads batches here until the front of the queue is empty or not this thread's to read. */
export async function readBeside<I extends { job: Job; alone?: boolean }>(lane: Lane<I>): Promise<void> {
  for (let items = takeFront(lane.queue); items.length > 0; items = takeFront(lane.queue)) {
    try {
      await lane.runHere(
        items.map((item) => item.job),
        { onOutcome: (at, outcome) => lane.deliver(items[at]!, outcome) },
      );
    } catch (cause) {
      for (const item of items) lane.fail(item, cause);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}
