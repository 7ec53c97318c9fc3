import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasOnlyPlainLiterals, scanJsonLiterals, type JsonLiterals } from './jsonLiterals';

/** A slow, step-by-step reference: recursive descent with one regular expression per token. */
function reference(text: string): Pick<JsonLiterals, 'notPlainIntegers' | 'duplicateKeys'> {
  const notPlainIntegers: JsonLiterals['notPlainIntegers'] = [];
  const duplicateKeys: JsonLiterals['duplicateKeys'] = [];
  let at = 0;
  const space = () => {
    at += /^[ \t\n\r]*/.exec(text.slice(at))![0].length;
  };
  const string = (): string => {
    const token = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(at))![0];
    at += token.length;
    return JSON.parse(token);
  };
  const value = (path: (string | number)[]): void => {
    space();
    const ch = text[at];
    if (ch === '{') {
      at++;
      const counts = new Map<string, number>();
      const mine: JsonLiterals['duplicateKeys'] = [];
      space();
      if (text[at] === '}') return void at++;
      for (;;) {
        space();
        const key = string();
        counts.set(key, (counts.get(key) ?? 0) + 1);
        if (counts.get(key) === 2) {
          const found = { path: [...path, key], count: 2 };
          duplicateKeys.push(found);
          mine.push(found);
        }
        space();
        at++; // ':'
        value([...path, key]);
        space();
        if (text[at++] === '}') break;
      }
      for (const found of mine) found.count = counts.get(String(found.path[path.length]))!;
    } else if (ch === '[') {
      at++;
      space();
      if (text[at] === ']') return void at++;
      for (let index = 0; ; index++) {
        value([...path, index]);
        space();
        if (text[at++] === ']') break;
      }
    } else if (ch === '"') string();
    else {
      const token = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(at))![0];
      at += token.length;
      if (/^[-\d]/.test(token) && !/^\d+$/.test(token)) notPlainIntegers.push({ path, text: token });
    }
  };
  value([]);
  return { notPlainIntegers, duplicateKeys };
}

/** JSON text with numbers in every spelling, random spacing and some repeated keys. */
const number = fc.oneof(
  fc.nat().map(String),
  fc.constantFrom('12.0', '1e0', '1.2e1', '-0', '1e-400', '4503599627370497.5', '-12', '0.5', '1E+2', '0'),
);
const key = fc.constantFrom('size', 'path', 'a', 'é', 'say \\"hi\\"', 'a\\u0062', 'ab', '');
const gap = fc.constantFrom('', ' ', '\n  ', '\t');
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    number,
    fc.constantFrom('true', 'false', 'null', '"x"', '"a,b:{[}]"', '"\\\\"', '"\\"quoted\\""'),
    fc.array(fc.tuple(gap, tie('value')), { maxLength: 4 }).map((items) => `[${items.map(([g, v]) => `${g}${v}`).join(',')}]`),
    fc
      .array(fc.tuple(key, gap, tie('value')), { maxLength: 5 })
      .map((members) => `{${members.map(([k, g, v]) => `${g}"${k}"${g}:${g}${v}`).join(',')}}`),
  ),
})).value;

describe('how a JSON text was written', () => {
  it('finds every number not written as a plain non-negative integer, with its path', () => {
    const text = '{"outputs":[{"size":12},{"size":12.0},{"size":1e0},{"size":-0}],"n":[1e-400, 4503599627370497.5, 0, 7]}';
    expect(scanJsonLiterals(text).notPlainIntegers).toEqual([
      { path: ['outputs', 1, 'size'], text: '12.0' },
      { path: ['outputs', 2, 'size'], text: '1e0' },
      { path: ['outputs', 3, 'size'], text: '-0' },
      { path: ['n', 0], text: '1e-400' },
      { path: ['n', 1], text: '4503599627370497.5' },
    ]);
  });

  it('finds keys that appear twice or more in one object, by their decoded name, not across objects', () => {
    const text = '{"a":1,"b":{"a":2},"\\u0061":3,"c":[{"x":1},{"x":2}],"a":4}';
    expect(scanJsonLiterals(text).duplicateKeys).toEqual([{ path: ['a'], count: 3 }]);
  });

  it('counts repeats per object, also for two objects at one path (a repeated key holding objects)', () => {
    const text = '{"a":{"x":1,"x":2},"a":{"x":1,"x":2,"x":3}}';
    expect(scanJsonLiterals(text).duplicateKeys).toEqual([
      { path: ['a', 'x'], count: 2 },
      { path: ['a'], count: 2 },
      { path: ['a', 'x'], count: 3 },
    ]);
  });

  it('finds a repeat among the many keys of a big object, without a quadratic search', () => {
    const members = Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`);
    const text = `{${members.join(',')},"k49999":0}`;
    const started = performance.now();
    expect(scanJsonLiterals(text).duplicateKeys).toEqual([{ path: ['k49999'], count: 2 }]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('is not misled by quotes, brackets, commas and digits inside strings', () => {
    const text = '{"p\\\\":"1.5, [\\"x\\": {2e3}","q":"\\\\","r":[ "]" , 1.5 ]}';
    expect(scanJsonLiterals(text)).toEqual({
      notPlainIntegers: [{ path: ['r', 1], text: '1.5' }],
      notPlainIntegerCount: 1,
      notPlainIntegerPrefix: ['r', 1],
      duplicateKeys: [],
      duplicateKeyCount: 0,
      duplicateKeyPrefix: [],
    });
  });

  it('keeps at most `limit` findings of each kind but counts them all', () => {
    const text = `[${Array.from({ length: 50 }, () => '{"a":1.5,"a":2}').join(',')}]`;
    const found = scanJsonLiterals(text, { limit: 3 });
    expect([found.notPlainIntegers.length, found.notPlainIntegerCount, found.duplicateKeys.length, found.duplicateKeyCount]).toEqual([
      3, 50, 3, 50,
    ]);
    // Where they all are, also the ones not kept: in the one top-level array.
    expect([found.notPlainIntegerPrefix, found.duplicateKeyPrefix]).toEqual([[], []]);
    const nested = scanJsonLiterals(`{"outputs":[${Array.from({ length: 5 }, () => '{"size":1.0}').join(',')}]}`, { limit: 1 });
    expect(nested.notPlainIntegerPrefix).toEqual(['outputs']);
  });

  it('asks the caller which unusual numbers to keep', () => {
    const found = scanJsonLiterals('{"size":1.0,"other":1.0}', { keepNumber: (path) => path[path.length - 1] === 'size' });
    expect(found.notPlainIntegers).toEqual([{ path: ['size'], text: '1.0' }]);
  });

  it('agrees with a step-by-step reference on any JSON text (property)', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        JSON.parse(text); // the generator writes valid JSON only
        const { notPlainIntegers, duplicateKeys } = scanJsonLiterals(text);
        expect({ notPlainIntegers, duplicateKeys }).toEqual(reference(text));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the quick pass over a clean text', () => {
  const isClean = (text: string) => {
    const found = scanJsonLiterals(text);
    return found.notPlainIntegerCount === 0 && found.duplicateKeyCount === 0;
  };
  // Keys that JSON.parse treats specially or that only repeat once decoded.
  const trickyText = fc
    .array(
      fc.tuple(
        fc.constantFrom('__proto__', 'constructor', 'a', 'a\u0062', 'ab', '\u005f_proto__'),
        fc.constantFrom('1', '{}', '[1,{"x":2}]'),
      ),
      {
        maxLength: 4,
      },
    )
    .map((members) => `{${members.map(([k, v]) => `"${k}":${v}`).join(',')}}`);

  it('says clean exactly when scanJsonLiterals finds nothing, on any JSON text', () => {
    fc.assert(
      fc.property(fc.oneof(jsonText, fc.json(), trickyText), (text) => {
        expect(hasOnlyPlainLiterals(text, JSON.parse(text))).toBe(isClean(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('sees both verdicts often among the generated texts, so the agreement above is not vacuous', () => {
    // A fixed seed: this pins the generator's mix, not the predicate, so a rare draw must not fail it.
    const samples = fc.sample(fc.oneof(jsonText, trickyText), { numRuns: 2000, seed: 27 });
    const clean = samples.filter(isClean).length;
    expect(clean).toBeGreaterThan(200);
    expect(samples.length - clean).toBeGreaterThan(200);
  });

  it('finds the one repeated key of a big state, whose other keys are all distinct', () => {
    const members = Array.from({ length: 2000 }, (_, i) => `{"path":"p${i}","size":${i}}`);
    const clean = `{"outputs":[${members.join(',')}]}`;
    expect(hasOnlyPlainLiterals(clean, JSON.parse(clean))).toBe(true);
    const repeated = clean.replace('"p1500","size"', '"p1500","path":"q","size"');
    expect(hasOnlyPlainLiterals(repeated, JSON.parse(repeated))).toBe(false);
    const fraction = clean.replace('"size":1500}', '"size":1500.0}');
    expect(hasOnlyPlainLiterals(fraction, JSON.parse(fraction))).toBe(false);
  });
});
