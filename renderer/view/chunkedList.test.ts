import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkedList } from './chunkedList';

describe('ChunkedList', () => {
  it('reads, edits and flattens exactly as a copied array does, and never changes an older version', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 3000 }),
        fc.array(fc.array(fc.tuple(fc.nat(), fc.integer()), { maxLength: 20 }), { maxLength: 6 }),
        (initial, edits) => {
          let list = ChunkedList.from(initial);
          let reference = [...initial];
          for (const writes of edits) {
            const before = list;
            const beforeItems = [...reference];
            const next = [...reference];
            const seen: number[] = [];
            list = list.edited((set, get) => {
              for (const [at, value] of writes) {
                if (next.length === 0) return;
                const index = at % next.length;
                set(index, value);
                next[index] = value;
                seen.push(get(index));
              }
            });
            expect(seen).toEqual(writes.slice(0, seen.length).map(([, value]) => value));
            reference = next;
            expect(list.length).toBe(reference.length);
            expect([...list.toArray()]).toEqual(reference);
            for (let i = 0; i < reference.length; i += 97) expect(list.get(i)).toBe(reference[i]);
            expect([...before.toArray()]).toEqual(beforeItems);
            if (seen.length === 0) expect(list).toBe(before);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('copies only the chunk a write falls in: the others are shared with the version before', () => {
    const list = ChunkedList.filled(5000, 0);
    const edited = list.edited((set) => set(4000, 1));
    expect(edited.get(4000)).toBe(1);
    expect(list.get(4000)).toBe(0);
    const chunks = (version: ChunkedList<number>) => (version as unknown as { chunks: unknown[] }).chunks;
    const shared = chunks(edited).filter((chunk, i) => chunk === chunks(list)[i]).length;
    expect(shared).toBe(chunks(list).length - 1);
  });

  it('refuses a write outside the list, naming the index and the length', () => {
    expect(() => ChunkedList.filled(3, 0).edited((set) => set(3, 1))).toThrow('index 3 outside a list of 3');
  });
});
