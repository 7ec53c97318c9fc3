// Which recorded outputs a normal replace would delete were changed on disk since they were
// published: their bytes hashed by engine/hashTask.ts, in the HashPool's worker threads when the
// caller's pool has workers running (the app's session after a scan), else, for small outputs, in
// this thread in 20 ms slices (timeSlice.ts): starting workers for one plan cost more CPU than
// hashing 10,000 files of 4 KiB, and under load the plan sat idle waiting for them to start
// (docs/performance.md). Read-only; never follows a symbolic link (not even in a parent folder) and
// never opens what lstat did not show to be a regular file, so a FIFO cannot hang planning.

import { availableParallelism } from 'node:os';
import type { ChangedOnDisk } from '../../shared/plan';
import type { OutputRecord } from '../../shared/stateSchema';
import { HashPool, type HashOutcome } from '../engine/hashPool';
import { examineAndHash, hashListedFile, type Hasher } from '../engine/hashTask';
import { timeSlicer } from './timeSlice';

/** Without a pool, outputs are hashed in this thread only while each is at most this big and all at most IN_THREAD_TOTAL_BYTES. */
export const IN_THREAD_FILE_BYTES = 1024 * 1024;
const IN_THREAD_TOTAL_BYTES = 256 * 1024 * 1024;

/**
 * The pool's own examination of each output, in this thread: the same outcomes, in order. `listed`:
 * the caller has just lstat'ed each path (and every folder on its way) and seen a regular file of the
 * recorded size below real folders, so the file is opened at once, without a second lstat (as a
 * verify does for what its listing showed: engine/hashTask.ts hashListedFile). The open still
 * refuses a link (O_NOFOLLOW) and never blocks (O_NONBLOCK); a FIFO or folder swapped in since is
 * told by its positional read and fstat, never read as the output.
 */
export async function hashInThread(
  root: string,
  outputs: readonly Pick<OutputRecord, 'path' | 'size'>[],
  listed = false,
): Promise<HashOutcome[]> {
  const hasher: Hasher = { buffer: Buffer.allocUnsafe(IN_THREAD_FILE_BYTES), checkedDirs: new Set(), onBytes: () => undefined };
  const slice = timeSlicer();
  const outcomes: HashOutcome[] = [];
  const examine = listed ? hashListedFile : examineAndHash;
  for (const output of outputs) {
    await slice.yield();
    outcomes.push(examine({ root, path: output.path, expectedSize: output.size }, hasher));
  }
  return outcomes;
}

/**
 * What a hash outcome says about a recorded output: undefined when its bytes are the published ones.
 * Anything that could not be read as a regular file (gone since the lstat, swapped for a link, an
 * error) counts as `not_a_file`, as planning has always said of an output it could not open.
 */
export function changedOf(output: Pick<OutputRecord, 'size' | 'sha256'>, outcome: HashOutcome): ChangedOnDisk | undefined {
  if (outcome.kind !== 'file') return 'not_a_file';
  if (outcome.size !== output.size || outcome.sha256 === undefined) return 'size_mismatch';
  return outcome.sha256 === output.sha256 ? undefined : 'hash_mismatch';
}

/** Whether the pool has workers running now: only then is handing it small files cheaper than reading them here. */
export function poolIsRunning(pool: HashPool | undefined): pool is HashPool {
  return pool !== undefined && pool.workerCount > 0;
}

/**
 * Hashes the outputs under `root`, and says for each, in order, whether it changed: small ones in
 * this thread unless the pool is running, the others in the pool (the session's, or one made for
 * this call and closed after). An abort of `signal` stops the pool's hashing (its worker ends).
 * `listed`: each output was lstat'ed a moment ago as a regular file of its size (hashInThread).
 */
export async function changedOnDisk(
  root: string,
  outputs: readonly Pick<OutputRecord, 'path' | 'size' | 'sha256'>[],
  pool?: HashPool,
  signal?: AbortSignal,
  listed = false,
): Promise<(ChangedOnDisk | undefined)[]> {
  if (outputs.length === 0) return [];
  const small =
    outputs.every((output) => output.size <= IN_THREAD_FILE_BYTES) &&
    outputs.reduce((sum, output) => sum + output.size, 0) <= IN_THREAD_TOTAL_BYTES;
  if (!poolIsRunning(pool) && small) {
    const outcomes = await hashInThread(root, outputs, listed);
    return outputs.map((output, index) => changedOf(output, outcomes[index]!));
  }
  const own = pool ? undefined : new HashPool({ size: Math.min(availableParallelism(), outputs.length) });
  try {
    const tasks = outputs.map((output) => ({ root, path: output.path, expectedSize: output.size }));
    const outcomes = await (pool ?? own)!.hash(tasks, signal ? { signal } : {});
    return outputs.map((output, index) => changedOf(output, outcomes[index]!));
  } finally {
    await own?.close();
  }
}
