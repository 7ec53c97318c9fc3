// One listed output hashed through the verify stat cache (shared/verifyFreshnessCache.ts), in a
// worker: its lstat signature compared with the one recorded when it was last hashed; the same (and
// not racily clean) reuses that hash, anything else reads the bytes again and records what was read.
// Never follows a link (the open refuses one), never writes.

import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { CachedOutput } from '../../shared/verifyFreshnessCache';
import { mayReuse, statSignature } from '../../shared/verifyFreshnessStat';
import { hashListedFile, type Hasher, type HashOutcome, type HashResult, type HashTask } from './hashTask';

export interface HashCache {
  /** What the cache knew of this destination's outputs, by path. */
  known?: Record<string, CachedOutput>;
  /** What this verify saw: every output hashed or reused, by path (what the cache keeps next). */
  seen: Record<string, CachedOutput>;
  /** Outputs whose bytes were read. */
  hashed: number;
  /** The wall clock in ns (tests stand a fake one in). */
  nowNs?: () => bigint;
}

/** With `readAhead`, a big file read again is a promise (hashTask.ts), recorded once it is hashed. */
export function hashThroughCache(task: HashTask, hasher: Hasher, cache: HashCache): HashOutcome;
export function hashThroughCache(task: HashTask, hasher: Hasher, cache: HashCache, readAhead: boolean): HashResult;
export function hashThroughCache(task: HashTask, hasher: Hasher, cache: HashCache, readAhead = false): HashResult {
  // Taken before the lstat: a write after it has a timestamp the racy rule does not trust.
  const startedNs = cache.nowNs ? cache.nowNs() : BigInt(Date.now()) * 1_000_000n;
  const stats = lstatSync(path.join(task.root, task.path), { bigint: true, throwIfNoEntry: false });
  const signature = stats?.isFile() ? statSignature(stats) : undefined;
  const cached = signature !== undefined && cache.known && Object.hasOwn(cache.known, task.path) ? cache.known[task.path] : undefined;
  if (stats && signature !== undefined && cached && mayReuse(cached, signature)) {
    cache.seen[task.path] = cached;
    return { kind: 'file', size: Number(stats.size), sha256: cached[1] };
  }
  const record = (outcome: HashOutcome): HashOutcome => {
    if (outcome.kind === 'file' && outcome.sha256 !== undefined) {
      cache.hashed += 1;
      if (signature !== undefined) cache.seen[task.path] = [signature, outcome.sha256, String(startedNs)];
    }
    return outcome;
  };
  const outcome = hashListedFile(task, hasher, readAhead);
  return outcome instanceof Promise ? outcome.then(record) : record(outcome);
}
