import { describe, expect, it } from 'vitest';
import { budgetRow, timeRow } from './bench';
import { timingOf, type Run } from './measure';

const runs = (wall: number[], cpu?: number[]): Run[] => wall.map((wallMs, i) => (cpu ? { wallMs, cpuMs: cpu[i] } : { wallMs }));

describe('timeRow', () => {
  const pair = (ours: Run[], baseline: Run[]) => ({ ours: timingOf(ours), baseline: timingOf(baseline) });

  it('compares the medians, not the best or the worst run', () => {
    const row = timeRow('scan', pair(runs([90, 300, 310, 320, 2000]), runs([100, 200, 210, 220, 230])), 'naive', { wall: 1.5 });
    expect(row.ratio).toBeCloseTo(310 / 210);
    expect(row.met).toBe(true);
    expect(row.ours.text).toBe('310 ms [90 ms–2.00 s]');
  });

  it('is met at the target exactly and not above it', () => {
    expect(timeRow('a', pair(runs([300]), runs([200])), 'b', { wall: 1.5 }).met).toBe(true);
    expect(timeRow('a', pair(runs([301]), runs([200])), 'b', { wall: 1.5 }).met).toBe(false);
  });

  it('needs the CPU target too when it has one, and says both ratios', () => {
    const row = timeRow('scan', pair(runs([300], [900]), runs([200], [200])), 'naive', { wall: 1.5, cpu: 2.5 });
    expect(row.ratioText).toBe('1.50× wall, 4.50× CPU');
    expect(row.target).toBe('≤ 1.5× wall, ≤ 2.5× CPU');
    expect(row.met).toBe(false);
    expect(row.ours.text).toBe('300 ms [300 ms–300 ms], CPU 900 ms');
  });

  it('says which side ran unsteadily, its runs twice apart or more, and says nothing of a steady one', () => {
    const row = timeRow('replace', pair(runs([1900, 2000, 2100]), runs([457, 968, 2000])), 'cp + rm + mv', { wall: 2 }, ['a note']);
    expect(row.notes).toEqual([
      'a note',
      'unsteady: cp + rm + mv ran 457 ms–2.00 s (4.4×) between pairs; the machine moved under this row, read its ratio beside the load',
    ]);
    expect(timeRow('a', pair(runs([100, 199]), runs([200, 210])), 'b', { wall: 2 }).notes).toEqual([]);
    expect(timeRow('a', pair(runs([100, 200]), runs([200, 210])), 'b', { wall: 2 }).notes).toHaveLength(1);
  });

  it('is not met on a CPU target it could not measure', () => {
    expect(timeRow('scan', pair(runs([100]), runs([200])), 'naive', { wall: 1.5, cpu: 2.5 }).met).toBe(false);
  });
});

describe('budgetRow', () => {
  it('prints and judges the worst sample, with the median and the best beside it', () => {
    const row = budgetRow('UI: first row', [400, 1200, 300, 500, 450], 1000);
    expect(row.ours).toMatchObject({ value: 1200, min: 300, max: 1200 });
    expect(row.ours.text).toBe('worst 1.20 s (median 450 ms, best 300 ms, 5 samples)');
    expect(row.ratio).toBeCloseTo(1.2);
    expect(row.met).toBe(false);
  });

  it('is met when every sample is within the budget, at it included unless it must be below', () => {
    expect(budgetRow('a', [100, 80], 100).met).toBe(true);
    expect(budgetRow('a', [100, 80], 100, [], '<').met).toBe(false);
    expect(budgetRow('a', [100, 80], 100, [], '<').target).toBe('every sample < 100 ms');
  });

  it('refuses a row with no samples rather than reading as met', () => {
    expect(() => budgetRow('UI: search', [], 100)).toThrow('bench row "UI: search": no samples');
  });
});

describe('budgetRow wording', () => {
  it('says "1 sample" for one and "2 samples" for two', () => {
    expect(budgetRow('a', [5], 100).ours.text).toBe('worst 5 ms (median 5 ms, best 5 ms, 1 sample)');
    expect(budgetRow('a', [5, 7], 100).ours.text).toBe('worst 7 ms (median 6 ms, best 5 ms, 2 samples)');
  });
});
