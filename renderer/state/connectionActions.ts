// The link to the engine as the page follows it: its health kept in the store, and everything read
// again (re-inspected) when a lost link comes back.

import type { ConnectionState } from '../../shared/api';
import { getClient } from '../api/client';
import { reportError } from './jobActions';
import { bumpRevisions } from './listUpdates';
import { scan } from './scanActions';
import { selectOneDestination } from './selectionActions';
import { store } from './store';
import { showWorkspace } from './workspaceActions';

/**
 * After a lost link came back: read everything again, since anything may have happened meanwhile (a
 * replace finished or stopped half-way, the host restarted with nothing open). The workspace the host
 * has open now is shown (reopened from its path when a restarted host has none), every destination
 * scanned and every open view reloaded; jobs marked `outcome unknown` are cleared once that is done.
 */
export async function reinspect(sameHost: boolean): Promise<void> {
  store.set({ reconnected: { at: new Date().toISOString(), sameHost, reinspecting: true } });
  const client = getClient();
  const shown = store.get().workspace;
  const info = await client.invoke('appInfo', {});
  if (!info.ok) {
    reportError('Could not read the workspace again after reconnecting', info.error);
    store.set((state) => ({ reconnected: state.reconnected && { ...state.reconnected, reinspecting: false } }));
    return;
  }
  let workspace = info.value.workspace;
  if (!workspace && shown) {
    const reopened = await client.invoke('openWorkspace', { path: shown.path });
    if (!reopened.ok) {
      reportError(`Could not open ${shown.path} again after reconnecting`, reopened.error);
      store.set((state) => ({ reconnected: state.reconnected && { ...state.reconnected, reinspecting: false } }));
      return;
    }
    workspace = reopened.value;
  }
  if (workspace) {
    const keep = store.get().selectedId;
    showWorkspace(workspace);
    if (keep !== undefined && workspace.destinations.some((destination) => destination.id === keep)) selectOneDestination(keep);
    bumpRevisions(workspace.destinations.map((destination) => destination.id));
  }
  store.set((state) => ({
    jobs: state.jobs.filter((job) => !job.outcomeUnknown),
    reconnected: state.reconnected && { ...state.reconnected, reinspecting: false },
  }));
  if (workspace) await scan();
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
