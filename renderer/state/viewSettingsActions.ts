// The list's view settings in the store (density, grouping), read from the page's storage once at
// start and written back on each change (renderer/view/viewSettings.ts says how they are kept).

import { readViewSettings, writeViewSettings, type Density, type GroupBy, type ViewSettings } from '../view/viewSettings';
import { store } from './store';

function pageStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function savedViewSettings(): ViewSettings {
  return readViewSettings(pageStorage());
}

export function saveViewSettings(change: Partial<ViewSettings>): void {
  writeViewSettings(pageStorage(), change);
}

/** Before the first render: the list opens as the user left it. */
export function loadViewSettings(): void {
  const saved = savedViewSettings();
  store.set((state) => ({ density: saved.density, filter: { ...state.filter, group: saved.groupBy } }));
}

export function setDensity(density: Density): void {
  store.set({ density });
  saveViewSettings({ density });
}

export function setGroupBy(group: GroupBy): void {
  store.set((state) => ({ filter: { ...state.filter, group } }));
  saveViewSettings({ groupBy: group });
}
