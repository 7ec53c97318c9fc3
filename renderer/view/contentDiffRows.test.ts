import { describe, expect, it } from 'vitest';
import { diffTextLines } from '../../shared/contentDiff/textDiff';
import { segmentsOf, splitRows, textRuns, unifiedRows, WordHighlights } from './contentDiffRows';

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('content diff rows', () => {
  it('lists the unified view as gaps, hunk headers and lines, with the gaps placed top, middle and bottom', () => {
    const before = numbered(40);
    const after = before.replace('line 10\n', 'ten\n').replace('line 30\n', 'thirty\n');
    const diff = diffTextLines(before, after);
    const rows = unifiedRows(diff, segmentsOf(diff, []));
    expect(rows.map((row) => (row.type === 'gap' ? `gap:${row.place}:${row.to - row.from}` : row.type))).toEqual([
      'gap:top:6',
      'hunk',
      ...Array(8).fill('line'),
      'gap:middle:13',
      'hunk',
      ...Array(8).fill('line'),
      'gap:bottom:7',
    ]);
  });

  it('puts a removed line beside the added line that replaces it, and a lone one beside nothing', () => {
    const diff = diffTextLines('keep\nold a\nold b\nkeep\n', 'keep\nnew a\nkeep\n');
    const pairs = splitRows(diff, segmentsOf(diff, [])).filter((row) => row.type === 'pair');
    expect(pairs.map((row) => [row.left, row.right])).toEqual([
      [0, 0],
      [1, 3],
      [2, undefined],
      [4, 4],
    ]);
    expect(new Set(pairs.map((row) => row.key)).size).toBe(pairs.length);
  });

  it('marks the changed words of a replaced line on both sides, and none of a context line', () => {
    const diff = diffTextLines('build, sign, publish\n', 'build, sign, ship\n');
    const words = new WordHighlights(diff);
    expect(
      words
        .runsOf(0)
        ?.filter((run) => run.changed)
        .map((run) => run.text),
    ).toEqual(['publish']);
    expect(
      words
        .runsOf(1)
        ?.filter((run) => run.changed)
        .map((run) => run.text),
    ).toEqual(['ship']);
    expect(new WordHighlights(diffTextLines('same\n', 'same\n')).runsOf(0)).toBeUndefined();
  });

  it('shows control, bidi and zero-width characters as visible escapes, and keeps tabs and ordinary text', () => {
    expect(textRuns('a\u202eb\u001b[31mc\r')).toEqual([
      { text: 'a' },
      { text: '\\u202e', special: true, title: 'bidirectional control U+202E' },
      { text: 'b' },
      { text: '\\x1b', special: true, title: 'control character U+001B' },
      { text: '[31mc' },
      { text: '\\r', special: true, title: 'carriage return (CR)' },
    ]);
    expect(textRuns('\tplain <script>')).toEqual([{ text: '\tplain <script>' }]);
    expect(textRuns('')).toEqual([{ text: '' }]);
  });
});
