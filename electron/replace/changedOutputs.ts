// Which recorded outputs a normal replace would delete were changed on disk since they were
// published: their bytes hashed in the HashPool's worker threads (engine/hashTask.ts), never on the
// main thread. Read-only; never follows a symbolic link (not even in a parent folder) and never opens
// what lstat did not show to be a regular file, so a FIFO cannot hang planning.

import { availableParallelism } from 'node:os';
import type { ChangedOnDisk } from '../../shared/plan';
import type { OutputRecord } from '../../shared/stateSchema';
import { HashPool, type HashOutcome } from '../engine/hashPool';

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

/**
 * Hashes the outputs under `root` in the pool (the session's, or one made for this call and closed
 * after), and says for each, in order, whether it changed.
 */
export async function changedOnDisk(
  root: string,
  outputs: readonly Pick<OutputRecord, 'path' | 'size' | 'sha256'>[],
  pool?: HashPool,
): Promise<(ChangedOnDisk | undefined)[]> {
  if (outputs.length === 0) return [];
  const own = pool ? undefined : new HashPool({ size: Math.min(availableParallelism(), outputs.length) });
  try {
    const outcomes = await (pool ?? own)!.hash(outputs.map((output) => ({ root, path: output.path, expectedSize: output.size })));
    return outputs.map((output, index) => changedOf(output, outcomes[index]!));
  } finally {
    await own?.close();
  }
}
