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

/** The fields of a signature as a worker compares them, five numbers an entry (see signatureNumbers). */
export const SIGNATURE_NUMBERS = 5;

/** What non-bigint lstat gives: doubles, mtimeMs and ctimeMs computed as Node does from the kernel's seconds and nanoseconds. */
export interface NumericStats {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

const NS_PER_S = 1_000_000_000n;

/**
 * A time in ns as Node's non-bigint lstat gives it in ms (`sec * 1e3 + nsec / 1e6`, the same double
 * operations on the same operands, so an unchanged file yields the same double bit for bit).
 */
export function msOfNs(ns: bigint): number {
  const sec = ns / NS_PER_S;
  return Number(sec) * 1e3 + Number(ns - sec * NS_PER_S) / 1e6;
}

/**
 * Writes a signature's five fields into `into` at `at`, in the precision a non-bigint lstat has
 * (dev, ino, size, mtimeMs, ctimeMs); false when a field does not fit a double exactly (a device or
 * inode number or a size above 2^53, a time before 1970 or past 2^53 s): such an entry is not
 * vouched for by stats, its destination takes the full verify. Why the times' lost nanoseconds do not
 * matter: only a settled entry is compared (isSettled: its timestamps older than its read by the
 * 2 s margin), and any write after the read moves ctime (which no program can set) to a moment after
 * the read, more than 2 s later, where a double's resolution is ~0.25 µs (2 µs until the year 2500).
 */
export function writeSignatureNumbers(signature: StatSignature, into: Float64Array, at: number): boolean {
  const parts = signature.split(':');
  if (parts.length !== SIGNATURE_NUMBERS) return false;
  for (let i = 0; i < 3; i += 1) {
    const value = Number(parts[i]);
    if (!Number.isSafeInteger(value) || value < 0) return false;
    into[at + i] = value;
  }
  for (let i = 3; i < SIGNATURE_NUMBERS; i += 1) {
    const ns = BigInt(parts[i]!);
    if (ns < 0n || ns / NS_PER_S > BigInt(Number.MAX_SAFE_INTEGER)) return false;
    into[at + i] = msOfNs(ns);
  }
  return true;
}

/** Whether a regular file's non-bigint lstat matches the numbers writeSignatureNumbers wrote at `at`. */
export function sameNumbers(stats: NumericStats, expected: Float64Array, at: number): boolean {
  return (
    stats.ino === expected[at + 1] &&
    stats.mtimeMs === expected[at + 3] &&
    stats.ctimeMs === expected[at + 4] &&
    stats.size === expected[at + 2] &&
    stats.dev === expected[at]
  );
}

function partsOf(signature: StatSignature): { mtimeNs: bigint; ctimeNs: bigint } {
  const parts = signature.split(':');
  return { mtimeNs: BigInt(parts[3] ?? '0'), ctimeNs: BigInt(parts[4] ?? '0') };
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
