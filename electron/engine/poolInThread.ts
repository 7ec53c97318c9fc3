// A HashPool request run in the calling thread, for a caller with nothing else to do meanwhile (the
// command line): the jobs of one batch without a worker thread's start, which is most of the time
// of a small verify. The same jobs a worker runs (poolJobs.ts), one at a time, in order, with the
// same progress. A small file blocks the thread while it is read; a big one is read ahead, and the
// thread is free between its chunks. Given to HashPool as `runHere`, by the command line only: never
// by the app, whose main thread must stay responsive. A job that exhausts memory ends the process
// here, where in a worker it costs only its row (a state is read up to its size cap either way).

import { READ_BUFFER_BYTES, type Hasher } from './hashTask';
import { runJob } from './poolJobs';
import type { Job, PoolJobOutcome } from './poolProtocol';

// As a worker reports a big file's bytes: often enough for a smooth bar, rarely enough to cost nothing.
const PROGRESS_EVERY_BYTES = 32 * 1024 * 1024;

export interface InThreadOptions {
  signal?: AbortSignal;
  onProgress?: (delta: { files: number; bytes: number }) => void;
  onOutcome?: (index: number, outcome: PoolJobOutcome) => void;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/**
 * Runs `jobs` here, with read buffers of their own (a big file abandoned on abort may still be
 * reading into them). Rejects with the signal's reason on abort, between jobs or while a big file is
 * read (whose last read still completes before its file is closed).
 */
export async function runInThread(jobs: readonly Job[], options: InThreadOptions): Promise<PoolJobOutcome[]> {
  let unreported = 0;
  const hasher: Hasher = {
    buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
    spare: Buffer.allocUnsafe(READ_BUFFER_BYTES),
    checkedDirs: new Set(),
    onBytes(bytes) {
      unreported += bytes;
      if (unreported < PROGRESS_EVERY_BYTES) return;
      options.onProgress?.({ files: 0, bytes: unreported });
      unreported = 0;
    },
  };
  const { signal } = options;
  let onAbort: (() => void) | undefined;
  const aborted = signal
    ? new Promise<never>((_, reject) => signal.addEventListener('abort', (onAbort = () => reject(abortReason(signal))), { once: true }))
    : undefined;
  // Nobody may await `aborted` when no big file is in flight: its rejection is not left unhandled.
  aborted?.catch(() => undefined);
  try {
    const outcomes: PoolJobOutcome[] = [];
    for (const [index, job] of jobs.entries()) {
      if (signal?.aborted) throw abortReason(signal);
      const running = runJob(job, hasher);
      const outcome = running instanceof Promise ? await (aborted ? Promise.race([running, aborted]) : running) : running;
      outcomes.push(outcome);
      options.onOutcome?.(index, outcome);
      options.onProgress?.({ files: 1, bytes: unreported });
      unreported = 0;
    }
    return outcomes;
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
