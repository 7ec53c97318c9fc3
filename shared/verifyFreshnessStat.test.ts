import { lstatSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SIGNATURE_NUMBERS, msOfNs, sameNumbers, statSignature, writeSignatureNumbers, type NumericStats } from './verifyFreshnessStat';

/** Up to 2^44 ms (the year 2527): where a double's step in ms is at most 2^-9 ms (~2 µs). */
const MAX_TIME_NS = 2n ** 44n * 1_000_000n;
/** Two steps of the double and more: a difference this large always shows. */
const BEYOND_RESOLUTION_NS = 4_000n;

const fields = fc.tuple(
  fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
  fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
  fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
  fc.bigInt({ min: 0n, max: MAX_TIME_NS }),
  fc.bigInt({ min: 0n, max: MAX_TIME_NS }),
);
type Fields = [bigint, bigint, bigint, bigint, bigint];

/** The other signature: one field moved, by any amount for a number, by more than the resolution for a time. */
const moved = fc
  .tuple(fields, fc.integer({ min: 0, max: 4 }), fc.bigInt({ min: 1n, max: 2n ** 40n }), fc.boolean())
  .map(([a, field, by, down]): [Fields, Fields] => {
    const step = field >= 3 ? by + BEYOND_RESOLUTION_NS : by;
    const b = [...a] as Fields;
    b[field] = down && a[field]! >= step ? a[field]! - step : a[field]! + step;
    return [a, b];
  })
  .filter(([, b]) => b[3] <= MAX_TIME_NS && b[4] <= MAX_TIME_NS && b.slice(0, 3).every((n) => n < 2n ** 53n));

const signatureOf = (f: Fields) => statSignature({ dev: f[0], ino: f[1], size: f[2], mtimeNs: f[3], ctimeNs: f[4] });

/** What Node's non-bigint lstat would give for a file with these fields. */
const numericStatsOf = (f: Fields): NumericStats => ({
  dev: Number(f[0]),
  ino: Number(f[1]),
  size: Number(f[2]),
  mtimeMs: msOfNs(f[3]),
  ctimeMs: msOfNs(f[4]),
});

function numbersOf(signature: string): Float64Array {
  const into = new Float64Array(SIGNATURE_NUMBERS);
  expect(writeSignatureNumbers(signature, into, 0)).toBe(true);
  return into;
}

describe('a signature compared as doubles', () => {
  it('agrees with the exact comparison for any two signatures differing in a field beyond the resolution (property)', () => {
    fc.assert(
      fc.property(moved, ([a, b]) => {
        expect(sameNumbers(numericStatsOf(a), numbersOf(signatureOf(a)), 0)).toBe(true);
        expect(sameNumbers(numericStatsOf(b), numbersOf(signatureOf(a)), 0)).toBe(signatureOf(a) === signatureOf(b));
        expect(signatureOf(a)).not.toBe(signatureOf(b));
      }),
      { numRuns: 2000 },
    );
  });

  it('is not written for a field a double cannot hold exactly, nor for a malformed signature', () => {
    const into = new Float64Array(SIGNATURE_NUMBERS);
    expect(writeSignatureNumbers(`${2n ** 53n}:1:1:1:1`, into, 0)).toBe(false);
    expect(writeSignatureNumbers(`1:${2n ** 53n}:1:1:1`, into, 0)).toBe(false);
    expect(writeSignatureNumbers(`1:1:1:${2n ** 53n * 1_000_000_000n}:1`, into, 0)).toBe(false);
    expect(writeSignatureNumbers('1:1:1:1', into, 0)).toBe(false);
    expect(writeSignatureNumbers(`${2n ** 53n - 1n}:1:1:1:1`, into, 0)).toBe(true);
  });

  describe('against the disk', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'signature-numbers-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('matches a file’s non-bigint lstat bit for bit, whatever the nanoseconds of its times', () => {
      const file = path.join(dir, 'f');
      writeFileSync(file, 'x');
      for (const seconds of [1e-9, 1.999999999, 1_700_000_000 + 0.123456789, 1_799_999_999 + 0.999999999, Date.now() / 1000]) {
        utimesSync(file, seconds, seconds);
        const exact = statSignature(lstatSync(file, { bigint: true }));
        expect(sameNumbers(lstatSync(file), numbersOf(exact), 0)).toBe(true);
      }
    });
  });
});
