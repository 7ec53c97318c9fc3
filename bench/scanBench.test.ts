import { describe, expect, it } from 'vitest';
import { timingOf } from './measure';
import { perDestinationRow, perDestinationUs } from './scanBench';

const sized = (count: number, oursMs: number, naiveMs: number) => ({
  count,
  ours: timingOf([{ wallMs: oursMs }]),
  baseline: timingOf([{ wallMs: naiveMs }]),
});

describe('perDestinationUs', () => {
  it('is the time above the base scan over the destinations beyond it, in µs', () => {
    expect(perDestinationUs({ count: 1000, medianMs: 300 }, { count: 128, medianMs: 213 })).toBeCloseTo(((300 - 213) * 1000) / 872);
  });

  it('refuses a tree no larger than the base', () => {
    expect(() => perDestinationUs({ count: 128, medianMs: 300 }, { count: 128, medianMs: 200 })).toThrow(/not above the base of 128/);
  });
});

describe('perDestinationRow', () => {
  it('is met when the cost per destination stays flat from the small tree to the large one', () => {
    // 100 µs per destination at both sizes above a 200 ms base.
    const row = perDestinationRow({ base: sized(100, 200, 50), small: sized(1100, 300, 70), large: sized(100_100, 10_200, 2050) });
    expect(row.ratio).toBeCloseTo(1);
    expect(row.met).toBe(true);
    expect(row.ours.text).toBe('100 → 100 µs (1.00×)');
    expect(row.baseline.text).toBe('20 → 20 µs (1.00×)');
  });

  it('is not met when the cost per destination grows (a quadratic path)', () => {
    const row = perDestinationRow({ base: sized(100, 200, 50), small: sized(1100, 300, 70), large: sized(100_100, 20_200, 2050) });
    expect(row.ratio).toBeCloseTo(2);
    expect(row.met).toBe(false);
    expect(row.name).toBe('scan, cost per destination, 1,100 → 100,100 (growth)');
  });
});
