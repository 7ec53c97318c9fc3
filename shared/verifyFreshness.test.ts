import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FRESH,
  OUTPUTS_UNKNOWN,
  nextVerifyFreshness,
  verifyHealth,
  type DestinationFingerprint,
  type DestinationObservation,
  type VerifyFreshness,
  type VerifyStamp,
} from './verifyFreshness';
import { describeVerifyFreshness, verifiedAgo } from './verifyFreshnessWords';

const sha = (c: string) => `sha256:${c.repeat(64)}`;
const basis: DestinationFingerprint = { stateSha256: sha('a'), listing: 'l1' };
const stamp: VerifyStamp = { verifiedAt: '2026-12-03T17:00:00.000Z', basis };
const at = '2026-12-03T17:05:00.000Z';
const reread = (fingerprint: DestinationFingerprint): DestinationObservation => ({ kind: 'reread', fingerprint, at });

describe('whether a verify result still describes the disk', () => {
  it('stays fresh when a re-read finds the same state file and the same listing', () => {
    expect(nextVerifyFreshness(stamp, FRESH, reread({ ...basis }))).toEqual(FRESH);
  });

  it('turns stale when the listing changed though the state file did not (a file removed by hand)', () => {
    expect(nextVerifyFreshness(stamp, FRESH, reread({ ...basis, listing: 'l2' }))).toEqual({
      fresh: false,
      reason: 'listing_changed',
      since: at,
    });
  });

  it('turns stale when the state file is another one, or gone', () => {
    expect(nextVerifyFreshness(stamp, FRESH, reread({ ...basis, stateSha256: sha('b') }))).toMatchObject({ reason: 'state_changed' });
    expect(nextVerifyFreshness(stamp, FRESH, reread({ listing: 'l1' }))).toMatchObject({ reason: 'state_changed' });
  });

  it('turns stale when an output the verify hashed has another stat signature, or its record is gone', () => {
    const withOutputs: VerifyStamp = { ...stamp, basis: { ...basis, outputs: 'outputs:1' } };
    expect(nextVerifyFreshness(withOutputs, FRESH, reread({ ...basis, outputs: 'outputs:1' }))).toEqual(FRESH);
    expect(nextVerifyFreshness(withOutputs, FRESH, reread({ ...basis, outputs: 'outputs:2' }))).toEqual({
      fresh: false,
      reason: 'outputs_changed',
      since: at,
    });
    expect(nextVerifyFreshness(withOutputs, FRESH, reread({ ...basis, outputs: OUTPUTS_UNKNOWN }))).toMatchObject({
      reason: 'outputs_changed',
    });
    // The listing is named before the outputs.
    expect(nextVerifyFreshness(withOutputs, FRESH, reread({ ...basis, listing: 'l2', outputs: 'outputs:2' }))).toMatchObject({
      reason: 'listing_changed',
    });
  });

  it('judges the outputs only when both sides stat them (a host verify; a re-read with no result to prove)', () => {
    expect(nextVerifyFreshness(stamp, FRESH, reread({ ...basis, outputs: 'outputs:2' }))).toEqual(FRESH);
    const withOutputs: VerifyStamp = { ...stamp, basis: { ...basis, outputs: 'outputs:1' } };
    expect(nextVerifyFreshness(withOutputs, FRESH, reread({ ...basis }))).toEqual(FRESH);
  });

  it('names the state file first when both changed', () => {
    expect(nextVerifyFreshness(stamp, FRESH, reread({ stateSha256: sha('b'), listing: 'l2' }))).toMatchObject({ reason: 'state_changed' });
  });

  it('turns stale when the folder could not be listed on either side (nothing proves it unchanged)', () => {
    expect(nextVerifyFreshness(stamp, FRESH, reread({ stateSha256: sha('a') }))).toMatchObject({ reason: 'listing_changed' });
    const unlisted: VerifyStamp = { ...stamp, basis: { stateSha256: sha('a') } };
    expect(nextVerifyFreshness(unlisted, FRESH, reread({ stateSha256: sha('a') }))).toMatchObject({ reason: 'listing_changed' });
  });

  it('turns stale at once when a watcher saw the destination change', () => {
    expect(nextVerifyFreshness(stamp, FRESH, { kind: 'changed_on_disk', at })).toEqual({
      fresh: false,
      reason: 'changed_on_disk',
      since: at,
    });
  });

  it('stays fresh when the watcher saw the whole change before the verify began reading (its report came after the result)', () => {
    const change = { kind: 'changed_on_disk' as const, at: '2026-12-03T16:59:59.000Z', lastEventAt: '2026-12-03T16:59:59.999Z' };
    expect(nextVerifyFreshness(stamp, FRESH, change)).toBe(FRESH);
  });

  it('turns stale when the change’s last event was seen in the verify’s first millisecond or after, or at a time that does not parse', () => {
    const change = (lastEventAt: string) => ({ kind: 'changed_on_disk' as const, at: '2026-12-03T16:59:59.000Z', lastEventAt });
    for (const lastEventAt of [stamp.verifiedAt, '2026-12-03T17:00:00.001Z', 'soon'])
      expect(nextVerifyFreshness(stamp, FRESH, change(lastEventAt))).toEqual({
        fresh: false,
        reason: 'changed_on_disk',
        since: '2026-12-03T16:59:59.000Z',
      });
    expect(nextVerifyFreshness({ ...stamp, verifiedAt: 'not a time' }, FRESH, change('2026-12-03T16:00:00.000Z'))).toMatchObject({
      fresh: false,
    });
  });

  it('keeps a stale result stale with its first reason, even when the disk reads as before again', () => {
    const stale: VerifyFreshness = { fresh: false, reason: 'listing_changed', since: at };
    expect(nextVerifyFreshness(stamp, stale, reread({ ...basis }))).toBe(stale);
    expect(nextVerifyFreshness(stamp, stale, { kind: 'changed_on_disk', at: '2026-12-03T18:00:00Z' })).toBe(stale);
  });

  const fingerprint = fc.record(
    { stateSha256: fc.constantFrom(sha('a'), sha('b')), listing: fc.constantFrom('l1', 'l2') },
    { requiredKeys: [] },
  );
  /** A watcher's change whose last event was seen up to 3 ms either side of the verify's start, or at an unknown time. */
  const lastEventAt = fc.option(
    fc.integer({ min: -3, max: 3 }).map((offset) => new Date(Date.parse(stamp.verifiedAt) + offset).toISOString()),
    { nil: undefined },
  );
  const observation: fc.Arbitrary<DestinationObservation> = fc.oneof(
    fingerprint.map((f) => ({ kind: 'reread' as const, fingerprint: f, at })),
    lastEventAt.map((last) => ({ kind: 'changed_on_disk' as const, at, ...(last !== undefined ? { lastEventAt: last } : {}) })),
  );
  const seenBeforeVerify = (o: DestinationObservation) =>
    o.kind === 'changed_on_disk' && o.lastEventAt !== undefined && Date.parse(o.lastEventAt) < Date.parse(stamp.verifiedAt);

  it('is fresh after any sequence of observations exactly when each was a re-read with the fingerprint it was taken with, or a change seen before it', () => {
    fc.assert(
      fc.property(fingerprint, fc.array(observation, { maxLength: 6 }), (taken, observations) => {
        const s: VerifyStamp = { verifiedAt: stamp.verifiedAt, basis: taken };
        const end = observations.reduce((freshness, o) => nextVerifyFreshness(s, freshness, o), FRESH);
        const complete = taken.stateSha256 !== undefined && taken.listing !== undefined;
        const rereads = observations.filter((o) => !seenBeforeVerify(o));
        const unchanged = rereads.every(
          (o) => o.kind === 'reread' && o.fingerprint.stateSha256 === taken.stateSha256 && o.fingerprint.listing === taken.listing,
        );
        expect(end.fresh).toBe(rereads.length === 0 || (complete && unchanged));
      }),
    );
  });

  it('never shows a stale result as intact or drifted', () => {
    expect(verifyHealth(undefined)).toBe('unverified');
    expect(verifyHealth({ status: 'intact', freshness: FRESH })).toBe('intact');
    expect(verifyHealth({ status: 'drifted', freshness: FRESH })).toBe('drifted');
    expect(verifyHealth({ status: 'intact', freshness: { fresh: false, reason: 'state_changed', since: at } })).toBe('stale');
  });
});

describe('the words of a verify result', () => {
  const now = Date.parse('2026-12-03T17:02:30Z');
  it('says how long ago it was taken, coarsely', () => {
    expect(verifiedAgo('2026-12-03T17:02:10Z', now)).toBe('verified just now');
    expect(verifiedAgo('2026-12-03T17:02:40Z', now)).toBe('verified just now');
    expect(verifiedAgo('2026-12-03T17:00:00Z', now)).toBe('verified 2 min ago');
    expect(verifiedAgo('2026-12-03T14:00:00Z', now)).toBe('verified 3 h ago');
    expect(verifiedAgo('2026-12-01T17:00:00Z', now)).toBe('verified 2 days ago');
    expect(verifiedAgo('not a time', now)).toBe('verified at an unknown time');
  });

  it('says a stale result was what it was, why it is stale, and to verify again', () => {
    expect(describeVerifyFreshness('intact', '2026-12-03T17:00:00Z', FRESH, now)).toBe('intact, verified 2 min ago');
    expect(describeVerifyFreshness('intact', '2026-12-03T17:00:00Z', { fresh: false, reason: 'listing_changed', since: at }, now)).toBe(
      'was intact, verified 2 min ago; files in the destination changed since: stale — verify again',
    );
  });
});
