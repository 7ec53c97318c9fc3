// Terminal styling for people: colour on a terminal, plain text when piped or NO_COLOR is set.
// Colours are written as marks (terminalText.ts), never as raw ESC: only runCli's last pass, which
// escapes every control character a value could carry, turns them into real sequences.

import { ESC_MARK } from './terminalText';

export interface Style {
  bold: (text: string) => string;
  dim: (text: string) => string;
  red: (text: string) => string;
  green: (text: string) => string;
  yellow: (text: string) => string;
  cyan: (text: string) => string;
}

const plain = (text: string) => text;
const sgr = (open: number, close: number) => (text: string) => `${ESC_MARK}[${open}m${text}${ESC_MARK}[${close}m`;
const STYLE_MARKS = new RegExp(`${ESC_MARK}\\[[0-9;]*m`, 'g');

export function makeStyle(isTerminal: boolean, env: Record<string, string | undefined>): Style {
  const colour = isTerminal && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  if (!colour) return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  return { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), cyan: sgr(36, 39) };
}

/** Left-aligned columns; widths from the longest cell, ignoring colour codes. */
export function table(rows: string[][], gap = 2): string {
  const visible = (cell: string) => cell.replace(STYLE_MARKS, '').length;
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visible(cell))));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - visible(cell) + gap))).join(''))
    .join('\n');
}
