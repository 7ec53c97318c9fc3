import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError, positionAt } from './jsonSyntax';
import { parseJsonObject } from './parseDocument';

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** JSON text, valid or slightly broken: cut, with a character dropped, or one inserted. */
const jsonish = fc.oneof(
  fc.json(),
  fc.tuple(fc.json(), fc.nat()).map(([text, at]) => text.slice(0, at % (text.length + 1))),
  fc.tuple(fc.json(), fc.nat()).map(([text, at]) => text.slice(0, at % (text.length + 1)) + text.slice((at % (text.length + 1)) + 1)),
  fc
    .tuple(
      fc.json(),
      fc.nat(),
      fc.constantFrom(',', '}', ']', '"', ':', '\\', '\n', '\u0001', 'x', '-', '0', 'e', '.', ' ', '\u00e9', '\ud83d\ude00'),
    )
    .map(([text, at, inserted]) => text.slice(0, at % (text.length + 1)) + inserted + text.slice(at % (text.length + 1))),
  fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '1', '-', '.', 'e', 't', 'r', 'u', 'n', ' ', '\\', 'u', '0', 'a') }),
  fc.string({ unit: 'binary' }),
);

describe('findJsonSyntaxError', () => {
  it('finds an error exactly when JSON.parse refuses the text, and never throws', () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        const found = findJsonSyntaxError(text);
        expect(found === undefined).toBe(parses(text));
        if (found) {
          expect(found.offset).toBeGreaterThanOrEqual(0);
          expect(found.offset).toBeLessThanOrEqual(text.length);
          // Everything before the offset is a valid start of a JSON text: the error is not earlier.
          expect(found).toMatchObject(positionAt(text, found.offset));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts any depth of nesting without running out of stack', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(findJsonSyntaxError(deep)).toBeUndefined();
    expect(findJsonSyntaxError(deep.slice(0, -1))?.reason).toContain('cut off');
  });

  it('names the line and column of the first bad character, whatever the line breaks and characters before it', () => {
    // Lines of `"key": "value",` with multibyte and astral characters, LF or CRLF between them; a '#'
    // stands where the next key should start, after some of the line's own text.
    const line = fc.tuple(fc.string({ unit: 'grapheme', maxLength: 6 }), fc.string({ unit: 'grapheme-ascii', maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { minLength: 1, maxLength: 8 }), fc.nat(), (lines, pick) => {
        const bad = pick % lines.length;
        let text = '{';
        let expected = { line: 0, column: 0 };
        lines.forEach(([[key, value], lineBreak], index) => {
          text += lineBreak;
          const member = `${JSON.stringify(key)}: ${JSON.stringify(value)}, `;
          if (index === bad) {
            expected = { line: index + 2, column: [...member].length + 1 };
            text += `${member}#`;
          } else text += member;
        });
        const found = findJsonSyntaxError(`${text}\n"end": 1}`);
        expect(found).toMatchObject({ ...expected, reason: "expected a property name in double quotes, found '#'" });
      }),
    );
  });

  it('marks a file cut off at line 42 at line 42, not on the empty line after its last newline', () => {
    const lines = ['{', '  "outputs": ['];
    while (lines.length < 41) lines.push(`    {"path": "page-${lines.length}.html", "size": 1},`);
    lines.push('    {"path": "café-☕.html", "si');
    // Just after the last character of line 42, counted in characters: é and ☕ are one column each.
    const column = [...lines[41]!].length + 1;
    expect(column).toBe(32);
    for (const lineBreak of ['\n', '\r\n']) {
      const text = lines.join(lineBreak) + lineBreak;
      expect(findJsonSyntaxError(text)).toMatchObject({ line: 42, column });
      const parsed = parseJsonObject(new TextEncoder().encode(text));
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error).toMatchObject({ code: 'invalid_json', path: [], location: { line: 42, column } });
        expect(parsed.error.message).toBe(
          'the file is not valid JSON: line 42, column 32: the file ends before the JSON is complete (cut off?): a string is not closed',
        );
      }
    }
  });

  it('says what it expected and what it found', () => {
    expect(findJsonSyntaxError('{"a": 1 "b": 2}')).toMatchObject({
      line: 1,
      column: 9,
      reason: "expected ',' or '}' after a property value, found '\"'",
    });
    expect(findJsonSyntaxError('[1,]')).toMatchObject({ column: 4, reason: "expected a value, found ']'" });
    expect(findJsonSyntaxError('{"a": "x\u0007"}')).toMatchObject({
      column: 9,
      reason: 'a control character must be escaped inside a string, found U+0007',
    });
    expect(findJsonSyntaxError('{} {}')).toMatchObject({
      column: 4,
      reason: "expected the end of the file after the top-level value, found '{'",
    });
  });
});

describe('positionAt', () => {
  it('counts an astral character as one column and CRLF as one line break', () => {
    const text = 'a\r\n😀é\u0301x';
    expect(positionAt(text, text.indexOf('x'))).toEqual({ line: 2, column: 4 });
    expect(positionAt(text, 0)).toEqual({ line: 1, column: 1 });
  });
});
