import { describe, expect, it } from 'vitest';
import { RECENT_KEY, RECENT_LIMIT, readRecent, rememberRecent } from './recentWorkspaces';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value) };
}

describe('recent workspaces', () => {
  it('keeps the most recent first, without duplicates, up to the limit', () => {
    const storage = memoryStorage();
    for (let i = 0; i < RECENT_LIMIT + 3; i++) rememberRecent(storage, `/w/${i}`);
    rememberRecent(storage, '/w/5');
    const recent = readRecent(storage);
    expect(recent[0]).toBe('/w/5');
    expect(recent).toHaveLength(RECENT_LIMIT);
    expect(new Set(recent).size).toBe(RECENT_LIMIT);
  });

  it('ignores a corrupt stored value instead of failing', () => {
    expect(readRecent(memoryStorage({ [RECENT_KEY]: '{not json' }))).toEqual([]);
    expect(readRecent(memoryStorage({ [RECENT_KEY]: '[1, "/ok", ""]' }))).toEqual(['/ok']);
    expect(readRecent(undefined)).toEqual([]);
  });
});
