import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ancestorsOf, deepestFirst } from './planPaths';

const segment = fc.stringMatching(/^[a-z0-9.-]{1,4}$/);
const relativePath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments) => segments.join('/'));

describe('deepestFirst', () => {
  it('puts every path before each folder on its way, and orders paths of one depth by name', () => {
    fc.assert(
      fc.property(fc.array(relativePath, { maxLength: 40 }), (paths) => {
        const all = [...new Set(paths.flatMap((relative) => [relative, ...ancestorsOf(relative)]))];
        const sorted = all
          .map((relative) => ({ path: relative }))
          .sort(deepestFirst)
          .map((entry) => entry.path);
        const at = new Map(sorted.map((relative, index) => [relative, index]));
        for (const relative of all) for (const folder of ancestorsOf(relative)) expect(at.get(relative)!).toBeLessThan(at.get(folder)!);
        for (let i = 1; i < sorted.length; i++) {
          const [a, b] = [sorted[i - 1]!, sorted[i]!];
          if (a.split('/').length === b.split('/').length) expect(a < b).toBe(true);
          else expect(a.split('/').length).toBeGreaterThan(b.split('/').length);
        }
      }),
    );
  });
});
