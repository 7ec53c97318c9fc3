// How HashPool groups its jobs into batches for one thread, and what it says of a job whose worker
// died or whose request was aborted. Pure: no thread, no file.

import type { Job } from './poolProtocol';

// Measured on 4 KiB files: past ~64 files a batch, bigger batches gain nothing and only make
// progress coarser and cancel slower.
export const BATCH_MAX_FILES = 64;
// A re-verify's stat check is ~40 µs of a worker's time: in batches of 64 the worker would wait on
// this thread between batches more than it works (on a loaded machine each wake-up of this thread
// takes tens of ms). Batches of this many keep it busy and still come back every ~20 ms of work.
export const BATCH_MAX_CHECKS = 512;
export const BATCH_MAX_BYTES = 4 * 1024 * 1024;

// A destination inspected and verified in one job holds files of unknown size: counted as this much,
// so a batch carries a few of them, not 64.
const INSPECT_AND_VERIFY_WEIGHT = 512 * 1024;

export function weightOf(job: Job): number {
  if (job.kind === 'hash') return job.expectedSize ?? 0;
  if (job.kind === 'inspect' && job.verify) return INSPECT_AND_VERIFY_WEIGHT;
  return 0;
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
