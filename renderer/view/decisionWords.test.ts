import { describe, expect, it } from 'vitest';
import { describeDecision } from './decisionWords';

describe('the decision in plain words', () => {
  it('allows a normal replace only for publish, and for replace when the policy allows it', () => {
    const allowed = (decision: Parameters<typeof describeDecision>[0], policy?: boolean) =>
      describeDecision(decision, policy).normalReplaceAllowed;
    expect(allowed({ decision: 'publish', rule: 1 })).toBe(true);
    expect(allowed({ decision: 'replace', rule: 6 })).toBe(true);
    expect(allowed({ decision: 'replace', rule: 6 }, false)).toBe(false);
    for (const decision of ['unmanaged', 'skip', 'skip_newer'] as const) expect(allowed({ decision, rule: 2 })).toBe(false);
    for (const reason of ['invalid_state', 'identity_mismatch', 'digest_mismatch', 'manifest_mismatch'] as const)
      expect(allowed({ decision: 'conflict', reason, rule: 3 })).toBe(false);
  });

  it('says why in words a newcomer reads, naming the mismatched ids', () => {
    expect(describeDecision({ decision: 'replace', rule: 6 }).sentence).toBe(
      'The destination holds an older publication of the same source: replace is allowed.',
    );
    expect(describeDecision({ decision: 'replace', rule: 6 }, false).sentence).toContain('policy');
    const identity = describeDecision({
      decision: 'conflict',
      reason: 'identity_mismatch',
      rule: 4,
      mismatches: [{ field: 'destination_id', expected: 'docs-mirror', actual: 'docs-eu' }],
    });
    expect(identity.sentence).toContain('its destination id is "docs-eu", expected "docs-mirror"');
    expect(identity.tone).toBe('danger');
    expect(describeDecision({ decision: 'conflict', reason: 'digest_mismatch', rule: 8 }).title).toBe('Conflict: digest mismatch');
  });
});
