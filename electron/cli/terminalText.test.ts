import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CR_MARK, ESC_MARK, hasUnsafeCharacter, printable, toTerminal } from './terminalText';
import { makeStyle, table } from './style';

// What a terminal acts on: C0 (but the line break), DEL, C1, and the bidi controls.

const ACTS_ON_TERMINAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const OUR_SEQUENCES = /\u001b\[[0-9;]*m|\r\u001b\[K/g;

/** Strings rich in what an attacker would write: every control, bidi control and the private marks. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '\u001b',
      '\r',
      '\n',
      '\t',
      '\u0007',
      '\u0000',
      '\u007f',
      '\u009b',
      '\u0085',
      '\u202e',
      '\u2066',
      '\u200f',
      ESC_MARK,
      CR_MARK,
    ),
    fc.constantFrom(']0;title', ']52;c;aGk=', '[2J', '[31m', 'a', '/', ' '),
    fc.string({ unit: 'binary', maxLength: 3 }),
  ),
  maxLength: 40,
});

describe('text for the terminal', () => {
  it('escapes every control and bidi character of a value, the line break too', () => {
    expect(printable('a\u001b]0;pwned\u0007b')).toBe('a\\x1b]0;pwned\\x07b');
    expect(printable('one\rtwo\nthree\tfour')).toBe('one\\rtwo\\nthree\\tfour');
    expect(printable('\u009b31m \u007f')).toBe('\\x9b31m \\x7f');
    expect(printable('report\u202eimth.exe')).toBe('report\\u202eimth.exe');
    expect(printable('\u2066x\u2069')).toBe('\\u2066x\\u2069');
    expect(printable('plain/ünïcode 名前 😀')).toBe('plain/ünïcode 名前 😀');
  });

  it('never lets a value fake the styling marks', () => {
    expect(toTerminal(printable(`${ESC_MARK}[31mred${CR_MARK}`))).toBe('\\ue01b[31mred\\ue00d');
  });

  it('keeps its own colours and line breaks, and escapes any other control character in rendered text', () => {
    const style = makeStyle(true, {});
    expect(toTerminal(`${style.red('error')} x\u001b]0;t\u0007\n`)).toBe('\u001b[31merror\u001b[39m x\\x1b]0;t\\x07\n');
  });

  it('lines up table columns by what is visible, not by the styling marks', () => {
    const style = makeStyle(true, {});
    expect(
      toTerminal(
        table([
          [style.bold('ab'), 'x'],
          ['abcd', 'y'],
        ]),
      ),
    ).toBe('\u001b[1mab\u001b[22m    x\nabcd  y');
  });

  it('a value passed through printable holds nothing a terminal acts on, for any input', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const shown = printable(value);
        expect(hasUnsafeCharacter(shown)).toBe(false);
        expect(shown.includes('\n')).toBe(false);
        expect(toTerminal(shown)).toBe(shown);
      }),
      { numRuns: 2000 },
    );
  });

  it('rendered text reaches the terminal with no control character but its own colours and line breaks, for any input', () => {
    const style = makeStyle(true, {});
    fc.assert(
      fc.property(fc.array(fc.tuple(hostile, fc.boolean()), { maxLength: 6 }), (parts) => {
        // A renderer that forgot to escape a value: the net still lets nothing through.
        const text = parts.map(([part, styled]) => (styled ? style.yellow(part) : part)).join('');
        for (const line of toTerminal(text).split('\n')) expect(line.replace(OUR_SEQUENCES, '')).not.toMatch(ACTS_ON_TERMINAL);
      }),
      { numRuns: 2000 },
    );
  });
});
