// The sampling of long matrices: a default run tries a seeded handful of points that changes with
// the seed and replays with it; TEST_FULL=1 tries every point.

import { afterEach, describe, expect, it } from 'vitest';
import { propertyRuns, replayHint, samplePoints, SAMPLED_MIDDLE_POINTS, testSeed, withReplayHint } from './testSampling';

const saved = { seed: process.env.TEST_SEED, full: process.env.TEST_FULL };
afterEach(() => {
  process.env.TEST_SEED = saved.seed;
  process.env.TEST_FULL = saved.full;
  if (saved.seed === undefined) delete process.env.TEST_SEED;
  if (saved.full === undefined) delete process.env.TEST_FULL;
});

function sampled(seed: number, n: number): number[] {
  process.env.TEST_SEED = String(seed);
  delete process.env.TEST_FULL;
  return samplePoints(n, 'matrix');
}

describe('samplePoints', () => {
  it('tries the first, the last and a few others, in order, without repeats', () => {
    const points = sampled(7, 40);
    expect(points).toHaveLength(SAMPLED_MIDDLE_POINTS + 2);
    expect(points[0]).toBe(1);
    expect(points.at(-1)).toBe(40);
    expect([...points].sort((a, b) => a - b)).toEqual(points);
    expect(new Set(points).size).toBe(points.length);
  });

  it('draws the same points for the same seed, and other points for other seeds', () => {
    expect(sampled(11, 40)).toEqual(sampled(11, 40));
    const draws = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => sampled(seed, 40).join(',')));
    expect(draws.size).toBeGreaterThan(4);
  });

  it('reaches every point over enough seeds', () => {
    const seen = new Set<number>();
    for (let seed = 0; seed < 200; seed++) for (const point of sampled(seed, 30)) seen.add(point);
    expect(seen.size).toBe(30);
  });

  it('tries every point of a short matrix, and of any matrix under TEST_FULL=1', () => {
    const short = SAMPLED_MIDDLE_POINTS + 2;
    expect(sampled(3, short)).toEqual(Array.from({ length: short }, (_, i) => i + 1));
    process.env.TEST_FULL = '1';
    expect(samplePoints(40, 'matrix')).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(propertyRuns(60)).toBe(60);
    delete process.env.TEST_FULL;
    expect(propertyRuns(60)).toBe(15);
  });
});

describe('the seed', () => {
  it('is read from TEST_SEED, and a bad one is refused by name', () => {
    process.env.TEST_SEED = '4242';
    expect(testSeed()).toBe(4242);
    process.env.TEST_SEED = 'abc';
    expect(() => testSeed()).toThrow(/TEST_SEED must be a non-negative integer, got 'abc'/);
  });

  it('is named in a failure of a sampled matrix, so it can be replayed', () => {
    process.env.TEST_SEED = '99';
    delete process.env.TEST_FULL;
    expect(replayHint()).toContain('TEST_SEED=99');
    expect(() => withReplayHint(new Error('kill point 3: state lost'))).toThrow(
      /kill point 3: state lost\n\(sampled matrix: replay with TEST_SEED=99/,
    );
  });
});
