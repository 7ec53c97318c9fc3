import { describe, expect, it } from 'vitest';
import type { Comparison } from './compare';
import { comparisonWordsSchema, describeComparison } from './comparisonWords';

const every: Comparison[] = [
  { decision: 'publish', rule: 1 },
  { decision: 'unmanaged', rule: 2 },
  { decision: 'conflict', reason: 'invalid_state', rule: 3 },
  {
    decision: 'conflict',
    reason: 'identity_mismatch',
    rule: 4,
    mismatches: [{ field: 'pipeline_id', expected: 'reports', actual: 'other' }],
  },
  { decision: 'skip', rule: 5 },
  { decision: 'replace', rule: 6 },
  { decision: 'skip_newer', rule: 7 },
  { decision: 'conflict', reason: 'digest_mismatch', rule: 8 },
  { decision: 'conflict', reason: 'manifest_mismatch', rule: 9 },
];

describe('the one wording of a comparison', () => {
  it('allows a normal replace only for publish, and for replace when the policy allows it', () => {
    const allowed = (comparison: Comparison, replaceAllowed?: boolean) =>
      describeComparison(comparison, { replaceAllowed }).normalReplaceAllowed;
    expect(every.filter((comparison) => allowed(comparison)).map((comparison) => comparison.decision)).toEqual(['publish', 'replace']);
    expect(allowed({ decision: 'replace', rule: 6 }, false)).toBe(false);
    expect(allowed({ decision: 'publish', rule: 1 }, false)).toBe(true);
  });

  it('says why in words a newcomer reads, naming the mismatched ids', () => {
    expect(describeComparison({ decision: 'replace', rule: 6 }).sentence).toBe(
      'The destination holds an older publication of the same source: replace is allowed.',
    );
    expect(describeComparison({ decision: 'replace', rule: 6 }, { replaceAllowed: false }).sentence).toContain('policy');
    const identity = describeComparison({
      decision: 'conflict',
      reason: 'identity_mismatch',
      rule: 4,
      mismatches: [{ field: 'destination_id', expected: 'docs-mirror', actual: 'docs-eu' }],
    });
    expect(identity.sentence).toContain('its destination id is "docs-eu", expected "docs-mirror"');
    expect(identity.tone).toBe('danger');
    expect(describeComparison({ decision: 'conflict', reason: 'digest_mismatch', rule: 8 }).title).toBe('Conflict: digest mismatch');
  });

  it('gives every decision a distinct title and sentence, a next step unless there is nothing to do, and fits its schema', () => {
    const words = every.map((comparison) => describeComparison(comparison));
    for (const entry of words) expect(comparisonWordsSchema.parse(entry)).toEqual(entry);
    expect(new Set(words.map((entry) => entry.title)).size).toBe(every.length);
    expect(new Set(words.map((entry) => entry.sentence)).size).toBe(every.length);
    expect(words.filter((entry) => entry.next === undefined).map((entry) => entry.title)).toEqual(['Up to date']);
  });

  it('calls a matching manifest up to date only when its verified outputs all match, and says so', () => {
    const skip: Comparison = { decision: 'skip', rule: 5 };
    const intact = describeComparison(skip, { drift: { verifiedCount: 4, drifted: [], extras: ['notes.txt'] } });
    expect(intact).toMatchObject({ title: 'Up to date', tone: 'good', normalReplaceAllowed: false });
    expect(intact.sentence).toBe(
      'The destination already holds exactly this source manifest, and all 4 outputs match what the state records: nothing to do.',
    );
  });

  it('never says up to date over drifted outputs: names each with its problem, Repair, and what a forced replace deletes', () => {
    const words = describeComparison(
      { decision: 'skip', rule: 5 },
      {
        destinationPath: '/srv/docs eu',
        drift: {
          verifiedCount: 4,
          drifted: [
            { path: 'index.html', status: 'missing' },
            { path: 'app.js', status: 'hash_mismatch' },
            { path: 'logo.png', status: 'size_mismatch' },
            { path: 'guide', status: 'not_a_file' },
          ],
          extras: ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'empty/'],
        },
      },
    );
    expect(comparisonWordsSchema.parse(words)).toEqual(words);
    expect(words).toMatchObject({ title: 'Manifest matches, outputs drifted', tone: 'warning', normalReplaceAllowed: false });
    expect(`${words.title} ${words.sentence} ${words.next}`).not.toMatch(/up to date|nothing to do/i);
    expect(words.sentence).toBe(
      'The destination records exactly this source manifest, but 4 of 4 outputs differ from what the state records: index.html (missing), app.js (hash_mismatch), logo.png (size_mismatch) and guide (not_a_file).',
    );
    expect(words.next).toBe(
      "Repair restores them (Actions → Repair, or distributor-inspector repair '/srv/docs eu'): it rewrites only those 4 outputs from the source and keeps the 5 extra files. " +
        'A forced replace restores them too, but deletes everything in the folder first: the state file, the 3 recorded outputs still there, and the 5 files no state records (a.txt, b.txt, c.txt and 2 more).',
    );
  });

  it('words one drifted output in the singular, and names at most five before counting the rest', () => {
    const one = describeComparison(
      { decision: 'skip', rule: 5 },
      { drift: { verifiedCount: 1, drifted: [{ path: 'x', status: 'hash_mismatch' }], extras: [] } },
    );
    expect(one.sentence).toContain('1 of 1 output differs from what the state records: x (hash_mismatch).');
    expect(one.next).toContain('distributor-inspector repair DEST): it rewrites only that output from the source. ');
    expect(one.next).toContain('the state file, the 1 recorded output still there.');
    const many = describeComparison(
      { decision: 'skip', rule: 5 },
      {
        drift: {
          verifiedCount: 7,
          drifted: Array.from({ length: 7 }, (_, i) => ({ path: `f${i}`, status: 'missing' as const })),
          extras: [],
        },
      },
    );
    expect(many.sentence).toContain('f4 (missing) and 2 more.');
  });
});
