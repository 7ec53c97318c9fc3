// The verify stat cache (git's index, for verify): per verified output, the stat signature it had when
// its bytes were hashed and the sha256 read then; per destination, its state file's signature when it
// was read and what its validation found. A later verify re-hashes only an output whose signature
// changed, and re-reads only a state file whose signature changed, or whose timestamps are too close to
// the moment of the read to prove it was not written again within the same clock tick ("racily
// clean"). The file format and the rules are here, pure; electron/engine/statCache.ts reads and writes
// it. Never trusted: a file that does not parse, of another format, or written on another machine or
// before the last boot (device numbers may differ), is dropped.

import { z } from 'zod';
import { isCleanRelativePath } from './cleanPath';
import { issueSchema } from './issueSchema';

/** @2 added the state file (`state`); a file of any other format is discarded whole. */
export const STAT_CACHE_FORMAT = 'distributor-inspector/verify-stat-cache@2';

const signaturePattern = /^\d+:\d+:\d+:\d+:\d+$/;

/** One output as it was hashed: [signature, sha256 read, when the read began (ns since the epoch, wall clock)]. */
export const cachedOutputSchema = z.tuple([
  z.string().regex(signaturePattern),
  z.string().regex(/^sha256:[0-9a-f]{64}$/),
  z.string().regex(/^\d+$/),
]);
export type CachedOutput = z.infer<typeof cachedOutputSchema>;

/**
 * A managed state file as a verify read it: `file` its signature, the sha256 of its bytes and when the
 * read began (the same tuple as an output's); then what a re-verify needs of its validation: the
 * issues it raised (warnings only: it was managed), the ids the list shows, and each output's record
 * in the state's order (path, size, sha256). Only a state that validated as managed is kept.
 */
export const cachedStateSchema = z.object({
  file: cachedOutputSchema,
  issues: z.array(issueSchema.refine((issue) => issue.severity === 'warning')),
  pipeline_id: z.string().optional(),
  destination_id: z.string().optional(),
  published_at: z.string().optional(),
  outputs: z.array(
    z.tuple([z.string().refine(isCleanRelativePath), z.number().int().nonnegative(), z.string().regex(/^sha256:[0-9a-f]{64}$/)]),
  ),
});
export type CachedState = z.infer<typeof cachedStateSchema>;

/** A destination's outputs by their relative path, its state file, and when the destination was last verified (ms), for eviction. */
export const cachedDestinationSchema = z.object({
  usedAt: z.number(),
  outputs: z.record(z.string(), cachedOutputSchema),
  state: cachedStateSchema.optional(),
});
export type CachedDestination = z.infer<typeof cachedDestinationSchema>;

export const statCacheFileSchema = z.object({
  format: z.literal(STAT_CACHE_FORMAT),
  /** The machine and the boot it was written in: device numbers mean nothing elsewhere. */
  machine: z.string().min(1),
  boot: z.string().min(1),
  /** By the destination's absolute path. */
  destinations: z.record(z.string(), cachedDestinationSchema),
});
export type StatCacheFile = z.infer<typeof statCacheFileSchema>;

/** The bound: at most this many entries in all, outputs and state records (~45 MB of JSON); the destinations verified longest ago go first. */
export const STAT_CACHE_MAX_ENTRIES = 300_000;

/** The destinations kept under the bound, the most recently verified first kept. */
export function boundedDestinations(
  destinations: Record<string, CachedDestination>,
  maxEntries: number = STAT_CACHE_MAX_ENTRIES,
): Record<string, CachedDestination> {
  const byRecency = Object.entries(destinations).sort((a, b) => b[1].usedAt - a[1].usedAt);
  const kept: Record<string, CachedDestination> = {};
  let entries = 0;
  for (const [root, destination] of byRecency) {
    const count = Object.keys(destination.outputs).length + (destination.state?.outputs.length ?? 0);
    if (entries + count > maxEntries) continue;
    entries += count;
    kept[root] = destination;
  }
  return kept;
}
