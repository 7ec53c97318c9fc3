// Finds where a JSON path (as issues carry it: keys and indexes) sits in the raw text of a document,
// so the raw state view can mark each issue where it is. Tolerant: on text that is not valid JSON it
// keeps every location read before the error. Never throws; never evaluates the text.

import type { IssuePath } from '../../shared/issues';

export interface TextSpan {
  /** Offsets into the text, end exclusive. */
  start: number;
  end: number;
}

export interface JsonLocation extends TextSpan {
  /** The path found: the issue's own, or its nearest ancestor when the issue's is absent (a missing field). */
  foundPath: IssuePath;
  exact: boolean;
}

export type JsonIndex = Map<string, TextSpan>;

export const pathKey = (path: readonly (string | number)[]): string => JSON.stringify(path);

/** Spans of every value in the text, keyed by pathKey; a member's span runs from its key to the end of its value. */
export function indexJson(text: string): JsonIndex {
  const index: JsonIndex = new Map();
  let at = 0;
  const fail = (): never => {
    throw stop;
  };
  const skipSpace = () => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\n' || text[at] === '\r' || text[at] === '\t')) at++;
  };
  const readString = (): string => {
    const open = at;
    at++;
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    if (at >= text.length) fail();
    at++;
    try {
      return JSON.parse(text.slice(open, at)) as string;
    } catch {
      return fail();
    }
  };
  const readValue = (path: (string | number)[], spanStart: number): void => {
    skipSpace();
    const start = at;
    const ch = text[at];
    if (ch === '{') {
      at++;
      skipSpace();
      if (text[at] === '}') at++;
      else {
        for (;;) {
          skipSpace();
          if (text[at] !== '"') fail();
          const keyStart = at;
          const key = readString();
          skipSpace();
          if (text[at] !== ':') fail();
          at++;
          readValue([...path, key], keyStart);
          skipSpace();
          if (text[at] === ',') at++;
          else if (text[at] === '}') {
            at++;
            break;
          } else fail();
        }
      }
    } else if (ch === '[') {
      at++;
      skipSpace();
      if (text[at] === ']') at++;
      else {
        for (let i = 0; ; i++) {
          skipSpace();
          readValue([...path, i], at);
          skipSpace();
          if (text[at] === ',') at++;
          else if (text[at] === ']') {
            at++;
            break;
          } else fail();
        }
      }
    } else if (ch === '"') {
      readString();
    } else {
      const literal = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(at, at + 400));
      if (!literal) fail();
      at += literal![0].length;
    }
    index.set(pathKey(path), { start: Math.min(spanStart, start), end: at });
  };
  const stop = new Error('stop');
  try {
    readValue([], 0);
  } catch (cause) {
    if (cause !== stop) throw cause;
  }
  return index;
}

/** Where an issue's path is in the text; the whole document when nothing along the path was read. */
export function locateJsonPath(text: string, path: IssuePath, index: JsonIndex = indexJson(text)): JsonLocation {
  for (let length = path.length; length >= 0; length--) {
    const prefix = path.slice(0, length);
    const span = index.get(pathKey(prefix));
    if (span) return { ...span, foundPath: prefix, exact: length === path.length };
  }
  return { start: 0, end: text.length, foundPath: [], exact: path.length === 0 };
}

/** Line numbers (0-based) a span covers, from precomputed line starts. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

export function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}
