import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Bursts } from './bursts';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});

afterEach(() => {
  vi.useRealTimers();
});

/** Bursts on the fake clock, recording each report as [key, first, last]. */
function recording(debounceMs = 100, maxWaitMs = 1000) {
  const ended: [string, number, number][] = [];
  const bursts = new Bursts(debounceMs, maxWaitMs, (key, first, last) => void ended.push([key, first, last]));
  return { bursts, ended };
}

describe('a burst of watch events', () => {
  it('is reported once, after it goes quiet, with when its first and its last event were seen', async () => {
    const { bursts, ended } = recording();
    bursts.note('a');
    vi.advanceTimersByTime(60);
    bursts.note('a');
    vi.advanceTimersByTime(60);
    bursts.note('a');
    vi.advanceTimersByTime(99);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(1);
    await bursts.settled();
    expect(ended).toEqual([['a', 1_000_000, 1_000_120]]);
  });

  it('that never goes quiet is reported at its longest wait, its last event the latest seen by then', async () => {
    const { bursts, ended } = recording(100, 250);
    for (let i = 0; i < 5; i += 1) {
      bursts.note('a');
      vi.advanceTimersByTime(50);
    }
    await bursts.settled();
    expect(ended).toEqual([['a', 1_000_000, 1_000_200]]);
  });

  it('keeps each key’s times its own', async () => {
    const { bursts, ended } = recording();
    bursts.note('a');
    vi.advanceTimersByTime(30);
    bursts.note('b');
    vi.advanceTimersByTime(200);
    await bursts.settled();
    expect(ended).toEqual([
      ['a', 1_000_000, 1_000_000],
      ['b', 1_000_030, 1_000_030],
    ]);
  });
});
