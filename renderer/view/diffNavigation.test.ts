import { describe, expect, it } from 'vitest';
import { diffTextLines } from '../../shared/contentDiff/textDiff';
import { segmentsOf, splitRows, unifiedRows } from './contentDiffRows';
import { changeRuns, stepChange, stepPath } from './diffNavigation';

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('walking a diff with the keyboard', () => {
  it('finds each block of changed lines, unified and side by side', () => {
    const before = numbered(40);
    const after = before.replace('line 10\n', 'ten\n').replace('line 11\n', 'eleven\n').replace('line 30\n', 'thirty\n');
    const diff = diffTextLines(before, after);
    const unified = unifiedRows(diff, segmentsOf(diff, []));
    const runs = changeRuns(diff, unified);
    expect(runs).toHaveLength(2);
    const first = unified[runs[0]!.start]!;
    expect(first.type === 'line' && diff.rows[first.row]!.text).toBe('line 10');
    // line 10 and 11 removed, ten and eleven added: one run of four rows.
    expect(runs[0]!.end - runs[0]!.start).toBe(4);
    const split = splitRows(diff, segmentsOf(diff, []));
    expect(changeRuns(diff, split)).toHaveLength(2);
  });

  it('finds no change in a diff of a text with itself', () => {
    const diff = diffTextLines('a\nb\n', 'a\nb\n');
    expect(changeRuns(diff, unifiedRows(diff, segmentsOf(diff, [{ from: 0, to: diff.rows.length }])))).toEqual([]);
  });

  it('steps to the next and previous change and stops at the ends', () => {
    expect(stepChange(3, -1, 1)).toBe(0);
    expect(stepChange(3, -1, -1)).toBe(2);
    expect(stepChange(3, 0, 1)).toBe(1);
    expect(stepChange(3, 2, 1)).toBe(2);
    expect(stepChange(3, 0, -1)).toBe(0);
    expect(stepChange(0, -1, 1)).toBe(-1);
  });

  it('steps through the drifted files, wrapping around', () => {
    const paths = ['a.txt', 'b.txt', 'c.txt'];
    expect(stepPath(paths, 'a.txt', 1)).toBe('b.txt');
    expect(stepPath(paths, 'c.txt', 1)).toBe('a.txt');
    expect(stepPath(paths, 'a.txt', -1)).toBe('c.txt');
    expect(stepPath(paths, 'gone.txt', 1)).toBe('a.txt');
    expect(stepPath([], 'a.txt', 1)).toBeUndefined();
  });
});
