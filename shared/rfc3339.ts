// RFC 3339 timestamps, parsed and compared as instants at full precision.
// Never uses Date for comparison: Date keeps milliseconds, the publisher writes nanoseconds.

import type { Result } from './result';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

export interface Instant {
  /** Whole seconds since 1970-01-01T00:00:00Z. */
  epochSeconds: bigint;
  /** Fractional digits of the second, without trailing zeros ("" for none). */
  fraction: string;
}

/** An instant, or why the text is not one (a phrase: "has month 13, which does not exist"). */
export type TimestampResult = Result<Instant, string>;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days from 1970-01-01 to the given civil date (proleptic Gregorian). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** The fields of a timestamp that is a real date and time, or why it is not one. */
interface TimestampFields {
  year: number;
  month: number;
  day: number;
  secondOfDay: number;
  offsetMinutes: number;
  fraction: string;
}

function timestampFields(text: string): TimestampFields | string {
  const match = RFC3339.exec(text);
  if (!match) return 'is not an RFC 3339 timestamp like 2026-06-04T12:00:00Z';
  const [, y, mo, d, h, mi, s, frac = '', zulu, sign, oh, om] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12) return `has month ${mo}, which does not exist`;
  if (day < 1 || day > daysInMonth(year, month)) return `has day ${d}, which ${y}-${mo} does not have`;
  if (hour > 23) return `has hour ${h}, which does not exist`;
  if (minute > 59) return `has minute ${mi}, which does not exist`;
  // A leap second (:60) cannot be ordered as an instant without a leap table; the publisher never writes one.
  if (second > 59) return `has second ${s}, which is out of range`;
  let offsetMinutes = 0;
  if (!zulu) {
    const offsetHours = Number(oh);
    const offsetMins = Number(om);
    if (offsetHours > 23 || offsetMins > 59) return `has offset ${sign}${oh}:${om}, which is out of range`;
    offsetMinutes = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  return { year, month, day, secondOfDay: hour * 3600 + minute * 60 + second, offsetMinutes, fraction: frac };
}

export function parseRfc3339(text: string): TimestampResult {
  const fields = timestampFields(text);
  if (typeof fields === 'string') return { ok: false, error: fields };
  const { year, month, day, secondOfDay, offsetMinutes, fraction } = fields;
  const localSeconds = BigInt(daysFromCivil(year, month, day)) * 86400n + BigInt(secondOfDay);
  return {
    ok: true,
    value: { epochSeconds: localSeconds - BigInt(offsetMinutes * 60), fraction: fraction.replace(/0+$/, '') },
  };
}

/** Whether parseRfc3339 accepts the text, without building its instant (two per state of a scan). */
export function isRfc3339(text: string): boolean {
  return typeof timestampFields(text) !== 'string';
}

/** -1, 0 or 1, like a sort comparator: a before b, same instant, a after b. */
export function compareInstants(a: Instant, b: Instant): -1 | 0 | 1 {
  if (a.epochSeconds !== b.epochSeconds) return a.epochSeconds < b.epochSeconds ? -1 : 1;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, '0');
  const fb = b.fraction.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/** Compares two timestamps that are known to be valid (schema-checked). */
export function compareTimestamps(a: string, b: string): -1 | 0 | 1 {
  const pa = parseRfc3339(a);
  const pb = parseRfc3339(b);
  if (!pa.ok || !pb.ok) throw new Error(`compareTimestamps needs valid timestamps, got ${JSON.stringify(a)} and ${JSON.stringify(b)}`);
  return compareInstants(pa.value, pb.value);
}

/** Formats a Date as RFC 3339 UTC with milliseconds, the form the inspector itself writes. */
export function formatRfc3339Utc(date: Date): string {
  return date.toISOString();
}
