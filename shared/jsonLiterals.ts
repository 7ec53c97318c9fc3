// What JSON.parse forgets about a document's text: how each number was written (`12` or `12.0`,
// `1e0`, `-0`, `1e-400`, `4503599627370497.5` all parse to an integer, or to 0) and which object
// keys appear twice (the last one silently wins). One linear pass over text that JSON.parse has
// already accepted; it allocates only for what it finds, so a clean 10,000-output state costs one
// walk over its characters. Never throws on valid JSON, never evaluates anything.

import type { IssuePath } from './issues';

export interface NumberLiteral {
  path: IssuePath;
  /** The token as written. */
  text: string;
}

export interface DuplicateKey {
  /** The path of the key (the object's path, then the key). */
  path: IssuePath;
  /** How many times it appears in that object (2 or more). */
  count: number;
}

export interface JsonLiterals {
  /** Number tokens not written as a non-negative integer (digits only: no sign, fraction or exponent), up to the limit. */
  notPlainIntegers: NumberLiteral[];
  /** How many there are in all (kept or not because of the limit). */
  notPlainIntegerCount: number;
  /** The longest path every one of them lies under, kept or not (`["outputs"]`); [] when none. */
  notPlainIntegerPrefix: IssuePath;
  /** Keys that appear twice or more in one object, up to the limit. */
  duplicateKeys: DuplicateKey[];
  duplicateKeyCount: number;
  /** The longest path every repeated key lies under, kept or not; [] when none. */
  duplicateKeyPrefix: IssuePath;
}

export interface ScanOptions {
  /** Which number tokens to note, by path and text (all by default): the caller's rule, asked only for unusual tokens. */
  keepNumber?: (path: readonly (string | number)[], text: string) => boolean;
  /** At most this many findings of each kind are kept (all are counted): a hostile file cannot fill memory. */
  limit?: number;
}

// The characters of JSON's syntax, by UTF-16 code unit: also for the clean proof's walk (cleanState.ts).
export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const PLUS = 0x2b;
export const MINUS = 0x2d;
export const DOT = 0x2e;
export const DIGIT_0 = 0x30;
export const DIGIT_9 = 0x39;
export const LOWER_E = 0x65;
export const UPPER_E = 0x45;

/** Past this many keys, an object's keys go into a Set: a linear search would turn quadratic. */
const SET_FROM = 32;

function isNumberChar(code: number): boolean {
  // Digits, '-', '+', '.', 'e', 'E'.
  return (code >= DIGIT_0 && code <= DIGIT_9) || code === MINUS || code === PLUS || code === DOT || code === LOWER_E || code === UPPER_E;
}

/** Scans text that JSON.parse accepted. On anything else it returns what it found before getting lost. */
export function scanJsonLiterals(text: string, options: ScanOptions = {}): JsonLiterals {
  const keepNumber = options.keepNumber ?? (() => true);
  const limit = options.limit ?? Infinity;
  const found: JsonLiterals = {
    notPlainIntegers: [],
    notPlainIntegerCount: 0,
    notPlainIntegerPrefix: [],
    duplicateKeys: [],
    duplicateKeyCount: 0,
    duplicateKeyPrefix: [],
  };
  // One entry per open container: the path key (string or index) of the current member, and
  // whether it is an object. The keys of every open object sit in one flat stack (no allocation per
  // object); keysFrom[d] is where depth d's keys start. A big object gets a Set instead.
  const path: (string | number)[] = [];
  const isObject: boolean[] = [];
  const keys: string[] = [];
  const keysFrom: number[] = [];
  const bigObjects = new Map<number, Set<string>>();
  /** The findings of the open objects that have repeated keys, by depth, then by key. */
  const repeats = new Map<number, Map<string, DuplicateKey>>();
  /** Records the key in the object at `depth`; true when it was there already. */
  const isRepeat = (key: string, depth: number): boolean => {
    const big = bigObjects.get(depth);
    if (big) {
      if (big.has(key)) return true;
      big.add(key);
      return false;
    }
    const from = keysFrom[depth]!;
    for (let k = from; k < keys.length; k++) if (keys[k] === key) return true;
    keys.push(key);
    if (keys.length - from >= SET_FROM) bigObjects.set(depth, new Set(keys.slice(from)));
    return false;
  };
  /** A finding per repeated key of one object: made at its second appearance, counted up after. */
  const noteRepeat = (key: string, depth: number): void => {
    let here = repeats.get(depth);
    if (!here) repeats.set(depth, (here = new Map()));
    const known = here.get(key);
    if (known) {
      known.count++;
      return;
    }
    found.duplicateKeyPrefix = found.duplicateKeyCount === 0 ? path.slice() : sharedStart(found.duplicateKeyPrefix, path);
    found.duplicateKeyCount++;
    const finding = { path: path.slice(), count: 2 };
    here.set(key, finding);
    if (found.duplicateKeys.length < limit) found.duplicateKeys.push(finding);
  };
  let expectKey = false;
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    // Whitespace first: in a pretty-printed state it is most of what is outside strings.
    if (code <= 0x20) {
      i++;
      continue;
    }
    if (code === QUOTE) {
      const end = closingQuote(text, i);
      if (end < 0) return found;
      if (expectKey) {
        let key = text.slice(i + 1, end);
        if (key.includes('\\')) key = JSON.parse(text.slice(i, end + 1)) as string;
        const depth = path.length - 1;
        path[depth] = key;
        if (isRepeat(key, depth)) noteRepeat(key, depth);
        expectKey = false;
      }
      i = end + 1;
    } else if (code === OPEN_OBJECT) {
      path.push('');
      isObject.push(true);
      keysFrom.push(keys.length);
      expectKey = true;
      i++;
    } else if (code === OPEN_ARRAY) {
      path.push(0);
      isObject.push(false);
      keysFrom.push(keys.length);
      expectKey = false;
      i++;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      const depth = path.length - 1;
      keys.length = keysFrom[depth]!;
      if (bigObjects.size > 0) bigObjects.delete(depth);
      if (repeats.size > 0) repeats.delete(depth);
      path.pop();
      isObject.pop();
      keysFrom.pop();
      expectKey = false;
      i++;
    } else if (code === COMMA) {
      const depth = path.length - 1;
      if (isObject[depth]) expectKey = true;
      else path[depth] = (path[depth] as number) + 1;
      i++;
    } else if (code === MINUS || (code >= DIGIT_0 && code <= DIGIT_9)) {
      let end = i + 1;
      let plain = code !== MINUS;
      while (end < length && isNumberChar(text.charCodeAt(end))) {
        const c = text.charCodeAt(end);
        if (c < DIGIT_0 || c > DIGIT_9) plain = false;
        end++;
      }
      if (!plain) {
        const token = text.slice(i, end);
        if (keepNumber(path, token)) {
          found.notPlainIntegerPrefix = found.notPlainIntegerCount === 0 ? path.slice() : sharedStart(found.notPlainIntegerPrefix, path);
          found.notPlainIntegerCount++;
          if (found.notPlainIntegers.length < limit) found.notPlainIntegers.push({ path: path.slice(), text: token });
        }
      }
      i = end;
    } else {
      // Whitespace, ':', and the letters of true, false and null: nothing to note.
      i++;
    }
  }
  return found;
}

/**
 * True exactly when scanJsonLiterals would find nothing in `text` (every number a plain non-negative
 * integer, no key twice in one object), for text that JSON.parse turned into `json`. The quick pass of
 * the scan, ~2x faster than scanJsonLiterals: it only counts the keys as written (no key is sliced out
 * or compared) and compares that with the keys `json` has; one object with a repeated key has fewer
 * parsed keys than written ones, so equal totals mean no repeat anywhere. A false sends the caller to
 * scanJsonLiterals for the findings and their paths (property-tested to agree).
 */
export function hasOnlyPlainLiterals(text: string, json: unknown): boolean {
  // Whether each open container is an object: a key follows '{' and a ',' inside an object.
  const inObject: boolean[] = [];
  let expectKey = false;
  let writtenKeys = 0;
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code <= 0x20) {
      i++;
    } else if (code === QUOTE) {
      const end = closingQuote(text, i);
      if (end < 0) return false;
      if (expectKey) {
        writtenKeys++;
        expectKey = false;
      }
      i = end + 1;
    } else if (code === OPEN_OBJECT) {
      inObject.push(true);
      expectKey = true;
      i++;
    } else if (code === OPEN_ARRAY) {
      inObject.push(false);
      expectKey = false;
      i++;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      inObject.pop();
      expectKey = false;
      i++;
    } else if (code === COMMA) {
      expectKey = inObject[inObject.length - 1] === true;
      i++;
    } else if (code >= DIGIT_0 && code <= DIGIT_9) {
      i++;
      while (i < length) {
        const c = text.charCodeAt(i);
        if (c >= DIGIT_0 && c <= DIGIT_9) i++;
        else if (isNumberChar(c)) return false;
        else break;
      }
    } else if (code === MINUS) {
      return false;
    } else {
      // ':', and the letters of true, false and null.
      i++;
    }
  }
  return writtenKeys === parsedKeyCount(json);
}

/** How many keys all the objects in a parsed JSON value hold, together. */
function parsedKeyCount(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) count += parsedKeyCount(value[i]);
    return count;
  }
  for (const key in value) {
    // JSON.parse makes plain objects: every enumerable key is an own one.
    count++;
    count += parsedKeyCount((value as Record<string, unknown>)[key]);
  }
  return count;
}

/** The longest start `prefix` and `path` share: `prefix` itself when it is one already (no allocation). */
function sharedStart(prefix: IssuePath, path: readonly (string | number)[]): IssuePath {
  let length = 0;
  while (length < prefix.length && length < path.length && prefix[length] === path[length]) length++;
  return length === prefix.length ? prefix : prefix.slice(0, length);
}

/** The index of the quote that closes the string opening at `open`, or -1. indexOf runs far faster than a loop. */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    // Escaped when an odd number of backslashes stand right before it.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
