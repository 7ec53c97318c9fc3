// The list's and the diff's view settings (density, grouping, diff layout), kept in the page's
// localStorage as the browser host keeps its recent workspaces (Electron's renderer has its own
// localStorage, kept across runs in the user data folder). Pure over a storage object; a missing,
// corrupt or unknown value reads as the default, never fatal.

import type { KeyValueStorage } from './recentWorkspaces';

export const VIEW_SETTINGS_KEY = 'distributor-inspector.viewSettings';

export type Density = 'comfortable' | 'compact';
export type GroupBy = 'none' | 'pipeline' | 'host';
export type DiffLayout = 'unified' | 'split';

export interface ViewSettings {
  density: Density;
  groupBy: GroupBy;
  diffLayout: DiffLayout;
}

export const DEFAULT_VIEW_SETTINGS: ViewSettings = { density: 'comfortable', groupBy: 'none', diffLayout: 'unified' };

const ALLOWED: { [K in keyof ViewSettings]: readonly ViewSettings[K][] } = {
  density: ['comfortable', 'compact'],
  groupBy: ['none', 'pipeline', 'host'],
  diffLayout: ['unified', 'split'],
};

function pick<K extends keyof ViewSettings>(parsed: Record<string, unknown>, key: K): ViewSettings[K] {
  const value = parsed[key];
  return (ALLOWED[key] as readonly unknown[]).includes(value) ? (value as ViewSettings[K]) : DEFAULT_VIEW_SETTINGS[key];
}

export function readViewSettings(storage: KeyValueStorage | undefined): ViewSettings {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(VIEW_SETTINGS_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return DEFAULT_VIEW_SETTINGS;
    const record = parsed as Record<string, unknown>;
    return { density: pick(record, 'density'), groupBy: pick(record, 'groupBy'), diffLayout: pick(record, 'diffLayout') };
  } catch {
    return DEFAULT_VIEW_SETTINGS;
  }
}

export function writeViewSettings(storage: KeyValueStorage | undefined, change: Partial<ViewSettings>): ViewSettings {
  const next = { ...readViewSettings(storage), ...change };
  try {
    storage?.setItem(VIEW_SETTINGS_KEY, JSON.stringify(next));
  } catch {
    // Storage full or disabled: the setting lives for this page only.
  }
  return next;
}
