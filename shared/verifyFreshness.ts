// Whether a verify result still describes the disk: the one rule every view and helper asks (the
// destination list, the detail pane, live refresh, the health filters). A verify result belongs to
// the disk as it was when it was taken; it carries that time and a fingerprint of what it read, and
// turns stale for good (until the next verify) as soon as a re-read of the destination finds a
// different fingerprint, or a watcher says the destination changed after the verify began reading. Pure: the engine reads the disk
// and computes fingerprints; this module only compares them. Never turns a stale result fresh again.

// The shapes are zod schemas in verifyFreshnessSchema.ts; only their types are read here, so that the
// page's first screen, which asks this rule, does not evaluate zod.
import type { DestinationFingerprint, VerifyFreshness, VerifyStamp, WatchStaleReason } from './verifyFreshnessSchema';

export type { DestinationFingerprint, StaleReason, VerifyFreshness, VerifyStamp, WatchStaleReason } from './verifyFreshnessSchema';

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

/**
 * Whether two reads of a destination saw the same state file and the same listing: a row and a
 * report taken from reads that differ here describe two different destinations on disk.
 */
export function sameStateAndListing(
  one: { stateSha256?: string; listingDigest?: string },
  other: { stateSha256?: string; listingDigest?: string },
): boolean {
  return one.stateSha256 === other.stateSha256 && one.listingDigest === other.listingDigest;
}

/** A re-read's outputs part when the stat cache no longer holds what the verify hashed: never equal to a digest. */
export const OUTPUTS_UNKNOWN = 'unknown';

export const FRESH: VerifyFreshness = Object.freeze({ fresh: true }) as VerifyFreshness;

/** Something learned about a destination after it was verified. */
export type DestinationObservation =
  /** The destination was read again (a rescan, the re-read after an action): its fingerprint then. */
  | { kind: 'reread'; fingerprint: DestinationFingerprint; at: string }
  /**
   * A watcher saw the destination (its root, its state file, its staging folder) change; `reason` says
   * which watch (default changed_on_disk). `lastEventAt`: when it saw the last event of that change,
   * on the clock the stamp's `verifiedAt` was taken by (absent: not known).
   */
  | { kind: 'changed_on_disk'; at: string; reason?: WatchStaleReason; lastEventAt?: string };

/**
 * The rule. A result that is stale stays stale with its first reason and time. A watcher's change
 * turns a fresh result stale, unless the watcher saw all of it before the verify began reading (its
 * report can arrive after the result: the watcher waits for the burst to go quiet). A re-read keeps a
 * fresh result fresh only when both fingerprints are fully known and equal; any difference, or a
 * fact that either side could not read (no listing: the folder was missing or not a directory),
 * turns it stale: a result is only kept when the disk proves it unchanged. The outputs' signatures
 * are compared when both sides have them (the checks order: state, listing, outputs).
 */
export function nextVerifyFreshness(stamp: VerifyStamp, current: VerifyFreshness, observation: DestinationObservation): VerifyFreshness {
  if (!current.fresh) return current;
  if (observation.kind === 'changed_on_disk') {
    if (observation.lastEventAt !== undefined && seenBefore(observation.lastEventAt, stamp.verifiedAt)) return current;
    return { fresh: false, reason: observation.reason ?? 'changed_on_disk', since: observation.at };
  }
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

/**
 * Whether a watcher saw a change's last event before a verify began reading: a watcher sees an event
 * only after the write it reports, so that verify read the disk as the change left it. Strictly
 * before, in milliseconds: an event in the same millisecond as the verify's start may be of a write
 * after it. A time that does not parse proves nothing.
 */
function seenBefore(lastEventAt: string, verifiedAt: string): boolean {
  const seen = Date.parse(lastEventAt);
  const verified = Date.parse(verifiedAt);
  return Number.isFinite(seen) && Number.isFinite(verified) && seen < verified;
}

/** A verify result's health as the list shows and filters it: a stale one is neither intact nor drifted any more. */
export type VerifyHealth = 'intact' | 'drifted' | 'stale' | 'unverified';

export function verifyHealth(verified: { status: 'intact' | 'drifted'; freshness: VerifyFreshness } | undefined): VerifyHealth {
  if (!verified) return 'unverified';
  return verified.freshness.fresh ? verified.status : 'stale';
}
