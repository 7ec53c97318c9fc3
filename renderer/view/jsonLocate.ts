// Finds where a JSON path (as issues carry it: keys and indexes) sits in the raw text of a document,
// so the raw state view can mark each issue where it is. A key written twice in one object has all
// its places kept: the last (the one that counts) as the path's span, the earlier ones beside it. Tolerant: on text that is not valid JSON it
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
  /** Earlier places of the same key in the same object (a duplicate key), in text order. */
  earlier: TextSpan[];
}

/** Spans by pathKey (the last place of each path), and the earlier places of keys written twice. */
export class JsonIndex extends Map<string, TextSpan> {
  readonly earlier = new Map<string, TextSpan[]>();
}

export const pathKey = (path: readonly (string | number)[]): string => JSON.stringify(path);

/** Spans of every value in the text, keyed by pathKey; a member's span runs from its key to the end of its value. */
export function indexJson(text: string): JsonIndex {
  const index = new JsonIndex();
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
    const key = pathKey(path);
    // Only a key repeated in one object reaches the same path twice: keep the earlier place too.
    const before = index.get(key);
    if (before) index.earlier.set(key, [...(index.earlier.get(key) ?? []), before]);
    index.set(key, { start: Math.min(spanStart, start), end: at });
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
    const key = pathKey(prefix);
    const span = index.get(key);
    const exact = length === path.length;
    if (span) return { ...span, foundPath: prefix, exact, earlier: exact ? (index.earlier.get(key) ?? []) : [] };
  }
  return { start: 0, end: text.length, foundPath: [], exact: path.length === 0, earlier: [] };
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
