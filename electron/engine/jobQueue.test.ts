import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JobQueue } from './jobQueue';

/** An array that counts every element read and write made through it (as Array.prototype.shift makes them). */
function countingArray(): { items: number[]; accesses: () => number } {
  let count = 0;
  const items = new Proxy<number[]>([], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) count += 1;
      return Reflect.get(target, key, receiver);
    },
    set(target, key, value, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) count += 1;
      return Reflect.set(target, key, value, receiver);
    },
  });
  return { items, accesses: () => count };
}

/** Element accesses to push n items and take them all back, a few at a time as takeBatch does. */
function accessesToDrain(n: number): number {
  const { items, accesses } = countingArray();
  const queue = new JobQueue<number>(items);
  for (let i = 0; i < n; i += 1) queue.push(i);
  let taken = 0;
  while (queue.length > 0) {
    expect(queue.peek()).toBe(taken);
    expect(queue.shift()).toBe(taken);
    taken += 1;
  }
  expect(taken).toBe(n);
  return accesses();
}

describe('JobQueue', () => {
  it('takes n items with work linear in n, not n² as shift() on an array is', () => {
    const perItemSmall = accessesToDrain(1_000) / 1_000;
    const perItemLarge = accessesToDrain(8_000) / 8_000;
    // Linear: a few element accesses per item, whatever the queue's length. Array.prototype.shift
    // moves every remaining item: ~n accesses per item, 8× more at the larger size.
    expect(perItemSmall).toBeLessThan(8);
    expect(perItemLarge).toBeLessThan(8);
    expect(perItemLarge).toBeLessThan(perItemSmall * 2);
  });

  it('behaves as an array used as a queue, for any sequence of operations', () => {
    type Op =
      | { kind: 'push'; value: number }
      | { kind: 'shift' }
      | { kind: 'unshiftAll'; values: number[] }
      | { kind: 'removeWhere'; modulo: number }
      | { kind: 'clear' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 6, arbitrary: fc.integer().map((value) => ({ kind: 'push' as const, value })) },
      { weight: 5, arbitrary: fc.constant({ kind: 'shift' as const }) },
      { weight: 1, arbitrary: fc.array(fc.integer(), { maxLength: 5 }).map((values) => ({ kind: 'unshiftAll' as const, values })) },
      { weight: 1, arbitrary: fc.integer({ min: 2, max: 5 }).map((modulo) => ({ kind: 'removeWhere' as const, modulo })) },
      { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
        const queue = new JobQueue<number>();
        let reference: number[] = [];
        for (const step of ops) {
          if (step.kind === 'push') {
            queue.push(step.value);
            reference.push(step.value);
          } else if (step.kind === 'shift') {
            expect(queue.shift()).toBe(reference.shift());
          } else if (step.kind === 'unshiftAll') {
            queue.unshiftAll(step.values);
            reference.unshift(...step.values);
          } else if (step.kind === 'removeWhere') {
            queue.removeWhere((value) => value % step.modulo === 0);
            reference = reference.filter((value) => value % step.modulo !== 0);
          } else {
            queue.clear();
            reference = [];
          }
          expect(queue.length).toBe(reference.length);
          expect(queue.peek()).toBe(reference[0]);
        }
        expect(queue.toArray()).toEqual(reference);
      }),
      { numRuns: 60 },
    );
  });

  it('compacts past the consumed front so a long-lived queue does not grow without bound', () => {
    const items: number[] = [];
    const queue = new JobQueue<number>(items);
    for (let round = 0; round < 50; round += 1) {
      for (let i = 0; i < 1000; i += 1) queue.push(i);
      for (let i = 0; i < 900; i += 1) queue.shift();
    }
    expect(queue.length).toBe(50 * 100);
    expect(items.length).toBeLessThan(3 * queue.length + 2048);
  });
});
