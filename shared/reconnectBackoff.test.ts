import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RECONNECT_MAX_MS, reconnectDelayMs } from './reconnectBackoff';

describe('reconnectDelayMs', () => {
  it('doubles from 1 s and stops at 60 s without jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 30].map((retries) => reconnectDelayMs(retries, 0))).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000,
    ]);
  });

  it('takes at most 20 % off a wait at random, never adds to it', () => {
    expect(reconnectDelayMs(0, 0.999999)).toBe(800);
    expect(reconnectDelayMs(6, 0.5)).toBe(54000);
  });

  it('is always between 80 % of its step and the step, never past 60 s, for any count and random number', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (retries, random) => {
        const step = reconnectDelayMs(retries, 0);
        const wait = reconnectDelayMs(retries, random);
        expect(wait).toBeLessThanOrEqual(step);
        expect(wait).toBeGreaterThanOrEqual(Math.floor(step * 0.8));
        expect(step).toBeLessThanOrEqual(RECONNECT_MAX_MS);
      }),
    );
  });
});
