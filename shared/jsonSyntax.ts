// Where JSON text stops being JSON, and which line and column that is, for an issue that says exactly
// where to look (the engine's message) and a raw view that marks that line. Pure, iterative (no
// recursion, so any depth is safe), never throws, never evaluates the text. It accepts exactly what
// JSON.parse accepts (property-tested against it); JSON.parse stays the parser, this only explains.

export interface TextPosition {
  /** 1-based; a line ends at "\n" (so "\r\n" is one line break, as the raw view splits lines). */
  line: number;
  /** 1-based, in characters (Unicode code points), not UTF-16 units or UTF-8 bytes. */
  column: number;
}

export interface JsonSyntaxError extends TextPosition {
  /** UTF-16 offset into the text where the problem is (for a cut-off file: the end of its content). */
  offset: number;
  /** "expected ',' or '}' after a property value", "the file ends inside a string (cut off?)". */
  reason: string;
}

/** Line and column of a UTF-16 offset. */
export function positionAt(text: string, offset: number): TextPosition {
  const end = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  let column = 1;
  for (let at = lineStart; at < end; at++) {
    const unit = text.charCodeAt(at);
    // A surrogate pair is one character: count its high half, skip its low half.
    if (unit >= 0xd800 && unit <= 0xdbff && at + 1 < end) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) at++;
    }
    column++;
  }
  return { line, column };
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
export const isJsonSpace = (unit: number) => unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d;
const isDigit = (unit: number) => unit >= 0x30 && unit <= 0x39;
const isHex = (unit: number) => isDigit(unit) || (unit >= 0x41 && unit <= 0x46) || (unit >= 0x61 && unit <= 0x66);

class Stop {
  constructor(
    readonly offset: number,
    readonly reason: string,
    readonly atEnd: boolean,
  ) {}
}

/** The shown form of the character at an offset: `'}'`, `U+0007`. */
function shown(text: string, offset: number): string {
  const point = text.codePointAt(offset)!;
  return point < 0x20 || point === 0x7f ? `U+${point.toString(16).toUpperCase().padStart(4, '0')}` : `'${String.fromCodePoint(point)}'`;
}

/** The first place the text is not JSON, or undefined when JSON.parse would accept it. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let at = 0;
  const stack: number[] = []; // 0x7b '{' or 0x5b '['
  const fail = (reason: string): never => {
    if (at >= text.length) throw new Stop(text.length, reason, true);
    throw new Stop(at, `${reason}, found ${shown(text, at)}`, false);
  };
  const skipSpace = () => {
    while (at < text.length && isJsonSpace(text.charCodeAt(at))) at++;
  };
  const digits = (what: string) => {
    if (!isDigit(text.charCodeAt(at))) fail(what);
    while (isDigit(text.charCodeAt(at))) at++;
  };
  const readString = () => {
    at++;
    for (;;) {
      if (at >= text.length) fail('a string is not closed');
      const unit = text.charCodeAt(at);
      if (unit === 0x22) {
        at++;
        return;
      }
      if (unit < 0x20) {
        // Only line breaks and spaces after an open string: the file was cut off, not mistyped.
        if (/^[ \t\n\r]*$/.test(text.slice(at))) throw new Stop(text.length, 'a string is not closed', true);
        fail('a control character must be escaped inside a string');
      }
      if (unit === 0x5c) {
        at++;
        const escape = text[at];
        if (escape === 'u') {
          at++;
          for (let i = 0; i < 4; i++, at++) if (!isHex(text.charCodeAt(at))) fail('expected 4 hex digits after \\u');
        } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) at++;
        else fail('expected an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) after a backslash');
      } else at++;
    }
  };
  const readNumber = () => {
    if (text[at] === '-') at++;
    if (text[at] === '0') at++;
    else digits('expected a digit');
    if (text[at] === '.') {
      at++;
      digits('expected a digit after the decimal point');
    }
    if (text[at] === 'e' || text[at] === 'E') {
      at++;
      if (text[at] === '+' || text[at] === '-') at++;
      digits('expected a digit in the exponent');
    }
  };
  const readLiteral = (word: string) => {
    for (let i = 0; i < word.length; i++, at++) if (text[at] !== word[i]) fail(`expected ${word}`);
  };

  try {
    let mode: 'value' | 'key' | 'after' = 'value';
    for (;;) {
      skipSpace();
      if (mode === 'value') {
        const ch = text[at];
        if (ch === '{') {
          at++;
          skipSpace();
          if (text[at] === '}') {
            at++;
            mode = 'after';
          } else {
            stack.push(0x7b);
            mode = 'key';
          }
        } else if (ch === '[') {
          at++;
          skipSpace();
          if (text[at] === ']') {
            at++;
            mode = 'after';
          } else stack.push(0x5b);
        } else {
          if (ch === '"') readString();
          else if (ch === '-' || (ch !== undefined && isDigit(ch.charCodeAt(0)))) readNumber();
          else if (ch === 't') readLiteral('true');
          else if (ch === 'f') readLiteral('false');
          else if (ch === 'n') readLiteral('null');
          else fail('expected a value');
          mode = 'after';
        }
      } else if (mode === 'key') {
        if (text[at] !== '"') fail('expected a property name in double quotes');
        readString();
        skipSpace();
        if (text[at] !== ':') fail("expected ':' after a property name");
        at++;
        mode = 'value';
      } else {
        const open = stack.at(-1);
        if (open === undefined) {
          if (at >= text.length) return undefined;
          fail('expected the end of the file after the top-level value');
        }
        const ch = text[at];
        const close = open === 0x7b ? '}' : ']';
        if (ch === ',') {
          at++;
          mode = open === 0x7b ? 'key' : 'value';
        } else if (ch === close) {
          at++;
          stack.pop();
        } else fail(open === 0x7b ? "expected ',' or '}' after a property value" : "expected ',' or ']' after an array element");
      }
    }
  } catch (stop) {
    if (!(stop instanceof Stop)) throw stop;
    let offset = stop.offset;
    // A file cut off is marked where its content ends, not on the empty line after a final newline.
    if (stop.atEnd) while (offset > 0 && isJsonSpace(text.charCodeAt(offset - 1))) offset--;
    const reason = stop.atEnd ? `the file ends before the JSON is complete (cut off?): ${stop.reason}` : stop.reason;
    return { offset, reason, ...positionAt(text, offset) };
  }
}
