import { describe, expect, it } from 'vitest';
import { HEALTH_MEANING, meaningsIn, NOT_VERIFIABLE_MEANING } from './markMeaning';

describe('the meanings of status words', () => {
  it('explains each word a status line uses, once, and nothing it does not', () => {
    const text = meaningsIn('Ready · 1 drifted, 8 not verified, 7 not verifiable');
    expect(text.split('\n')).toEqual([NOT_VERIFIABLE_MEANING, HEALTH_MEANING.unverified, HEALTH_MEANING.drifted]);
    expect(meaningsIn('Ready')).toBe('');
  });

  it('starts each meaning with the word it explains', () => {
    for (const [mark, meaning] of Object.entries(HEALTH_MEANING))
      expect(meaning.startsWith(mark === 'unverified' ? 'not verified' : mark === 'warnings' ? 'has warnings' : mark)).toBe(true);
  });
});
