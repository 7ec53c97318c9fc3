// How HashPool groups its jobs into batches for one thread, which batch may wait in a worker behind
// another, and what it says of a job whose worker died or whose request was aborted. Pure: no
// thread, no file.

import type { JobQueue } from './jobQueue';
import type { Job } from './poolProtocol';

/** A job as the pool queues it: `alone` once the worker running its batch died, to find the culprit. */
export interface QueuedJob {
  job: Job;
  alone?: boolean;
}

// Measured on 4 KiB files: past ~64 files a batch, bigger batches gain nothing and only make
// progress coarser and cancel slower.
export const BATCH_MAX_FILES = 64;
// A re-verify's stat check is ~40 µs of a worker's time: in batches of 64 the worker would wait on
// this thread between batches more than it works (on a loaded machine each wake-up of this thread
// takes tens of ms). Batches of this many keep it busy and still come back every ~20 ms of work.
export const BATCH_MAX_CHECKS = 512;
// A plain inspection that sends no state text back (the command line's scan) answers with a summary
// of a few hundred bytes after ~20-45 µs: in batches of 64 each worker answered every ~1.5 ms at
// 100,000 destinations, each answer a wake-up of two threads. Measured, forced into two workers,
// 100,000 x 1 output: 4% less CPU in batches of this many (no change at 10,000 x 10).
export const BATCH_MAX_SUMMARIES = 256;
export const BATCH_MAX_BYTES = 4 * 1024 * 1024;

/** How many jobs a batch may hold when this one is among them: a batch holds at most its smallest limit. */
function batchLimit(job: Job): number {
  if (job.kind === 'check') return BATCH_MAX_CHECKS;
  if (job.kind === 'inspect' && !job.verify && !job.withState) return BATCH_MAX_SUMMARIES;
  return BATCH_MAX_FILES;
}

// A destination inspected and verified in one job holds files of unknown size: counted as this much,
// so a batch carries a few of them, not 64.
const INSPECT_AND_VERIFY_WEIGHT = 512 * 1024;

export function weightOf(job: Job): number {
  if (job.kind === 'hash') return job.expectedSize ?? 0;
  if (job.kind === 'inspect' && job.verify) return INSPECT_AND_VERIFY_WEIGHT;
  return 0;
}

/**
 * A job whose cost is small and known: a plain inspection (a state file is read up to its size cap)
 * or a stat check.
 */
function isQuickJob(job: Job): boolean {
  return (job.kind === 'inspect' && !job.verify) || job.kind === 'check';
}

/**
 * Whether `next` may be sent to a worker still running `running`, to wait there: only quick jobs
 * behind quick jobs. A hash or a verify may read a file of any size, and a job set apart after a
 * crash must run alone: neither is held from a worker that may be idle sooner.
 */
export function mayWaitBehind(running: readonly QueuedJob[], next: QueuedJob): boolean {
  return !next.alone && isQuickJob(next.job) && running.every((item) => !item.alone && isQuickJob(item.job));
}

/** The next batch off a non-empty queue: a job set apart alone; else up to the limits, checks only with checks. */
export function takeBatch<T extends QueuedJob>(queue: JobQueue<T>): T[] {
  if (queue.peek()!.alone) return [queue.shift()!];
  const items: T[] = [];
  let bytes = 0;
  const checks = queue.peek()!.job.kind === 'check';
  let maxJobs = batchLimit(queue.peek()!.job);
  while (queue.length > 0 && items.length < maxJobs) {
    const next = queue.peek()!;
    // Checks go only with checks; inspections with and without text go together, in their order.
    if (next.alone || (next.job.kind === 'check') !== checks) break;
    maxJobs = Math.min(maxJobs, batchLimit(next.job));
    if (items.length >= maxJobs) break;
    const size = weightOf(next.job);
    if (items.length > 0 && bytes + size > BATCH_MAX_BYTES) break;
    items.push(queue.shift()!);
    bytes += size;
  }
  return items;
}

export function fitsOneBatch(jobs: readonly Job[]): boolean {
  if (jobs.length === 1) return true;
  if (jobs.length > BATCH_MAX_FILES) return false;
  return jobs.reduce((bytes, job) => bytes + weightOf(job), 0) <= BATCH_MAX_BYTES;
}

/** Why a job got no answer: its worker died running it (out of memory, most likely a huge file). */
export function crashMessage(job: Job, cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const what = job.kind === 'inspect' || job.kind === 'check' ? job.path : job.kind === 'list' ? job.root : `${job.root}/${job.path}`;
  const why =
    code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? 'the reader ran out of memory on it'
      : `the reader stopped on it (${code ?? (cause as Error | undefined)?.message ?? String(cause)})`;
  return `${what} cannot be read: ${why}`;
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}
