// The link to the engine as the page follows it: its health kept in the store, and everything read
// again (re-inspected) when a lost link comes back.

import type { ApiError, ConnectionState } from '../../shared/api';
import { getClient } from '../api/client';
import { reportError } from './jobActions';
import { bumpRevisions } from './listUpdates';
import { FIRST_DESTINATIONS } from './listPages';
import { scanBesideList, showInPages } from './pagedList';
import { selectOneDestination } from './selectionActions';
import { store } from './store';

/**
 * After a lost link came back: read everything again, since anything may have happened meanwhile (a
 * replace finished or stopped half-way, the host restarted with nothing open). The workspace the host
 * has open now is shown (reopened from its path when a restarted host has none) as the start shows it
 * (pagedList.ts: its first destinations, then the rest a page at a time, never the whole list in one
 * answer), every destination scanned and every open view reloaded; jobs marked `outcome unknown` are
 * cleared once the list is shown. The selection is kept when the list still holds it (chosen again
 * once the page that lists it is in).
 */
export async function reinspect(sameHost: boolean): Promise<void> {
  store.set({ reconnected: { at: new Date().toISOString(), sameHost, reinspecting: true } });
  const done = () =>
    store.set((state) => ({
      jobs: state.jobs.filter((job) => !job.outcomeUnknown),
      reconnected: state.reconnected && { ...state.reconnected, reinspecting: false },
    }));
  const failed = (message: string, error: ApiError) => {
    reportError(message, error);
    store.set((state) => ({ reconnected: state.reconnected && { ...state.reconnected, reinspecting: false } }));
  };
  const client = getClient();
  const shown = store.get().workspace;
  const keep = store.get().selectedId;
  const views = keep === undefined ? [] : [keep, ...store.get().selectedIds];
  const scanning = scanBesideList();
  const info = await client.invoke('appInfo', { firstDestinations: FIRST_DESTINATIONS });
  if (!info.ok) {
    scanning.listShown(false);
    return failed('Could not read the workspace again after reconnecting', info.error);
  }
  let workspace = info.value.workspace;
  let total = info.value.destinationCount ?? workspace?.destinations.length ?? 0;
  if (!workspace && shown) {
    const reopened = await client.invoke('openWorkspace', { path: shown.path });
    if (!reopened.ok) {
      scanning.listShown(false);
      return failed(`Could not open ${shown.path} again after reconnecting`, reopened.error);
    }
    workspace = reopened.value;
    total = workspace.destinations.length;
  }
  if (!workspace) {
    scanning.listShown(false);
    return done();
  }
  const listed = () => keep !== undefined && store.get().destinationTable.row(keep) !== undefined;
  // The selection as the shown list left it: the list picks its first row by itself, a click makes a new set.
  let untouched: ReadonlySet<string> | undefined;
  const whole = showInPages(workspace, total, scanning, () => {
    if (listed()) selectOneDestination(keep!);
    untouched = store.get().selectedIds;
    // The views open on screen are those of the selection: they read their destinations again.
    bumpRevisions(views);
    done();
  });
  // A selection the first page does not list, once the page that lists it is in, unless one was chosen meanwhile.
  if ((await whole) && store.get().selectedIds === untouched && store.get().selectedId !== keep && listed()) selectOneDestination(keep!);
  await scanning.scanned;
}

let stopWatching: (() => void) | undefined;

/** Follows the link's health (once per page, however often it is called): a link back after it was lost re-inspects everything. */
export function watchConnection(): () => void {
  if (stopWatching) return stopWatching;
  let previous: ConnectionState | undefined;
  stopWatching = getClient().onConnection((state) => {
    const wasDown = previous?.status === 'lost' || previous?.status === 'refused';
    const lastInstance = previous?.instance;
    previous = state;
    store.set({ connection: state, ...(state.status === 'lost' || state.status === 'refused' ? { reconnected: undefined } : {}) });
    if (wasDown && state.status === 'connected') void reinspect(lastInstance !== undefined && lastInstance === state.instance);
  });
  return stopWatching;
}

/** Tries a lost link again now. */
export function reconnect(): void {
  getClient().reconnect();
}
