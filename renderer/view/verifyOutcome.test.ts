import { describe, expect, it } from 'vitest';
import { cancelledVerifySentence } from './verifyOutcome';

describe('what a cancelled verify says', () => {
  it('says how far it got, in destinations and outputs, and how many results it kept', () => {
    expect(cancelledVerifySentence({ kept: 3400, destinations: 10_000, outputsDone: 41_200, outputsTotal: 120_000 })).toBe(
      'Verify cancelled after 3,400 of 10,000 destinations (41,200 of 120,000 outputs hashed); 3,400 verified results kept',
    );
  });

  it('says one in the singular, and leaves the outputs out before the engine counted them', () => {
    expect(cancelledVerifySentence({ kept: 1, destinations: 1, outputsDone: 0, outputsTotal: 0 })).toBe(
      'Verify cancelled after 1 of 1 destination; 1 verified result kept',
    );
  });

  it('never counts fewer destinations than results kept', () => {
    expect(cancelledVerifySentence({ kept: 5, destinations: 4, outputsDone: 9, outputsTotal: 9 })).toMatch(
      /^Verify cancelled after 5 of 5 destinations/,
    );
  });
});
