import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellCommand, shellQuote } from './shellQuote';

/** Characters with a meaning to sh, and any other printable one or a multi-byte one. */
const shellish = fc.oneof(
  fc.constantFrom("'", '"', '$', '`', '\\', '\n', '\t', ' ', '*', '?', '[', '!', ';', '&', '|', '~', '#', '(', '{'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);

describe('shellQuote', () => {
  it('leaves a plain word bare and quotes one with shell syntax in it', () => {
    expect(shellQuote('deploy@web.example')).toBe('deploy@web.example');
    expect(shellQuote('[127.0.0.1]:2222')).toBe("'[127.0.0.1]:2222'");
    expect(shellQuote('x $(touch pwned)')).toBe("'x $(touch pwned)'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
  });

  it('gives back every word exactly when sh reads the quoted line', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: shellish }), { minLength: 1, maxLength: 4 }), (words) => {
        const printed = execFileSync('sh', ['-c', `printf '%s\\0' ${shellCommand(words)}`]).toString();
        expect(printed.split('\0').slice(0, -1)).toEqual(words);
      }),
      { numRuns: 40 },
    );
  });
});
