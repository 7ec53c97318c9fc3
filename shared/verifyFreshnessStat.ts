// The verify stat cache's two rules, without zod (they run in every hash worker, whose bundle must
// stay small): an output's stat signature, and whether a hash recorded at a signature may stand for
// the file now (git's "racily clean" rule). The file format is in verifyFreshnessCache.ts. Pure.

import type { CachedOutput } from './verifyFreshnessCache';

/**
 * What lstat says of a regular file, in one string: `dev:ino:size:mtimeNs:ctimeNs` (bigint lstat,
 * nanoseconds). ctime cannot be set back by a program (touch -d, a copy keeping times): an edit that
 * restores the old size and mtime still changes it.
 */
export type StatSignature = string;

export function statSignature(stats: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): StatSignature {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/**
 * A file's timestamp this close to (or after) the start of its hash may belong to a write in the same
 * tick, after the read: the kernel stamps files from a coarse clock (a few ms behind the wall clock),
 * FAT and some network file systems to 2 s. Such an output is hashed again until it is older.
 */
export const RACY_MARGIN_NS = 2_000_000_000n;

function partsOf(signature: StatSignature): { mtimeNs: bigint; ctimeNs: bigint } {
  const parts = signature.split(':');
  return { mtimeNs: BigInt(parts[3] ?? '0'), ctimeNs: BigInt(parts[4] ?? '0') };
}

/** The size a signature records (its third field); without a split, for a re-verify's every output. */
export function sizeOfSignature(signature: StatSignature): number {
  const afterInode = signature.indexOf(':', signature.indexOf(':') + 1) + 1;
  return Number(signature.slice(afterInode, signature.indexOf(':', afterInode)));
}

/**
 * Whether what was read at an entry's signature (a hash, a state file's validation) may stand for the
 * file whenever it still has that signature: its timestamps older than the start of the read by the
 * margin, so no write in the same tick after the read can hide behind them.
 */
export function isSettled(cached: CachedOutput): boolean {
  const [signature, , readAtNs] = cached;
  const { mtimeNs, ctimeNs } = partsOf(signature);
  const newest = mtimeNs > ctimeNs ? mtimeNs : ctimeNs;
  return newest + RACY_MARGIN_NS < BigInt(readAtNs);
}

/** Whether a cached hash may stand for the file now: the same signature, and the signature older than the hash by the margin. */
export function mayReuse(cached: CachedOutput, now: StatSignature): boolean {
  return cached[0] === now && isSettled(cached);
}
