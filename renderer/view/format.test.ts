import { describe, expect, it } from 'vitest';
import { formatAge, formatBytes, formatTimestamp, shortHash } from './format';

describe('formatting for people', () => {
  it('shortens a sha256 to its first and last digits, and leaves other text recognisable', () => {
    expect(shortHash(`sha256:0123456789${'a'.repeat(48)}abcdef`)).toBe('01234567…abcdef');
    expect(shortHash('SHA256:short')).toBe('SHA256:short');
  });

  it('gives sizes in binary units', () => {
    expect([0, 1023, 1024, 1536, 5 * 1024 * 1024].map(formatBytes)).toEqual(['0 B', '1023 B', '1.0 KiB', '1.5 KiB', '5.0 MiB']);
  });

  it('shows a timestamp in UTC and in the given zone, keeping the exact text', () => {
    const time = formatTimestamp('2026-06-01T09:00:00.123456789+02:00', 'en-GB', 'Asia/Tokyo');
    expect(time?.utc).toBe('2026-06-01 07:00:00 UTC');
    expect(time?.local).toContain('16:00:00');
    expect(time?.exact).toBe('2026-06-01T09:00:00.123456789+02:00');
    expect(formatTimestamp('2026-02-30T25:00:00Z')).toBeUndefined();
  });

  it('says how long ago, coarsely', () => {
    const now = Date.parse('2026-06-01T12:00:00Z');
    expect(formatAge('2026-06-01T11:58:00Z', now)).toBe('2 minutes ago');
    expect(formatAge('2026-05-30T12:00:00Z', now)).toBe('2 days ago');
  });
});
