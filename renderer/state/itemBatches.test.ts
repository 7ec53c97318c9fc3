// Streamed items applied in batches (itemBatches.ts): the first at once, the rest gathered; items
// that wait for their list go in once it is shown, and the first after it still goes in at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batcher } from './itemBatches';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('batcher', () => {
  it('applies the first item at once and gathers the next ones into one batch', async () => {
    const applied: number[][] = [];
    const items = batcher<number>((batch) => applied.push(batch));
    items.push(1);
    await Promise.resolve();
    expect(applied).toEqual([[1]]);
    items.push(2);
    items.push(3);
    expect(applied).toEqual([[1]]);
    await vi.advanceTimersByTimeAsync(200);
    expect(applied).toEqual([[1], [2, 3]]);
  });

  it('applies the first item after its list is shown at once when none waited for the list', async () => {
    const applied: number[][] = [];
    const items = batcher<number>((batch) => applied.push(batch), Promise.resolve(true));
    await Promise.resolve();
    await Promise.resolve();
    items.push(1);
    await Promise.resolve();
    expect(applied).toEqual([[1]]);
  });

  it('applies the items that waited for their list in a task of their own once it is shown, and drops them when it is not', async () => {
    let show: (shown: boolean) => void = () => undefined;
    const applied: number[][] = [];
    const items = batcher<number>((batch) => applied.push(batch), new Promise<boolean>((resolve) => (show = resolve)));
    items.push(1);
    items.push(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(applied).toEqual([]);
    show(true);
    await Promise.resolve();
    expect(applied).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(applied).toEqual([[1, 2]]);

    let hide: (shown: boolean) => void = () => undefined;
    const dropped: number[][] = [];
    const unseen = batcher<number>((batch) => dropped.push(batch), new Promise<boolean>((resolve) => (hide = resolve)));
    unseen.push(1);
    hide(false);
    await vi.advanceTimersByTimeAsync(500);
    unseen.push(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(dropped).toEqual([]);
  });
});
