import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW_SETTINGS, readViewSettings, VIEW_SETTINGS_KEY, writeViewSettings } from './viewSettings';

function memoryStorage(initial?: string) {
  const items = new Map<string, string>(initial === undefined ? [] : [[VIEW_SETTINGS_KEY, initial]]);
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
}

describe('view settings', () => {
  it('reads the defaults when nothing was saved, or no storage exists', () => {
    expect(readViewSettings(memoryStorage())).toEqual(DEFAULT_VIEW_SETTINGS);
    expect(readViewSettings(undefined)).toEqual(DEFAULT_VIEW_SETTINGS);
  });

  it('keeps a change across reads and leaves the other settings as they were', () => {
    const storage = memoryStorage();
    writeViewSettings(storage, { density: 'compact' });
    writeViewSettings(storage, { diffLayout: 'split' });
    expect(readViewSettings(storage)).toEqual({ density: 'compact', groupBy: 'none', diffLayout: 'split' });
  });

  it('reads a corrupt file or an unknown value as the default, field by field', () => {
    expect(readViewSettings(memoryStorage('{not json'))).toEqual(DEFAULT_VIEW_SETTINGS);
    expect(readViewSettings(memoryStorage('[1]'))).toEqual(DEFAULT_VIEW_SETTINGS);
    expect(readViewSettings(memoryStorage('{"density":"tiny","groupBy":"host"}'))).toEqual({ ...DEFAULT_VIEW_SETTINGS, groupBy: 'host' });
  });

  it('keeps the setting for the page when the storage refuses to write', () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(writeViewSettings(full, { groupBy: 'pipeline' }).groupBy).toBe('pipeline');
  });
});
