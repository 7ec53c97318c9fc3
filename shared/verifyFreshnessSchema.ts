// The shapes a verify result's freshness is judged by, as zod schemas (shared/verifyFreshness.ts holds
// the rule, and re-exports their types): the fingerprint a read proves, a verify's stamp, why a result
// turned stale. Apart from the rule so that the page's first screen, which judges freshness, does not
// evaluate zod.

import { z } from 'zod';

/**
 * What a read of a destination proves about it, cheaply, without hashing an output: the sha256 of
 * the state file's bytes (absent when there is none or it cannot be read) and a digest of the
 * destination folder's own listing (its entry names and the folder's modification time; absent when
 * the folder is missing or is not a directory). A removed, added or renamed top-level entry, an
 * editor's save-by-rename, a staging folder left by an interrupted replace and a new state file all
 * change it. An edit in place inside a file, or anything below a subfolder, does not: only a new
 * verify (or a watcher's event) sees those.
 */
export const destinationFingerprintSchema = z.object({
  stateSha256: z.string().optional(),
  listing: z.string().optional(),
  /**
   * A digest of the lstat signatures (shared/verifyFreshnessStat.ts) of the outputs a verify hashed:
   * in a verify's basis, as the stat cache recorded them; in a re-read, as lstat sees them now (or
   * OUTPUTS_UNKNOWN when the cache no longer holds them). Absent where nobody stat'ed them (a host's
   * verify, a re-read that had no result to prove): the part is then not judged.
   */
  outputs: z.string().optional(),
});
export type DestinationFingerprint = z.infer<typeof destinationFingerprintSchema>;

/** When a verify was taken (RFC 3339, UTC, the engine's clock) and the fingerprint read just before it hashed. */
export const verifyStampSchema = z.object({
  verifiedAt: z.string(),
  basis: destinationFingerprintSchema,
});
export type VerifyStamp = z.infer<typeof verifyStampSchema>;

/** Why a verify result no longer describes the disk; the first that applies is named. */
export const staleReasonSchema = z.enum([
  /** The state file is another one (replaced, edited, removed, or a new one appeared). */
  'state_changed',
  /** The destination's top-level listing changed (a file removed, added, renamed; a staging folder). */
  'listing_changed',
  /** A watcher saw a change on disk before any re-read could compare. */
  'changed_on_disk',
  /** A host's agent saw a change on that host's disk (its watch, shared/hostWatch.ts). */
  'changed_on_host',
  /** The host's watch could not vouch for its disk for a while (the connection lost, the watch failed): a change may have gone unseen. */
  'host_unwatched',
  /** An output the verify hashed has another lstat signature now (edited, replaced, removed), or its record is gone. */
  'outputs_changed',
]);
export type StaleReason = z.infer<typeof staleReasonSchema>;

/** The reasons a watch gives, before any re-read: this machine's, a host's agent's, or a host's watch lost. */
export const watchStaleReasonSchema = staleReasonSchema.extract(['changed_on_disk', 'changed_on_host', 'host_unwatched']);
export type WatchStaleReason = z.infer<typeof watchStaleReasonSchema>;

export const verifyFreshnessSchema = z.discriminatedUnion('fresh', [
  z.object({ fresh: z.literal(true) }),
  z.object({
    fresh: z.literal(false),
    reason: staleReasonSchema,
    /** When it turned stale (the re-read's or the event's time). */
    since: z.string(),
  }),
]);
export type VerifyFreshness = z.infer<typeof verifyFreshnessSchema>;
