import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Comparison } from './compare';
import { comparisonWordsSchema, describeComparison, refusalMessage } from './comparisonWords';
import { interruptedStagingOf, normalReplaceVerdict, normalReplaceVerdictSchema, type ReplaceFacts } from './replaceVerdict';

const STAGING = '.distributor-staging';

const comparisonArbitrary: fc.Arbitrary<Comparison> = fc.oneof(
  fc.constant<Comparison>({ decision: 'publish', rule: 1 }),
  fc.constant<Comparison>({ decision: 'unmanaged', rule: 2 }),
  fc.constant<Comparison>({ decision: 'conflict', reason: 'invalid_state', rule: 3 }),
  fc.record({
    decision: fc.constant('conflict' as const),
    reason: fc.constant('identity_mismatch' as const),
    rule: fc.constant(4),
    mismatches: fc.array(
      fc.record({
        field: fc.constantFrom('pipeline_id' as const, 'destination_id' as const, 'source.manifest.id' as const),
        expected: fc.string(),
        actual: fc.string(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
  fc.constant<Comparison>({ decision: 'skip', rule: 5 }),
  fc.constant<Comparison>({ decision: 'replace', rule: 6 }),
  fc.constant<Comparison>({ decision: 'skip_newer', rule: 7 }),
  fc.constant<Comparison>({ decision: 'conflict', reason: 'digest_mismatch', rule: 8 }),
  fc.constant<Comparison>({ decision: 'conflict', reason: 'manifest_mismatch', rule: 9 }),
);

const factsArbitrary = fc.record({
  comparison: comparisonArbitrary,
  replaceAllowed: fc.option(fc.boolean(), { nil: undefined }),
  interruptedStaging: fc.option(
    fc.oneof(
      fc.constant(STAGING),
      fc.string({ minLength: 1 }).map((suffix) => `${STAGING}-${suffix}`),
    ),
    { nil: undefined },
  ),
});

/** The contract's rule written out by hand, independent of the code under test. */
function referenceAllowed({ comparison, replaceAllowed, interruptedStaging }: ReplaceFacts): boolean {
  if (interruptedStaging !== undefined) return false;
  if (comparison.decision === 'publish') return true;
  return comparison.decision === 'replace' && replaceAllowed !== false;
}

describe('the one rule of a normal replace', () => {
  it('gives Compare and the planner the same answer for any comparison, policy and staging folder', () => {
    fc.assert(
      fc.property(factsArbitrary, (facts) => {
        const words = describeComparison(facts.comparison, facts);
        const verdict = normalReplaceVerdict(facts);
        // Compare shows words.normalReplaceAllowed; planReplace applies only on an `allowed` verdict.
        expect(words.normalReplaceAllowed).toBe(verdict.outcome === 'allowed');
        expect(words.normalReplaceAllowed).toBe(referenceAllowed(facts));
        expect(normalReplaceVerdictSchema.parse(verdict)).toEqual(verdict);
        expect(comparisonWordsSchema.parse(words)).toEqual(words);
      }),
    );
  });

  it('never words a refused replace as allowed, and refuses with the words Compare shows', () => {
    fc.assert(
      fc.property(factsArbitrary, (facts) => {
        const words = describeComparison(facts.comparison, facts);
        const verdict = normalReplaceVerdict(facts);
        if (verdict.outcome === 'allowed') return;
        expect(words.sentence).not.toMatch(/replace is allowed/);
        if (verdict.outcome === 'refused') {
          const message = refusalMessage(words);
          expect(message.startsWith(words.sentence)).toBe(true);
          expect(message).toContain('A normal replace is refused.');
          if (words.next) expect(message.endsWith(words.next)).toBe(true);
        }
      }),
    );
  });

  it('puts an interrupted replace first, whatever the manifests decide, and names its folder', () => {
    fc.assert(
      fc.property(comparisonArbitrary, fc.boolean(), (comparison, replaceAllowed) => {
        const folder = `${STAGING}-1a2b3c4d`;
        const verdict = normalReplaceVerdict({ comparison, replaceAllowed, interruptedStaging: folder });
        expect(verdict).toEqual({ outcome: 'refused', code: 'interrupted', details: { path: folder } });
        const words = describeComparison(comparison, { replaceAllowed, interruptedStaging: folder, destinationPath: '/srv/www/docs' });
        expect(words.title).toBe('Interrupted replace');
        expect(words.sentence).toContain(`(${folder})`);
        expect(words.sentence).toContain(`Behind it, the comparison says: ${describeComparison(comparison, { replaceAllowed }).title}.`);
        expect(words.next).toContain('distributor-inspector discard-staging /srv/www/docs');
        expect(['warning', 'danger']).toContain(words.tone);
      }),
    );
  });

  it('refuses with the codes the planner always used: policy, conflict reason, unmanaged', () => {
    expect(normalReplaceVerdict({ comparison: { decision: 'replace', rule: 6 }, replaceAllowed: false })).toEqual({
      outcome: 'refused',
      code: 'policy_denies_replace',
      details: { decision: 'replace' },
    });
    expect(normalReplaceVerdict({ comparison: { decision: 'conflict', reason: 'digest_mismatch', rule: 8 } })).toEqual({
      outcome: 'refused',
      code: 'conflict_digest_mismatch',
      details: { decision: 'conflict', reason: 'digest_mismatch' },
    });
    expect(normalReplaceVerdict({ comparison: { decision: 'unmanaged', rule: 2 } })).toMatchObject({ code: 'unmanaged' });
    expect(normalReplaceVerdict({ comparison: { decision: 'skip', rule: 5 } })).toEqual({ outcome: 'nothing' });
    expect(normalReplaceVerdict({ comparison: { decision: 'skip_newer', rule: 7 }, replaceAllowed: false })).toEqual({
      outcome: 'nothing',
    });
    expect(normalReplaceVerdict({ comparison: { decision: 'publish', rule: 1 }, replaceAllowed: false })).toEqual({ outcome: 'allowed' });
  });

  it('takes the staging folder from the first interrupted issue of an inspection, and none without one', () => {
    const issue = (code: string, path: string[]) => ({ code, path, message: '', severity: 'error' });
    expect(interruptedStagingOf([])).toBeUndefined();
    expect(interruptedStagingOf([issue('state_invalid', ['outputs'])])).toBeUndefined();
    expect(interruptedStagingOf([issue('state_invalid', ['x']), issue('interrupted', [STAGING]), issue('interrupted', ['other'])])).toBe(
      STAGING,
    );
  });
});
