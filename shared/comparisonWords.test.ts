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
});
