// Whether a verify result still describes the disk: the one rule every view and helper asks (the
// destination list, the detail pane, live refresh, the health filters). A verify result belongs to
// the disk as it was when it was taken; it carries that time and a fingerprint of what it read, and
// turns stale for good (until the next verify) as soon as a re-read of the destination finds a
// different fingerprint, or a watcher says the destination changed. Pure: the engine reads the disk
// and computes fingerprints; this module only compares them. Never turns a stale result fresh again.

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

/** The fingerprint an inspection carries (its state file's sha256, its listing digest): what a re-read is compared by. */
export function fingerprintOf(inspection: {
  stateSha256?: string;
  listingDigest?: string;
  outputsDigest?: string;
}): DestinationFingerprint {
  const fingerprint: DestinationFingerprint = {};
  if (inspection.stateSha256 !== undefined) fingerprint.stateSha256 = inspection.stateSha256;
  if (inspection.listingDigest !== undefined) fingerprint.listing = inspection.listingDigest;
  if (inspection.outputsDigest !== undefined) fingerprint.outputs = inspection.outputsDigest;
  return fingerprint;
}

/** A re-read's outputs part when the stat cache no longer holds what the verify hashed: never equal to a digest. */
export const OUTPUTS_UNKNOWN = 'unknown';

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

export const FRESH: VerifyFreshness = Object.freeze({ fresh: true }) as VerifyFreshness;

/** Something learned about a destination after it was verified. */
export type DestinationObservation =
  /** The destination was read again (a rescan, the re-read after an action): its fingerprint then. */
  | { kind: 'reread'; fingerprint: DestinationFingerprint; at: string }
  /** A watcher saw the destination (its root, its state file, its staging folder) change; `reason` says which watch (default changed_on_disk). */
  | { kind: 'changed_on_disk'; at: string; reason?: WatchStaleReason };

/**
 * The rule. A result that is stale stays stale with its first reason and time. A re-read keeps a
 * fresh result fresh only when both fingerprints are fully known and equal; any difference, or a
 * fact that either side could not read (no listing: the folder was missing or not a directory),
 * turns it stale: a result is only kept when the disk proves it unchanged. The outputs' signatures
 * are compared when both sides have them (the checks order: state, listing, outputs).
 */
export function nextVerifyFreshness(stamp: VerifyStamp, current: VerifyFreshness, observation: DestinationObservation): VerifyFreshness {
  if (!current.fresh) return current;
  if (observation.kind === 'changed_on_disk')
    return { fresh: false, reason: observation.reason ?? 'changed_on_disk', since: observation.at };
  const before = stamp.basis;
  const now = observation.fingerprint;
  if (before.stateSha256 !== now.stateSha256 || before.stateSha256 === undefined) {
    return { fresh: false, reason: 'state_changed', since: observation.at };
  }
  if (before.listing === undefined || now.listing === undefined || before.listing !== now.listing) {
    return { fresh: false, reason: 'listing_changed', since: observation.at };
  }
  // Judged only when both sides stat'ed the outputs: a re-read that did not (a source bundle's refresh)
  // proves nothing either way, and a Rescan always does for a result whose basis has the part.
  if (before.outputs !== undefined && now.outputs !== undefined && before.outputs !== now.outputs) {
    return { fresh: false, reason: 'outputs_changed', since: observation.at };
  }
  return current;
}

/** A verify result's health as the list shows and filters it: a stale one is neither intact nor drifted any more. */
export type VerifyHealth = 'intact' | 'drifted' | 'stale' | 'unverified';

export function verifyHealth(verified: { status: 'intact' | 'drifted'; freshness: VerifyFreshness } | undefined): VerifyHealth {
  if (!verified) return 'unverified';
  return verified.freshness.fresh ? verified.status : 'stale';
}
