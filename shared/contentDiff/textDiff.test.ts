import { applyPatch, diffArrays } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  diffTextLines,
  expandGap,
  formatHunkHeader,
  layoutDiff,
  NO_NEWLINE_MARKER,
  splitLines,
  unifiedDiffText,
  unifiedHunkLines,
  type Segment,
  type TextDiff,
} from './textDiff';
import { wordChanges } from './wordDiff';
import { decodeText, firstDifferingOffset } from './contentBytes';

/** Applies the hunks of a layout to the old text by their line numbers alone, as `patch` would. */
function applyHunks(oldText: string, diff: TextDiff, segments: Segment[]): string {
  const oldLines = splitLines(oldText);
  const out: string[] = [];
  let nextOld = 1;
  for (const segment of segments) {
    if (segment.type !== 'hunk') continue;
    const { header } = segment;
    const firstOld = header.oldCount === 0 ? header.oldStart + 1 : header.oldStart;
    while (nextOld < firstOld) out.push(oldLines[nextOld++ - 1]!);
    for (let index = segment.from; index < segment.to; index++) {
      const row = diff.rows[index]!;
      const token = row.text + (row.newline ? '\n' : '');
      if (row.kind !== 'added') {
        expect(oldLines[nextOld - 1]).toBe(token);
        nextOld++;
      }
      if (row.kind !== 'removed') out.push(token);
    }
  }
  while (nextOld <= oldLines.length) out.push(oldLines[nextOld++ - 1]!);
  return out.join('');
}

// Lines from a small alphabet, so that two texts share lines often; some end without a newline.
const line = fc.constantFrom('a', 'b', 'c', 'd', '', 'a b c', 'x y', ' ', '\r');
const text = fc
  .tuple(fc.array(line, { maxLength: 40 }), fc.boolean())
  .map(([lines, trailing]) => lines.join('\n') + (trailing && lines.length > 0 ? '\n' : ''));

describe('diffTextLines', () => {
  it('finds nothing between a text and itself', () => {
    fc.assert(
      fc.property(text, (value) => {
        const diff = diffTextLines(value, value);
        expect(diff.identical).toBe(true);
        expect(layoutDiff(diff).every((segment) => segment.type === 'gap')).toBe(true);
        expect(unifiedDiffText(diff, { oldLabel: 'a', newLabel: 'b' })).toBe('');
      }),
    );
  });

  it('applying the hunks to the old text gives the new text, with any context and any lines revealed', () => {
    fc.assert(
      fc.property(
        text,
        text,
        fc.nat(5),
        fc.array(fc.tuple(fc.nat(60), fc.nat(10)), { maxLength: 3 }),
        (before, after, context, reveals) => {
          const diff = diffTextLines(before, after);
          const segments = layoutDiff(diff, { context, reveals: reveals.map(([from, length]) => ({ from, to: from + length })) });
          expect(applyHunks(before, diff, segments)).toBe(after);
        },
      ),
    );
  });

  it('writes a unified diff that jsdiff applyPatch turns the old text into the new one with', () => {
    fc.assert(
      fc.property(text, text, fc.nat(4), (before, after, context) => {
        const diff = diffTextLines(before, after);
        const patch = unifiedDiffText(diff, { oldLabel: 'a/f', newLabel: 'b/f', context });
        // Without jsdiff's line-ending guess: a line that is "\r\n" in one text must stay one in the patch.
        expect(patch === '' ? before : applyPatch(before, patch, { autoConvertLineEndings: false })).toBe(after);
      }),
    );
  });

  it('numbers every line of both texts once, in order', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const diff = diffTextLines(before, after);
        const oldNumbers = diff.rows.flatMap((row) => (row.oldLine === undefined ? [] : [row.oldLine]));
        const newNumbers = diff.rows.flatMap((row) => (row.newLine === undefined ? [] : [row.newLine]));
        expect(oldNumbers).toEqual(Array.from({ length: splitLines(before).length }, (_, i) => i + 1));
        expect(newNumbers).toEqual(Array.from({ length: splitLines(after).length }, (_, i) => i + 1));
      }),
    );
  });

  it('pairs the removed lines of a block with its added ones, both ways', () => {
    const diff = diffTextLines('keep\nold one\nold two\nkeep\n', 'keep\nnew one\nkeep\n');
    const kinds = diff.rows.map((row) => `${row.kind}:${row.text}`);
    expect(kinds).toEqual(['context:keep', 'removed:old one', 'removed:old two', 'added:new one', 'context:keep']);
    expect(diff.rows[1]!.pair).toBe(3);
    expect(diff.rows[3]!.pair).toBe(1);
    expect(diff.rows[2]!.pair).toBeUndefined();
    expect(diff).toMatchObject({ added: 1, removed: 2, identical: false, approximate: false });
  });

  it('tells a last line without a line break from one with it', () => {
    const diff = diffTextLines('a\nb', 'a\nb\n');
    expect(diff.identical).toBe(false);
    expect(unifiedHunkLines(diff)).toEqual(['@@ -1,2 +1,2 @@', ' a', '-b', NO_NEWLINE_MARKER, '+b']);
  });

  it('keeps a carriage return that is the whole content of an added line', () => {
    const diff = diffTextLines('a\n', '\r\na\n');
    expect(unifiedHunkLines(diff)).toEqual(['@@ -1 +1,2 @@', '+\r', ' a']);
  });

  it('sets lines found on one side only aside and still finds as few changes as jsdiff alone, applicable', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let round = 0; round < 40; round++) {
      // Few distinct lines (many repeats) beside unique ones: both kinds of line, edited every way.
      const before = Array.from({ length: 60 }, () => (random() < 0.5 ? `common ${Math.floor(random() * 5)}` : `only ${random()}`));
      const after = before.flatMap((line) => {
        const roll = random();
        if (roll < 0.15) return [];
        if (roll < 0.3) return [`new ${random()}`];
        if (roll < 0.4) return [line, `common ${Math.floor(random() * 5)}`];
        return [line];
      });
      const oldText = `${before.join('\n')}\n`;
      const newText = `${after.join('\n')}\n`;
      const diff = diffTextLines(oldText, newText);
      const minimal = diffArrays(splitLines(oldText), splitLines(newText));
      const count = (kind: 'added' | 'removed') =>
        minimal.filter((change) => change[kind]).reduce((sum, change) => sum + change.value.length, 0);
      expect([diff.removed, diff.added], `round ${round}`).toEqual([count('removed'), count('added')]);
      expect(applyPatch(oldText, unifiedDiffText(diff, { oldLabel: 'a', newLabel: 'b' })), `round ${round}`).toBe(newText);
    }
  });

  it('gives up a diff that takes too long and shows the files as replaced, still applicable', () => {
    // The same lines in another order: every line has a match, so none is set aside before the diff.
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
    const before = lines.join('\n');
    const after = [...lines.filter((_, i) => i % 2 === 1), ...lines.filter((_, i) => i % 2 === 0).reverse()].join('\n');
    const diff = diffTextLines(before, after, { timeoutMs: 0 });
    expect(diff.approximate).toBe(true);
    expect(diff.removed).toBe(3000);
    expect(diff.added).toBe(3000);
    expect(applyPatch(before, unifiedDiffText(diff, { oldLabel: 'a', newLabel: 'b' }))).toBe(after);
  });
});

describe('layoutDiff', () => {
  const numbered = (count: number, change?: number) =>
    Array.from({ length: count }, (_, i) => (i + 1 === change ? `changed ${i + 1}` : `line ${i + 1}`)).join('\n') + '\n';

  it('keeps three lines of context around a change and hides the rest as gaps', () => {
    const diff = diffTextLines(numbered(30), numbered(30, 15));
    const segments = layoutDiff(diff);
    expect(segments.map((segment) => segment.type)).toEqual(['gap', 'hunk', 'gap']);
    const hunk = segments[1] as Extract<Segment, { type: 'hunk' }>;
    expect(formatHunkHeader(hunk.header)).toBe('@@ -12,7 +12,7 @@');
    expect(segments[0]).toMatchObject({ from: 0, to: 11 });
  });

  it('expands a gap by twenty lines up or down, or whole, and a fully revealed file is one hunk', () => {
    const diff = diffTextLines(numbered(100), numbered(100, 50));
    const [top] = layoutDiff(diff);
    expect(top).toMatchObject({ type: 'gap', from: 0, to: 46 });
    const up = expandGap(top!, 'up');
    expect(up).toEqual({ from: 26, to: 46 });
    const afterUp = layoutDiff(diff, { reveals: [up] });
    expect(afterUp[0]).toMatchObject({ type: 'gap', from: 0, to: 26 });
    expect(afterUp[1]).toMatchObject({ type: 'hunk', from: 26 });
    expect(expandGap(top!, 'down')).toEqual({ from: 0, to: 20 });
    expect(expandGap({ from: 3, to: 10 }, 'up')).toEqual({ from: 3, to: 10 });
    const all = layoutDiff(diff, {
      reveals: layoutDiff(diff).flatMap((segment) => (segment.type === 'gap' ? [expandGap(segment, 'all')] : [])),
    });
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ type: 'hunk', from: 0, to: 101 });
  });

  it('joins two changes closer than twice the context into one hunk', () => {
    const before = numbered(20);
    const after = before.replace('line 5\n', 'five\n').replace('line 10\n', 'ten\n');
    const hunks = layoutDiff(diffTextLines(before, after)).filter((segment) => segment.type === 'hunk');
    expect(hunks).toHaveLength(1);
  });

  it('numbers a hunk of a new file from zero, as git does', () => {
    const diff = diffTextLines('', 'one\ntwo\n');
    expect(unifiedHunkLines(diff)).toEqual(['@@ -0,0 +1,2 @@', '+one', '+two']);
  });
});

describe('wordChanges', () => {
  it('marks only the words that changed, and the runs give back each line', () => {
    const changes = wordChanges('build, sign, publish', 'build, sign, ship');
    expect(changes?.old).toEqual([
      { text: 'build, sign, ', changed: false },
      { text: 'publish', changed: true },
    ]);
    expect(changes?.new.map((run) => run.text).join('')).toBe('build, sign, ship');
  });

  it('gives back both lines exactly for any pair', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (before, after) => {
        const changes = wordChanges(before, after);
        if (changes === undefined) return;
        expect(changes.old.map((run) => run.text).join('')).toBe(before);
        expect(changes.new.map((run) => run.text).join('')).toBe(after);
      }),
    );
  });

  it('does not highlight words of lines that have nothing in common, nor of very long lines', () => {
    expect(wordChanges('alpha beta gamma', 'zeta')).toBeUndefined();
    expect(wordChanges('a'.repeat(5000), 'a'.repeat(4999) + 'b')).toBeUndefined();
  });
});

describe('contentBytes', () => {
  it('reads UTF-8 without NUL as text and anything else as binary', () => {
    expect(decodeText(new TextEncoder().encode('héllo\n'))).toBe('héllo\n');
    expect(decodeText(Uint8Array.from([0x61, 0x00, 0x62]))).toBeUndefined();
    expect(decodeText(Uint8Array.from([0xff, 0xfe]))).toBeUndefined();
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]))).toBe('\ufeffa');
  });

  it('finds the first differing offset, the shorter length for a prefix, and none for equal bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 30 }), fc.uint8Array({ maxLength: 30 }), (a, b) => {
        const offset = firstDifferingOffset(a, b);
        if (offset === undefined) {
          expect(Buffer.compare(a, b)).toBe(0);
        } else {
          expect(a.subarray(0, offset)).toEqual(b.subarray(0, offset));
          expect(offset === a.length || offset === b.length || a[offset] !== b[offset]).toBe(true);
        }
      }),
    );
    expect(firstDifferingOffset(Uint8Array.from([1, 2]), Uint8Array.from([1, 2, 3]))).toBe(2);
    expect(firstDifferingOffset(Uint8Array.from([1, 2]), Uint8Array.from([1, 3]), 100)).toBe(101);
  });
});
