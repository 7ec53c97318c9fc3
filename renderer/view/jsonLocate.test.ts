import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexJson, lineOf, lineStarts, locateJsonPath } from './jsonLocate';

const state = JSON.stringify(
  {
    schema_version: 1,
    outputs: [
      { path: 'a.html', sha256: 'SHA' },
      { path: 'b "quoted" \\ name', size: 3 },
    ],
    links: {},
  },
  null,
  2,
);

describe('locating a JSON path in raw text', () => {
  it('finds a nested member from its key to the end of its value', () => {
    const found = locateJsonPath(state, ['outputs', 0, 'sha256']);
    expect(found.exact).toBe(true);
    expect(state.slice(found.start, found.end)).toBe('"sha256": "SHA"');
  });

  it('falls back to the nearest ancestor for a missing field', () => {
    const found = locateJsonPath(state, ['outputs', 1, 'sha256']);
    expect(found.exact).toBe(false);
    expect(found.foundPath).toEqual(['outputs', 1]);
    expect(JSON.parse(state.slice(found.start, found.end))).toEqual({ path: 'b "quoted" \\ name', size: 3 });
  });

  it('keeps the locations read before a syntax error in a document cut short', () => {
    const cut = state.slice(0, state.indexOf('"size"'));
    expect(locateJsonPath(cut, ['outputs', 0, 'path']).exact).toBe(true);
    expect(locateJsonPath(cut, ['outputs', 1, 'size']).foundPath).toEqual([]);
    expect(locateJsonPath('', ['x'])).toMatchObject({ start: 0, end: 0, foundPath: [] });
  });

  it('maps offsets to lines', () => {
    const starts = lineStarts('a\nbb\n\nc');
    expect(starts).toEqual([0, 2, 5, 6]);
    expect([0, 1, 2, 4, 5, 6].map((offset) => lineOf(starts, offset))).toEqual([0, 0, 1, 1, 2, 3]);
  });

  it('finds every path of any JSON document exactly, and never throws on any text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const index = indexJson(text);
        const walk = (node: unknown, path: (string | number)[]): void => {
          const span = locateJsonPath(text, path, index);
          expect(span.exact).toBe(true);
          const slice = text.slice(span.start, span.end);
          const last = path[path.length - 1];
          // A member's span starts at its key; strip it to compare the value.
          const valueText = typeof last === 'string' ? slice.slice(slice.indexOf(':', JSON.stringify(last).length) + 1) : slice;
          expect(JSON.parse(valueText)).toEqual(JSON.parse(JSON.stringify(node)));
          if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i]));
          else if (node !== null && typeof node === 'object') for (const [key, item] of Object.entries(node)) walk(item, [...path, key]);
        };
        walk(value, []);
      }),
      { numRuns: 200 },
    );
    fc.assert(fc.property(fc.string(), (text) => void indexJson(text)));
  });

  it('marks a key written twice at its last place, and keeps the earlier ones beside it', () => {
    const text = '{\n  "pipeline_id": "old",\n  "outputs": [{"size": 1.0}],\n  "pipeline_id": "reports"\n}';
    const found = locateJsonPath(text, ['pipeline_id']);
    expect(text.slice(found.start, found.end)).toBe('"pipeline_id": "reports"');
    expect(found.earlier.map((span) => text.slice(span.start, span.end))).toEqual(['"pipeline_id": "old"']);
    const size = locateJsonPath(text, ['outputs', 0, 'size']);
    expect(text.slice(size.start, size.end)).toBe('"size": 1.0');
    expect(size.earlier).toEqual([]);
  });
});
