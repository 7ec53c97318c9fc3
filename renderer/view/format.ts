// Formatting for people: sizes, shortened hashes, timestamps in local time and UTC. Pure.
// Never used for comparing times: Date keeps milliseconds only (shared/rfc3339.ts compares).

// One wording of sizes for the engine's messages and the page.
export { formatBytes } from '../../shared/byteSize';

/** `sha256:71fde385…8e257a`: enough to tell hashes apart at a glance; the full one is copied. */
export function shortHash(hash: string): string {
  const match = /^sha256:([0-9a-f]{64})$/.exec(hash);
  if (!match) return hash.length > 24 ? `${hash.slice(0, 20)}…` : hash;
  return `${match[1]!.slice(0, 8)}…${match[1]!.slice(-6)}`;
}

export interface TimeText {
  local: string;
  utc: string;
  /** The text as written, at its full precision. */
  exact: string;
}

export function formatTimestamp(text: string, locale?: string, timeZone?: string): TimeText | undefined {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return undefined;
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  };
  const local = new Intl.DateTimeFormat(
    locale,
    timeZone ? { ...options, timeZone, timeZoneName: 'short' } : { ...options, timeZoneName: 'short' },
  ).format(date);
  const utc = `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return { local, utc, exact: text };
}

/** "3 minutes ago" style, for lists; coarse on purpose. */
export function formatAge(text: string, now: number = Date.now()): string {
  const then = new Date(text).getTime();
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 0) return 'in the future';
  const steps: [number, string][] = [
    [60, 'second'],
    [60, 'minute'],
    [24, 'hour'],
    [30, 'day'],
    [12, 'month'],
  ];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (value < size) return `${value} ${unit}${value === 1 ? '' : 's'} ago`;
    value = Math.floor(value / size);
  }
  return `${value} year${value === 1 ? '' : 's'} ago`;
}

export { plural } from '../../shared/plural';
