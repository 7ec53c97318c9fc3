// The line diff of two texts, as data both the CLI and the renderer draw: every line of both files
// as a row (context, removed or added, with its line numbers), the removed and added lines paired
// for word highlighting and side-by-side, hunks with context, gaps of hidden context that "expand"
// reveals, and the unified diff text (`git diff` format). The diff itself is jsdiff's (Myers), never
// a hand-written LCS. Pure: no Node, no DOM; never renders anything as HTML.

import { diffArrays } from 'diff';

export type RowKind = 'context' | 'removed' | 'added';

export interface DiffRow {
  kind: RowKind;
  /** 1-based line number in the old text (context and removed rows). */
  oldLine?: number;
  /** 1-based line number in the new text (context and added rows). */
  newLine?: number;
  /** The line without its line break. */
  text: string;
  /** False only for a last line that has no line break after it. */
  newline: boolean;
  /** The row index of the line this one replaces or is replaced by (a removed line and an added one). */
  pair?: number;
}

export interface TextDiff {
  rows: DiffRow[];
  added: number;
  removed: number;
  identical: boolean;
  /** The line diff took too long and was given up: every old line is shown removed, every new one added. */
  approximate: boolean;
  oldLineCount: number;
  newLineCount: number;
}

export interface TextDiffOptions {
  /** Give up the minimal diff after this long and show the files as replaced (default 2000 ms). */
  timeoutMs?: number;
}

/** Lines with their line breaks: "a\nb" is ["a\n", "b"]; "" is no line at all. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
    lines.push(text.slice(start, at + 1));
    start = at + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

function rowOf(kind: RowKind, token: string, oldLine: number | undefined, newLine: number | undefined): DiffRow {
  const newline = token.endsWith('\n');
  const row: DiffRow = { kind, text: newline ? token.slice(0, -1) : token, newline };
  if (oldLine !== undefined) row.oldLine = oldLine;
  if (newLine !== undefined) row.newLine = newLine;
  return row;
}

/** Pairs the k-th removed line of a block with its k-th added line (GitHub's and Desktop's reading). */
function pairBlocks(rows: DiffRow[]): void {
  let index = 0;
  while (index < rows.length) {
    if (rows[index]!.kind !== 'removed') {
      index++;
      continue;
    }
    const removedFrom = index;
    while (index < rows.length && rows[index]!.kind === 'removed') index++;
    const addedFrom = index;
    while (index < rows.length && rows[index]!.kind === 'added') index++;
    const pairs = Math.min(addedFrom - removedFrom, index - addedFrom);
    for (let k = 0; k < pairs; k++) {
      rows[removedFrom + k]!.pair = addedFrom + k;
      rows[addedFrom + k]!.pair = removedFrom + k;
    }
  }
}

/**
 * The line diff as runs of context, removed and added lines. A line that occurs only on one side can
 * never be common to both, so it is set aside before the diff (git's xdiff and GNU diff do the same:
 * "discard lines with no match") and jsdiff diffs only the lines both sides have: the same minimal
 * number of changes, at a fraction of the cost when the edit is spread over a long file (Myers' is
 * O(N·D), and every line edited in place adds to D). The set-aside lines come back as removed
 * (then added) between the common lines around them.
 */
function lineRuns(
  oldTokens: string[],
  newTokens: string[],
  timeoutMs: number,
): { value: string[]; added: boolean; removed: boolean }[] | undefined {
  const inNew = new Set(newTokens);
  const inOld = new Set(oldTokens);
  const oldKept: number[] = [];
  const newKept: number[] = [];
  oldTokens.forEach((token, index) => inNew.has(token) && oldKept.push(index));
  newTokens.forEach((token, index) => inOld.has(token) && newKept.push(index));
  if (oldKept.length === oldTokens.length && newKept.length === newTokens.length)
    return diffArrays(oldTokens, newTokens, { timeout: timeoutMs });
  const changes = diffArrays(
    oldKept.map((index) => oldTokens[index]!),
    newKept.map((index) => newTokens[index]!),
    { timeout: timeoutMs },
  );
  if (changes === undefined) return undefined;
  // The common lines, as (old index, new index) pairs in order.
  const common: [number, number][] = [];
  let oldAt = 0;
  let newAt = 0;
  for (const change of changes) {
    if (change.added) newAt += change.value.length;
    else if (change.removed) oldAt += change.value.length;
    else for (let k = 0; k < change.value.length; k++) common.push([oldKept[oldAt++]!, newKept[newAt++]!]);
  }
  const runs: { value: string[]; added: boolean; removed: boolean }[] = [];
  const push = (value: string[], added: boolean, removed: boolean) => {
    if (value.length === 0) return;
    const last = runs.at(-1);
    if (last && last.added === added && last.removed === removed) last.value.push(...value);
    else runs.push({ value, added, removed });
  };
  let oldLine = 0;
  let newLine = 0;
  for (const [oldIndex, newIndex] of [...common, [oldTokens.length, newTokens.length] as [number, number]]) {
    push(oldTokens.slice(oldLine, oldIndex), false, true);
    push(newTokens.slice(newLine, newIndex), true, false);
    if (oldIndex < oldTokens.length) push([oldTokens[oldIndex]!], false, false);
    oldLine = oldIndex + 1;
    newLine = newIndex + 1;
  }
  return runs;
}

export function diffTextLines(oldText: string, newText: string, options: TextDiffOptions = {}): TextDiff {
  const oldTokens = splitLines(oldText);
  const newTokens = splitLines(newText);
  const changes = lineRuns(oldTokens, newTokens, options.timeoutMs ?? 2000);
  const approximate = changes === undefined;
  const runs = changes ?? [
    { value: oldTokens, added: false, removed: true, count: oldTokens.length },
    { value: newTokens, added: true, removed: false, count: newTokens.length },
  ];
  const rows: DiffRow[] = [];
  let oldLine = 1;
  let newLine = 1;
  let added = 0;
  let removed = 0;
  for (const run of runs) {
    for (const token of run.value) {
      if (run.added) {
        rows.push(rowOf('added', token, undefined, newLine++));
        added++;
      } else if (run.removed) {
        rows.push(rowOf('removed', token, oldLine++, undefined));
        removed++;
      } else rows.push(rowOf('context', token, oldLine++, newLine++));
    }
  }
  pairBlocks(rows);
  return {
    rows,
    added,
    removed,
    identical: added === 0 && removed === 0,
    approximate,
    oldLineCount: oldTokens.length,
    newLineCount: newTokens.length,
  };
}

// ---------------------------------------------------------------------------------------------
// Hunks, gaps and expand

/** Row indexes [from, to) shown although they lie farther than the context from any change. */
export interface Reveal {
  from: number;
  to: number;
}

export interface HunkHeader {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

export type Segment =
  | { type: 'hunk'; from: number; to: number; header: HunkHeader }
  /** Hidden context rows [from, to): what "expand" can reveal. */
  | { type: 'gap'; from: number; to: number };

export interface LayoutOptions {
  /** Context lines around each change (default 3, as git). */
  context?: number;
  reveals?: readonly Reveal[];
}

export const DEFAULT_CONTEXT_LINES = 3;

/** The header of the rows [from, to): git's `@@ -start,count +start,count @@` numbers. */
export function hunkHeader(diff: TextDiff, from: number, to: number): HunkHeader {
  let oldCount = 0;
  let newCount = 0;
  let oldFirst: number | undefined;
  let newFirst: number | undefined;
  for (let index = from; index < to; index++) {
    const row = diff.rows[index]!;
    if (row.oldLine !== undefined) {
      oldCount++;
      oldFirst ??= row.oldLine;
    }
    if (row.newLine !== undefined) {
      newCount++;
      newFirst ??= row.newLine;
    }
  }
  // With no line on a side, git names the line before the hunk (0 at the top of the file).
  const before = (side: 'oldLine' | 'newLine') => {
    for (let index = from - 1; index >= 0; index--) {
      const line = diff.rows[index]![side];
      if (line !== undefined) return line;
    }
    return 0;
  };
  return { oldStart: oldFirst ?? before('oldLine'), oldCount, newStart: newFirst ?? before('newLine'), newCount };
}

export function formatHunkHeader(header: HunkHeader): string {
  const range = (start: number, count: number) => (count === 1 ? `${start}` : `${start},${count}`);
  return `@@ -${range(header.oldStart, header.oldCount)} +${range(header.newStart, header.newCount)} @@`;
}

/** The rows in hunks (changes with their context, and what was revealed) and the gaps between them, in order. */
export function layoutDiff(diff: TextDiff, options: LayoutOptions = {}): Segment[] {
  const context = Math.max(0, options.context ?? DEFAULT_CONTEXT_LINES);
  const count = diff.rows.length;
  const visible = new Uint8Array(count);
  diff.rows.forEach((row, index) => {
    if (row.kind === 'context') return;
    for (let near = Math.max(0, index - context); near <= Math.min(count - 1, index + context); near++) visible[near] = 1;
  });
  for (const reveal of options.reveals ?? []) {
    for (let index = Math.max(0, reveal.from); index < Math.min(count, reveal.to); index++) visible[index] = 1;
  }
  const segments: Segment[] = [];
  let start = 0;
  while (start < count) {
    const shown = visible[start] === 1;
    let end = start;
    while (end < count && (visible[end] === 1) === shown) end++;
    segments.push(
      shown ? { type: 'hunk', from: start, to: end, header: hunkHeader(diff, start, end) } : { type: 'gap', from: start, to: end },
    );
    start = end;
  }
  return segments;
}

/** Lines "expand" reveals at once. */
export const EXPAND_STEP_LINES = 20;

/**
 * What expanding a gap reveals: `up` shows its last lines (above the hunk below it), `down` its first
 * lines (below the hunk above it), `all` the whole gap.
 */
export function expandGap(gap: { from: number; to: number }, direction: 'up' | 'down' | 'all', step = EXPAND_STEP_LINES): Reveal {
  if (direction === 'all' || gap.to - gap.from <= step) return { from: gap.from, to: gap.to };
  return direction === 'up' ? { from: gap.to - step, to: gap.to } : { from: gap.from, to: gap.from + step };
}

// ---------------------------------------------------------------------------------------------
// The unified diff text

export const NO_NEWLINE_MARKER = '\\ No newline at end of file';

export interface UnifiedOptions {
  oldLabel: string;
  newLabel: string;
  context?: number;
}

/** The hunks as unified diff lines (no file header), each line without its line break. */
export function unifiedHunkLines(diff: TextDiff, context = DEFAULT_CONTEXT_LINES): string[] {
  const lines: string[] = [];
  for (const segment of layoutDiff(diff, { context })) {
    if (segment.type !== 'hunk') continue;
    lines.push(formatHunkHeader(segment.header));
    for (let index = segment.from; index < segment.to; index++) {
      const row = diff.rows[index]!;
      lines.push(`${row.kind === 'added' ? '+' : row.kind === 'removed' ? '-' : ' '}${row.text}`);
      if (!row.newline) lines.push(NO_NEWLINE_MARKER);
    }
  }
  return lines;
}

/** A whole unified diff (`--- old`, `+++ new`, hunks), or "" when the texts are the same. */
export function unifiedDiffText(diff: TextDiff, options: UnifiedOptions): string {
  if (diff.identical) return '';
  return [`--- ${options.oldLabel}`, `+++ ${options.newLabel}`, ...unifiedHunkLines(diff, options.context)].join('\n') + '\n';
}
