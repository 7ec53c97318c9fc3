// The content diff for people (a unified diff, as `git diff --no-index` prints one) and for scripts
// (the --json document: the ContentDiff plus its hunks and unified text). Every value from a file
// passes printable(): a control character in a diffed line is shown as `\x1b`, never sent raw.
// Pure: text in, text out.

import type { ContentDiff, DiffSide } from '../../shared/contentDiff/contentDiffSchema';
import { sideText } from '../../shared/contentDiff/contentDiffSchema';
import {
  DEFAULT_CONTEXT_LINES,
  diffTextLines,
  formatHunkHeader,
  layoutDiff,
  NO_NEWLINE_MARKER,
  unifiedDiffText,
  type TextDiff,
} from '../../shared/contentDiff/textDiff';
import type { Style } from './style';
import { printable } from './terminalText';

/** The line diff, when both sides have text (a missing file counts as empty). */
export function textDiffOf(diff: ContentDiff): TextDiff | undefined {
  const before = sideText(diff.old.side);
  const after = sideText(diff.new.side);
  if (before === undefined || after === undefined) return undefined;
  return diffTextLines(before, after);
}

function fileName(side: DiffSide, prefix: 'a' | 'b', path: string): string {
  return side.presence === 'absent' ? '/dev/null' : `${prefix}/${path}`;
}

function describeSide(side: DiffSide): string {
  switch (side.presence) {
    case 'file':
      return `${side.sizeBytes.toLocaleString('en-US')} bytes, ${side.sha256}${side.noText === 'binary' ? ', binary' : side.noText === 'too_large' ? ', too large for a line diff' : ''}`;
    case 'absent':
      return side.message;
    case 'not_a_file':
      return `not a regular file: ${side.what}`;
    case 'unavailable':
      return `not available: ${side.reason.message}`;
  }
}

function offsetText(offset: number): string {
  return `${offset.toLocaleString('en-US')} (0x${offset.toString(16)})`;
}

/** The text output: a header naming both sides, then hunks, or the sizes, hashes and first differing offset. */
export function contentDiffText(diff: ContentDiff, style: Style, context = DEFAULT_CONTEXT_LINES): string {
  const path = printable(diff.path);
  const lines: string[] = [style.bold(`diff a/${path} b/${path}`)];
  lines.push(style.dim(`  a: ${printable(diff.old.label)}: ${printable(describeSide(diff.old.side))}`));
  lines.push(style.dim(`  b: ${printable(diff.new.label)}: ${printable(describeSide(diff.new.side))}`));
  if (diff.provenance) lines.push(style.dim(`  ${printable(diff.provenance)}`));
  if (diff.recorded && diff.status) lines.push(style.dim(`  verify: ${diff.status.replace(/_/g, ' ')}`));

  if (diff.verdict === 'same') {
    lines.push('', style.green('The two are the same, byte for byte.'));
    return `${lines.join('\n')}\n`;
  }
  const unavailable = [diff.old, diff.new].find((entry) => entry.side.presence === 'unavailable');
  if (unavailable && unavailable.side.presence === 'unavailable') {
    lines.push('', style.yellow(`No line diff: ${printable(unavailable.side.reason.message)}.`));
    const other = unavailable === diff.old ? diff.new : diff.old;
    const text = sideText(other.side);
    if (other.side.presence === 'file' && text !== undefined) {
      lines.push(`What is ${printable(other.label)} (${other.side.sizeBytes.toLocaleString('en-US')} bytes):`);
      const shown = text.endsWith('\n') ? text.slice(0, -1) : text;
      for (const line of shown.split('\n')) lines.push(`  ${printable(line)}`);
    }
    return `${lines.join('\n')}\n`;
  }
  const notAFile = [diff.old, diff.new].find((entry) => entry.side.presence === 'not_a_file');
  if (notAFile) {
    lines.push('', style.red(`No content to diff: ${printable(notAFile.label)} is ${printable(describeSide(notAFile.side))}.`));
    return `${lines.join('\n')}\n`;
  }
  const textDiff = textDiffOf(diff);
  if (!textDiff) {
    lines.push('', `Binary files ${fileName(diff.old.side, 'a', path)} and ${fileName(diff.new.side, 'b', path)} differ`);
    if (diff.firstDifferingOffset !== undefined) lines.push(`  first differing byte at offset ${offsetText(diff.firstDifferingOffset)}`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(style.bold(`--- ${fileName(diff.old.side, 'a', path)}`), style.bold(`+++ ${fileName(diff.new.side, 'b', path)}`));
  if (textDiff.approximate) lines.push(style.yellow('(the files differ too much for a line-by-line diff in time: shown as replaced)'));
  if (textDiff.identical) {
    // Same text, different bytes cannot happen for decoded UTF-8; say so rather than print nothing.
    lines.push(style.yellow('The texts are the same, but the bytes differ.'));
  }
  for (const segment of layoutDiff(textDiff, { context })) {
    if (segment.type !== 'hunk') continue;
    lines.push(style.cyan(formatHunkHeader(segment.header)));
    for (let index = segment.from; index < segment.to; index++) {
      const row = textDiff.rows[index]!;
      const text = printable(row.text);
      lines.push(row.kind === 'added' ? style.green(`+${text}`) : row.kind === 'removed' ? style.red(`-${text}`) : ` ${text}`);
      if (!row.newline) lines.push(NO_NEWLINE_MARKER);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The --json document: the ContentDiff as the API answers it, plus the hunks and the unified diff when there is a line diff. */
export function contentDiffJson(diff: ContentDiff, context = DEFAULT_CONTEXT_LINES): string {
  const textDiff = diff.verdict === 'differs' ? textDiffOf(diff) : undefined;
  const hunks = textDiff
    ? layoutDiff(textDiff, { context }).flatMap((segment) =>
        segment.type === 'hunk'
          ? [
              {
                ...segment.header,
                lines: textDiff.rows.slice(segment.from, segment.to).map((row) => ({
                  kind: row.kind,
                  ...(row.oldLine !== undefined ? { oldLine: row.oldLine } : {}),
                  ...(row.newLine !== undefined ? { newLine: row.newLine } : {}),
                  text: row.text,
                  ...(row.newline ? {} : { noNewlineAtEnd: true }),
                })),
              },
            ]
          : [],
      )
    : undefined;
  const unified = textDiff
    ? unifiedDiffText(textDiff, {
        oldLabel: fileName(diff.old.side, 'a', diff.path),
        newLabel: fileName(diff.new.side, 'b', diff.path),
        context,
      })
    : undefined;
  return `${JSON.stringify({ ...diff, ...(hunks ? { hunks, unified } : {}) }, null, 2)}\n`;
}
