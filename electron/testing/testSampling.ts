// How much of a long test matrix runs. `npm test` runs a seeded sample of each kill-point and
// fault-injection matrix (and fewer runs of the slow property tests), so a developer's loop stays
// short; `npm run test:full` (TEST_FULL=1) runs every point, as CI does. The seed comes from
// TEST_SEED, which the global setup sets (and prints) when unset, so a failing sample replays with
// `TEST_SEED=<seed> npx vitest run <file>`. For tests only; the app never imports it.

import { expect } from 'vitest';

/** True under `npm run test:full`: every matrix runs whole. */
export function fullMatrices(): boolean {
  return process.env.TEST_FULL === '1';
}

/** This run's seed: TEST_SEED, a non-negative integer (the global setup sets one when unset). */
export function testSeed(): number {
  const raw = process.env.TEST_SEED;
  if (raw === undefined || raw === '') return 0;
  if (!/^\d{1,10}$/.test(raw)) throw new Error(`TEST_SEED must be a non-negative integer, got '${raw}'`);
  return Number(raw) >>> 0;
}

/** What a failing sampled test says, so the failure can be replayed or widened. */
export function replayHint(): string {
  return fullMatrices()
    ? 'full matrix (TEST_FULL=1)'
    : `sampled matrix: replay with TEST_SEED=${testSeed()}, or run every point with TEST_FULL=1`;
}

// FNV-1a over the text, for mixing the seed with the name of the test that draws.
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A generator of numbers in [0, 1) drawn from the seed and the current test's name (mulberry32),
 * so two tests sample different points and a test samples the same points whenever it replays
 * with the same seed, run alone or beside the others.
 */
export function seededRandom(tag: string): () => number {
  const testName = expect.getState().currentTestName ?? '';
  let state = hashText(`${testSeed()}\u0000${testName}\u0000${tag}`);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How many points of a matrix a default run tries: the first, the last and this many others. */
export const SAMPLED_MIDDLE_POINTS = 3;

/**
 * The points of a matrix 1…n to run: all of them under TEST_FULL=1, else the first, the last and
 * a seeded few of the others (SAMPLED_MIDDLE_POINTS), in order.
 */
export function samplePoints(n: number, tag: string): number[] {
  const all = Array.from({ length: n }, (_, i) => i + 1);
  if (fullMatrices() || n <= SAMPLED_MIDDLE_POINTS + 2) return all;
  const random = seededRandom(tag);
  const middle = all.slice(1, -1);
  // A partial Fisher–Yates shuffle: the first SAMPLED_MIDDLE_POINTS of the middle, then in order.
  for (let i = 0; i < SAMPLED_MIDDLE_POINTS; i++) {
    const j = i + Math.floor(random() * (middle.length - i));
    [middle[i], middle[j]] = [middle[j] as number, middle[i] as number];
  }
  return [1, ...middle.slice(0, SAMPLED_MIDDLE_POINTS).sort((a, b) => a - b), n];
}

/** The number of runs of a slow property test: `full` under TEST_FULL=1, else `sampled` (a quarter). */
export function propertyRuns(full: number, sampled = Math.max(1, Math.ceil(full / 4))): number {
  return fullMatrices() ? full : sampled;
}

/** Adds the replay hint to a failure raised inside a sampled matrix, and rethrows it. */
export function withReplayHint(error: unknown): never {
  if (error instanceof Error && !error.message.includes('TEST_SEED=') && !error.message.includes('TEST_FULL=1')) {
    error.message = `${error.message}\n(${replayHint()})`;
  }
  throw error;
}
