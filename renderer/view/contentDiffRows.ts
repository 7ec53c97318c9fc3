// The content diff as the flat list of rows a virtual list draws: hunk headers, lines and the gaps
// "expand" opens, in the unified view (one line a row) or side by side (a removed line beside the
// added line that replaces it). Pure functions of the model (shared/contentDiff/textDiff.ts); the
// text of a line is split into runs that are drawn as text, with control and bidi characters made
// visible (a diffed file may hold anything). Never produces HTML.

import { layoutDiff, type HunkHeader, type Reveal, type Segment, type TextDiff } from '../../shared/contentDiff/textDiff';
import { wordChanges, type WordChanges, type WordRun } from '../../shared/contentDiff/wordDiff';

export type GapPlace = 'top' | 'middle' | 'bottom';

export type UnifiedRow =
  | { type: 'hunk'; key: string; header: HunkHeader }
  | { type: 'gap'; key: string; from: number; to: number; place: GapPlace }
  | { type: 'line'; key: string; row: number };

export type SplitRow =
  | { type: 'hunk'; key: string; header: HunkHeader }
  | { type: 'gap'; key: string; from: number; to: number; place: GapPlace }
  /** `left` is an old line (context or removed), `right` a new one (context or added); either may be absent. */
  | { type: 'pair'; key: string; left?: number; right?: number };

function placeOf(index: number, count: number): GapPlace {
  return index === 0 ? 'top' : index === count - 1 ? 'bottom' : 'middle';
}

export function segmentsOf(diff: TextDiff, reveals: readonly Reveal[], context?: number): Segment[] {
  return layoutDiff(diff, { reveals, ...(context !== undefined ? { context } : {}) });
}

export function unifiedRows(diff: TextDiff, segments: Segment[]): UnifiedRow[] {
  const rows: UnifiedRow[] = [];
  segments.forEach((segment, index) => {
    if (segment.type === 'gap') {
      rows.push({ type: 'gap', key: `g${segment.from}`, from: segment.from, to: segment.to, place: placeOf(index, segments.length) });
      return;
    }
    rows.push({ type: 'hunk', key: `h${segment.from}`, header: segment.header });
    for (let row = segment.from; row < segment.to; row++) rows.push({ type: 'line', key: `l${row}`, row });
  });
  return rows;
}

export function splitRows(diff: TextDiff, segments: Segment[]): SplitRow[] {
  const rows: SplitRow[] = [];
  segments.forEach((segment, index) => {
    if (segment.type === 'gap') {
      rows.push({ type: 'gap', key: `g${segment.from}`, from: segment.from, to: segment.to, place: placeOf(index, segments.length) });
      return;
    }
    rows.push({ type: 'hunk', key: `h${segment.from}`, header: segment.header });
    let row = segment.from;
    while (row < segment.to) {
      const line = diff.rows[row]!;
      if (line.kind === 'context') {
        rows.push({ type: 'pair', key: `p${row}`, left: row, right: row });
        row++;
        continue;
      }
      // A block of removed lines, then the added ones: side by side, the k-th beside the k-th.
      const removed: number[] = [];
      const added: number[] = [];
      while (row < segment.to && diff.rows[row]!.kind === 'removed') removed.push(row++);
      while (row < segment.to && diff.rows[row]!.kind === 'added') added.push(row++);
      for (let k = 0; k < Math.max(removed.length, added.length); k++) {
        const left = removed[k];
        const right = added[k];
        rows.push({
          type: 'pair',
          key: `p${left ?? 'x'}-${right ?? 'x'}`,
          ...(left !== undefined ? { left } : {}),
          ...(right !== undefined ? { right } : {}),
        });
      }
    }
  });
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Text runs: what a line looks like on screen, every character accounted for.

export type TextRun = { text: string; special?: false } | { text: string; special: true; title: string };

// C0 but tab, DEL, C1, the bidi controls and marks, zero-width characters and the BOM: invisible or
// reordering, so shown as an escape (`\u202e`) and named in a title. A tab stays a tab (CSS tab-size).
const SPECIAL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

function escapeOf(char: string): string {
  if (char === '\r') return '\\r';
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

function titleOf(char: string): string {
  const code = char.charCodeAt(0);
  if (char === '\r') return 'carriage return (CR)';
  if (code === 0xfeff) return 'byte order mark (U+FEFF)';
  if (code >= 0x202a && code <= 0x202e) return `bidirectional control U+${code.toString(16).toUpperCase()}`;
  if (code >= 0x2066 && code <= 0x2069) return `bidirectional isolate U+${code.toString(16).toUpperCase()}`;
  return `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A text as runs: plain text, and each invisible or reordering character as its visible escape. */
export function textRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  let last = 0;
  for (const match of text.matchAll(SPECIAL)) {
    const at = match.index;
    if (at > last) runs.push({ text: text.slice(last, at) });
    runs.push({ text: escapeOf(match[0]), special: true, title: titleOf(match[0]) });
    last = at + match[0].length;
  }
  if (last < text.length || runs.length === 0) runs.push({ text: text.slice(last) });
  return runs;
}

/** The changed words of each replaced line, worked out when the line is first drawn and kept (one per pair). */
export class WordHighlights {
  private readonly cache = new Map<number, WordChanges | null>();

  constructor(private readonly diff: TextDiff) {}

  /** The runs of a row's text (changed words marked), or undefined when it is drawn as a whole. */
  runsOf(row: number): WordRun[] | undefined {
    const line = this.diff.rows[row];
    if (!line || line.pair === undefined || line.kind === 'context') return undefined;
    const removedRow = line.kind === 'removed' ? row : line.pair;
    let changes = this.cache.get(removedRow);
    if (changes === undefined) {
      const removed = this.diff.rows[removedRow]!;
      changes = wordChanges(removed.text, this.diff.rows[removed.pair!]!.text) ?? null;
      this.cache.set(removedRow, changes);
    }
    if (changes === null) return undefined;
    return line.kind === 'removed' ? changes.old : changes.new;
  }
}
