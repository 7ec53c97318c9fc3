import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareInstants, compareTimestamps, formatRfc3339Utc, isRfc3339, parseRfc3339 } from './rfc3339';

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/**
 * A timestamp for an instant given as whole seconds plus a fraction (any digits), written at a
 * given offset. Date only renders the civil fields of whole seconds here; it never compares.
 */
function render(epochSeconds: number, fraction: string, offsetMinutes: number): string {
  const local = new Date((epochSeconds + offsetMinutes * 60) * 1000).toISOString().slice(0, 19);
  const zone =
    offsetMinutes === 0
      ? 'Z'
      : `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${local}${fraction === '' ? '' : `.${fraction}`}${zone}`;
}

/** The instant in picoseconds-and-below as one BigInt: the oracle the comparison must agree with. */
function exactValue(epochSeconds: number, fraction: string): bigint {
  return BigInt(epochSeconds) * 10n ** 12n + BigInt(fraction.padEnd(12, '0').slice(0, 12) || '0');
}

// Years 0001..9998 at any offset stay inside the four-digit years RFC 3339 allows.
const epochSeconds = fc.integer({ min: -62_135_596_800 + 86_400, max: 253_402_300_799 - 86_400 });
const fraction = fc.stringMatching(/^[0-9]{0,12}$/);
const offsetMinutes = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
const timestamp = fc
  .record({ epochSeconds, fraction, offsetMinutes })
  .map((t) => ({ ...t, text: render(t.epochSeconds, t.fraction, t.offsetMinutes) }));

describe('RFC 3339 timestamps', () => {
  it.each([
    '2026-06-04T12:00:00Z',
    '2026-06-04T14:00:00+02:00',
    '2026-06-04T12:00:00.123456789Z',
    '2026-06-04T12:00:00.1Z',
    '2026-06-04t12:00:00z',
    '2026-06-04T12:00:00-00:00',
    '2024-02-29T00:00:00Z',
    '2000-02-29T23:59:59+23:59',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999999999999Z',
  ])('accepts %s', (text) => {
    expect(parseRfc3339(text).ok).toBe(true);
  });

  it.each([
    ['2026-13-01T00:00:00Z', 'month 13'],
    ['2026-00-01T00:00:00Z', 'month 00'],
    ['2026-02-30T00:00:00Z', 'day 30'],
    ['2026-02-29T00:00:00Z', 'day 29'],
    ['1900-02-29T00:00:00Z', 'day 29'],
    ['2026-04-31T00:00:00Z', 'day 31'],
    ['2026-06-00T00:00:00Z', 'day 00'],
    ['2026-06-04T25:00:00Z', 'hour 25'],
    ['2026-06-04T24:00:00Z', 'hour 24'],
    ['2026-06-04T12:60:00Z', 'minute 60'],
    ['2026-06-04T12:00:60Z', 'second 60'],
    ['2026-06-04T12:00:00+24:00', 'offset'],
    ['2026-06-04T12:00:00+02:60', 'offset'],
    ['2026-06-04T12:00:00', 'not an RFC 3339'],
    ['2026-06-04', 'not an RFC 3339'],
    ['2026-06-04 12:00:00Z', 'not an RFC 3339'],
    ['2026-06-04T12:00:00.Z', 'not an RFC 3339'],
    ['2026-06-04T12:00Z', 'not an RFC 3339'],
    ['2026-06-04T12:00:00+0200', 'not an RFC 3339'],
    ['12026-06-04T12:00:00Z', 'not an RFC 3339'],
    ['2026-06-04T12:00:00Z ', 'not an RFC 3339'],
    ['٢٠٢٦-06-04T12:00:00Z', 'not an RFC 3339'],
    ['', 'not an RFC 3339'],
  ])('refuses %s (%s)', (text, because) => {
    expect(parseRfc3339(text)).toMatchObject({ ok: false, error: expect.stringContaining(because) });
    expect(isRfc3339(text)).toBe(false);
  });

  it('tells apart timestamps one nanosecond and one microsecond apart', () => {
    expect(compareTimestamps('2026-06-04T12:00:00.123456789Z', '2026-06-04T12:00:00.123456788Z')).toBe(1);
    expect(compareTimestamps('2026-06-04T12:00:00.000001Z', '2026-06-04T12:00:00Z')).toBe(1);
    expect(compareTimestamps('2026-06-04T12:00:00.000001Z', '2026-06-04T12:00:00.000002Z')).toBe(-1);
  });

  it('compares offsets as instants, and trailing zeros as the same instant', () => {
    expect(compareTimestamps('2026-06-04T14:00:00+02:00', '2026-06-04T12:00:00Z')).toBe(0);
    expect(compareTimestamps('2026-06-04T00:30:00+01:00', '2026-06-03T23:30:00Z')).toBe(0);
    expect(compareTimestamps('2026-06-03T20:00:00-04:00', '2026-06-04T00:00:00Z')).toBe(0);
    expect(compareTimestamps('2026-06-04T12:00:00.5Z', '2026-06-04T12:00:00.500000Z')).toBe(0);
    expect(compareTimestamps('2026-06-04T13:59:59+02:00', '2026-06-04T12:00:00Z')).toBe(-1);
  });

  it('throws only when handed an invalid timestamp, which schema-checked data never holds', () => {
    expect(() => compareTimestamps('2026-02-30T00:00:00Z', '2026-06-04T12:00:00Z')).toThrow(/valid timestamps/);
  });

  it('agrees with exact BigInt arithmetic on the instants, at any offset and precision', () => {
    fc.assert(
      fc.property(timestamp, timestamp, (a, b) => {
        const expected = exactValue(a.epochSeconds, a.fraction) - exactValue(b.epochSeconds, b.fraction);
        expect(compareTimestamps(a.text, b.text)).toBe(expected === 0n ? 0 : expected < 0n ? -1 : 1);
      }),
      { numRuns: 2000 },
    );
  });

  it('compares one instant written at different offsets as equal', () => {
    fc.assert(
      fc.property(epochSeconds, fraction, offsetMinutes, offsetMinutes, (seconds, digits, first, second) => {
        expect(compareTimestamps(render(seconds, digits, first), render(seconds, digits, second))).toBe(0);
      }),
    );
  });

  it('is antisymmetric', () => {
    fc.assert(
      fc.property(timestamp, timestamp, (a, b) => {
        expect(compareTimestamps(a.text, b.text)).toBe(-compareTimestamps(b.text, a.text) || 0);
      }),
      { numRuns: 1000 },
    );
  });

  it('is transitive: sorted by itself, every earlier timestamp compares at most equal to every later one', () => {
    fc.assert(
      fc.property(fc.array(timestamp, { minLength: 3, maxLength: 6 }), (stamps) => {
        const sorted = stamps.map((stamp) => stamp.text).sort(compareTimestamps);
        for (let i = 0; i < sorted.length; i++)
          for (let j = i + 1; j < sorted.length; j++) expect(compareTimestamps(sorted[i]!, sorted[j]!)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps no trailing zeros in the fraction of a parsed instant', () => {
    expect(parseRfc3339('2026-06-04T12:00:00.120Z')).toMatchObject({ ok: true, value: { fraction: '12' } });
  });

  it('reads an instant as whole seconds since the epoch, whatever its offset', () => {
    expect(parseRfc3339('1970-01-01T00:00:01Z')).toMatchObject({ ok: true, value: { epochSeconds: 1n } });
    expect(parseRfc3339('1970-01-01T01:00:00+01:00')).toMatchObject({ ok: true, value: { epochSeconds: 0n } });
  });

  it('compares parsed instants: one second after the epoch is later than the epoch written at +01:00', () => {
    const later = parseRfc3339('1970-01-01T00:00:01Z');
    const epoch = parseRfc3339('1970-01-01T01:00:00+01:00');
    if (!later.ok || !epoch.ok) throw new Error('both are valid RFC 3339 timestamps');
    expect(compareInstants(later.value, epoch.value)).toBe(1);
    expect(compareInstants(epoch.value, later.value)).toBe(-1);
  });

  it('writes its own timestamps as UTC with milliseconds, which it then accepts', () => {
    const text = formatRfc3339Utc(new Date(Date.UTC(2026, 5, 4, 12, 0, 0, 7)));
    expect(text).toBe('2026-06-04T12:00:00.007Z');
    expect(isRfc3339(text)).toBe(true);
  });

  it('says a text is a timestamp exactly when it parses as one, without building the instant', () => {
    const nearTimestamp = fc.stringMatching(
      /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{0,3})?([Zz]|[+-][0-9]{2}:[0-9]{2})?$/,
    );
    fc.assert(
      fc.property(
        fc.oneof(
          nearTimestamp,
          fc.string(),
          timestamp.map((t) => t.text),
        ),
        (text) => {
          expect(isRfc3339(text)).toBe(parseRfc3339(text).ok);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
