// Verification of managed destinations (CONTRACT.md: verification): every output lstat'ed, then its
// size checked, then its bytes hashed, and extra files listed, all in the HashPool's workers. Never follows a
// symbolic link (a link is not_a_file), never reads outside the destination, never writes.

import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { State } from '../../shared/stateSchema';
import type { VerifyReport } from '../../shared/verifyReport';
import { HashPool, type HashOutcome, type HashTask } from './hashPool';
import { judge, listingFor, summarize, uncleanOutcome } from './judgeOutputs';

export type { OutputVerification, VerifyReport } from '../../shared/verifyReport';

export interface VerifyProgress {
  /** Outputs finished. */
  done: number;
  total: number;
  /** Bytes hashed so far. */
  bytes: number;
}

export interface VerifyOptions {
  signal?: AbortSignal;
  onProgress?: (progress: VerifyProgress) => void;
  /** Share one pool across many verifications; without it, one is made and closed for this call. */
  pool?: HashPool;
}

export async function verifyDestination(destinationPath: string, state: State, options: VerifyOptions = {}): Promise<VerifyReport> {
  const pool = options.pool ?? new HashPool({ size: Math.min(availableParallelism(), Math.max(1, state.outputs.length)) });
  try {
    return await verifyWithPool(path.resolve(destinationPath), state, pool, options);
  } finally {
    if (!options.pool) await pool.close();
  }
}

async function verifyWithPool(root: string, state: State, pool: HashPool, options: VerifyOptions): Promise<VerifyReport> {
  options.signal?.throwIfAborted();
  const outputs = state.outputs;
  const total = outputs.length;

  const hashable: { index: number; task: HashTask }[] = [];
  const outcomes: HashOutcome[] = new Array(total);
  outputs.forEach((output, index) => {
    const refused = uncleanOutcome(output);
    if (refused) outcomes[index] = refused;
    else hashable.push({ index, task: { root, path: output.path, expectedSize: output.size } });
  });

  let done = total - hashable.length;
  let bytes = 0;
  options.onProgress?.({ done, total, bytes });
  const listing = listingFor(outputs);
  const [hashed, extra] = await Promise.all([
    pool.hash(
      hashable.map((entry) => entry.task),
      {
        signal: options.signal,
        onProgress: (delta) => {
          done += delta.files;
          bytes += delta.bytes;
          options.onProgress?.({ done, total, bytes });
        },
      },
    ),
    // Listed in a worker too: the walk is synchronous there, and checks the destination is no link.
    pool.list(root, { exclude: [...listing.exclude], expectedDirs: [...listing.expectedDirs] }, { signal: options.signal }),
  ]);
  hashed.forEach((outcome, i) => (outcomes[hashable[i]!.index] = outcome));
  return summarize(
    outputs.map((output, index) => judge(output, outcomes[index]!)),
    extra,
  );
}

export interface VerifyTarget {
  /** The destination bundle path. */
  path: string;
  /** Its validated state (a managed destination). */
  state: State;
}

export interface VerifyWorkspaceOptions extends VerifyOptions {
  /** Destinations verified at once; their files share the pool's batches. */
  concurrency?: number;
  /** Each report as it is finished, with the index of its target. */
  onResult?: (index: number, report: VerifyReport) => void;
}

/** Verifies many destinations through one pool; reports in target order. Rejects with the signal's reason on abort. */
export async function verifyWorkspace(targets: VerifyTarget[], options: VerifyWorkspaceOptions = {}): Promise<VerifyReport[]> {
  const pool = options.pool ?? new HashPool();
  const total = targets.reduce((sum, target) => sum + target.state.outputs.length, 0);
  const doneOf = new Array<number>(targets.length).fill(0);
  const bytesOf = new Array<number>(targets.length).fill(0);
  let done = 0;
  let bytes = 0;
  const reports = new Array<VerifyReport>(targets.length);
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      options.signal?.throwIfAborted();
      const index = next++;
      const target = targets[index]!;
      reports[index] = await verifyWithPool(path.resolve(target.path), target.state, pool, {
        signal: options.signal,
        onProgress: (progress) => {
          done += progress.done - doneOf[index]!;
          bytes += progress.bytes - bytesOf[index]!;
          doneOf[index] = progress.done;
          bytesOf[index] = progress.bytes;
          options.onProgress?.({ done, total, bytes });
        },
      });
      options.onResult?.(index, reports[index]);
    }
  };
  try {
    options.onProgress?.({ done: 0, total, bytes: 0 });
    const lanes = Math.max(1, Math.min(options.concurrency ?? 64, targets.length));
    await Promise.all(Array.from({ length: lanes }, worker));
    return reports;
  } finally {
    if (!options.pool) await pool.close();
  }
}
