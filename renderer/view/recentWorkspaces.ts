// Recent workspaces for the browser host's open form, kept in localStorage (Electron keeps them in its
// settings file). Pure over a storage object; a corrupt entry is ignored, never fatal.

export const RECENT_KEY = 'distributor-inspector.recentWorkspaces';
export const RECENT_LIMIT = 8;

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function readRecent(storage: KeyValueStorage | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((item): item is string => typeof item === 'string' && item !== '').slice(0, RECENT_LIMIT)
      : [];
  } catch {
    return [];
  }
}

/** Most recent first, no duplicates, at most RECENT_LIMIT. */
export function rememberRecent(storage: KeyValueStorage | undefined, path: string): string[] {
  const next = [path, ...readRecent(storage).filter((item) => item !== path)].slice(0, RECENT_LIMIT);
  try {
    storage?.setItem(RECENT_KEY, JSON.stringify(next));
  } catch {
    // Storage full or disabled: the list lives for this page only.
  }
  return next;
}
