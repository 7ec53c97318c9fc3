import { describe, expect, it } from 'vitest';
import { boundedAll } from './boundedAll';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('boundedAll', () => {
  it('lets the event loop run between slices of tasks that finish synchronously', async () => {
    const spin = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    let timerFiredAt = -1;
    setTimeout(() => (timerFiredAt = done), 0);
    let done = 0;
    const results = await boundedAll(
      Array.from({ length: 100 }, (_, i) => i),
      async (item) => {
        spin(1);
        done++;
        return item * 2;
      },
      { limit: 16 },
    );
    expect(results).toEqual(Array.from({ length: 100 }, (_, i) => i * 2));
    // 100 ms of work in 20 ms slices: the timer ran long before the last task.
    expect(timerFiredAt).toBeGreaterThanOrEqual(0);
    expect(timerFiredAt).toBeLessThan(60);
  });

  it('returns the results in item order with never more than the limit in flight', async () => {
    let running = 0;
    let most = 0;
    const results = await boundedAll(
      [5, 1, 4, 2, 3, 0, 6],
      async (ms, index) => {
        running++;
        most = Math.max(most, running);
        await tick(ms);
        running--;
        return `${index}:${ms}`;
      },
      { limit: 3 },
    );
    expect(results).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:6']);
    expect(most).toBe(3);
  });

  it('after a failure starts no further task and settles only once every running task has', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const outcome = boundedAll(
      [0, 1, 2, 3, 4, 5],
      async (item) => {
        started.push(item);
        if (item === 1) throw new Error('task 1 failed');
        await tick(20);
        finished.push(item);
      },
      { limit: 3 },
    );
    await expect(outcome).rejects.toThrow('task 1 failed');
    expect(started).toEqual([0, 1, 2]);
    expect(finished.sort()).toEqual([0, 2]);
  });

  it('keeps the weight in flight under its bound, yet always runs one heavy item', async () => {
    let weight = 0;
    let most = 0;
    await boundedAll(
      [60, 60, 200, 10, 10],
      async (item) => {
        weight += item;
        most = Math.max(most, weight);
        await tick(5);
        weight -= item;
      },
      { limit: 4, weight: (item) => item, maxWeight: 100 },
    );
    expect(most).toBe(200);
  });

  it('fails with what beforeEach throws, after the running tasks settle', async () => {
    let calls = 0;
    const done: number[] = [];
    const outcome = boundedAll(
      [1, 2, 3],
      async (item) => {
        await tick(10);
        done.push(item);
      },
      {
        limit: 1,
        beforeEach: () => {
          if (++calls === 2) throw new Error('cancelled');
        },
      },
    );
    await expect(outcome).rejects.toThrow('cancelled');
    expect(done).toEqual([1]);
  });

  it('resolves at once for no items', async () => {
    expect(await boundedAll([], async () => 1, { limit: 4 })).toEqual([]);
  });
});
