// A large workspace's list on screen a page at a time: appInfo answers its first destinations, the
// list shows them (and their scan rows) at once, and the rest come from workspaceDestinations, each
// page parsed in a task of its own; then the whole list takes the first one's place, with every scan
// result that arrived meanwhile. Scan results for destinations not listed yet are held here, never
// dropped. Never shows a list that another workspace (or a re-read) replaced meanwhile.

import type { ScanEntry, Workspace } from '../../shared/api';
import { getClient } from '../api/client';
import { DestinationTable } from '../view/destinationTable';
import { store } from './store';

/** What appInfo lists at the start: more than a first screen shows, a short answer to parse. */
export const FIRST_DESTINATIONS = 2_000;

/** The rest a page at a time: ~1.4 MB of JSON, parsed in one short task. */
export const DESTINATION_PAGE = 5_000;

/**
 * How long the rest of the list waits for the scan's first rows: asked for beside them, its pages
 * (~1.4 MB of JSON each) would queue on the host's one thread ahead of the first results. A scan
 * slow to start (a remote host connecting) does not hold the list back longer than this.
 */
export const REST_WAITS_FOR_FIRST_ROWS_MS = 1_000;

/** Resolves once `firstRows` does, or after `capMs`, whichever comes first. */
export function afterFirstRows(firstRows: Promise<void>, capMs = REST_WAITS_FOR_FIRST_ROWS_MS): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, capMs);
    void firstRows.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** What the start's side calls wait for (see holdSideCalls); resolved unless a start holds them. */
let sideCallsMayGo: Promise<void> = Promise.resolve();

/**
 * Holds the calls the first screen does not need (the hosts' states, how the workspace is watched,
 * the auto-verify setting, the detail pane of the row the list selects on its own) until `ready`:
 * the host answers on one thread, and at the start they would go out beside the scan whose first
 * rows the page waits for.
 */
export function holdSideCalls(ready: Promise<void>): void {
  sideCallsMayGo = ready;
}

/** Resolves once the side calls may go out (at once, but during a start until its first rows: holdSideCalls). */
export function sideCallsGo(): Promise<void> {
  return sideCallsMayGo;
}

/** The results applied to the whole list per task while it is made ready. */
const APPLY_SLICE = 1_000;

/**
 * Scan results whose destination the partial list does not hold yet; undefined while the whole list is
 * shown. Each paging has its own (a reconnection may page the list again while an earlier paging ends).
 */
let unplaced: ScanEntry[] | undefined;

/** Keeps the results `table` (a partial list) does not place, for the whole list. */
export function holdUnlisted(entries: readonly ScanEntry[], table: DestinationTable): void {
  if (!unplaced) return;
  for (const entry of entries) if (table.row(entry.destination) === undefined) unplaced.push(entry);
}

/**
 * The results to apply to the whole list: those the partial table holds and those held for it, less
 * the ones already applied (by identity: a newer result of the same destination is a new object).
 */
export function resultsToCarry(held: readonly ScanEntry[], waiting: readonly ScanEntry[], applied: ReadonlySet<ScanEntry>): ScanEntry[] {
  const fresh: ScanEntry[] = [];
  for (const entry of held) if (!applied.has(entry)) fresh.push(entry);
  for (const entry of waiting) if (!applied.has(entry)) fresh.push(entry);
  return fresh;
}

/**
 * The whole list of `first` (appInfo's first destinations): its other pages; 'changed' when the list
 * changed meanwhile, 'replaced' when the page shows another list now (nothing more is asked for).
 */
async function restOf(first: Workspace, total: number): Promise<Workspace | 'changed' | 'replaced'> {
  const destinations = [...first.destinations];
  while (destinations.length < total) {
    if (store.get().workspace !== first) return 'replaced';
    const page = await getClient().invoke('workspaceDestinations', { from: destinations.length, count: DESTINATION_PAGE });
    if (!page.ok || page.value.listReadAt !== first.listReadAt || page.value.total !== total) return 'changed';
    if (page.value.destinations.length === 0) return 'changed';
    for (const destination of page.value.destinations) destinations.push(destination);
  }
  return { ...first, destinations };
}

/** The whole list in one answer, when it changed between pages: the one it is now. */
async function wholeListNow(): Promise<Workspace | undefined> {
  const info = await getClient().invoke('appInfo', {});
  return info.ok ? info.value.workspace : undefined;
}

/**
 * Holds the results of destinations not listed yet, from before the first page's results are applied,
 * until showRestOfList (or dropRestOfList, when the first page did not show) ends this paging.
 */
export function expectRestOfList(): void {
  unplaced = [];
}

/** The first page did not show after all: nothing more is held for it. */
export function dropRestOfList(): void {
  unplaced = undefined;
}

/**
 * Shows the whole list in place of `first`, the partial list on screen (expectRestOfList came
 * before): fetched a page a task, built in slices (`pause` between them), the scan results that
 * arrived meanwhile carried over. False when the list on screen is no longer `first`'s.
 */
export async function showRestOfList(first: Workspace, total: number, pause: () => Promise<void>): Promise<boolean> {
  const held = unplaced;
  try {
    const rest = await restOf(first, total);
    if (rest === 'replaced') return false;
    const whole = rest === 'changed' ? await wholeListNow() : rest;
    if (!whole || store.get().workspace !== first) return false;
    let table = await DestinationTable.ofInSlices(whole.root, whole.destinations, pause);
    const applied = new Set<ScanEntry>();
    for (;;) {
      if (store.get().workspace !== first) return false;
      const fresh = resultsToCarry(store.get().destinationTable.scanResults(), held ?? [], applied);
      // Nothing new since the last slice: the swap happens in this same task, so nothing can slip in between.
      if (fresh.length === 0) break;
      for (let start = 0; start < fresh.length; start += APPLY_SLICE) {
        const slice = fresh.slice(start, start + APPLY_SLICE);
        table = table.withScan(slice);
        for (const entry of slice) applied.add(entry);
        await pause();
      }
    }
    store.set({ workspace: whole, destinationTable: table, unlisted: 0 });
    return true;
  } finally {
    if (unplaced === held) unplaced = undefined;
    if (store.get().workspace === first) store.set({ unlisted: 0 });
  }
}
