// Live refresh as the page follows it (docs/live-refresh.md): how the engine watches the workspace,
// and each change it sends (rows read again, verifies taken again, the workspace file re-read).

import type { EventOf } from '../../shared/api';
import { getClient } from '../api/client';
import { noteAutoVerifySkips } from './autoVerifyActions';
import { applyWorkspaceReload, bumpRevisions } from './listUpdates';
import { sideCallsGo } from './listPages';
import { store } from './store';

/** Asks the engine how it watches the open workspace (after an open, a reconnect); the events say each change after. */
export async function refreshLiveRefreshStatus(): Promise<void> {
  await sideCallsGo();
  const answer = await getClient().invoke('liveRefreshStatus', {});
  if (answer.ok) store.set({ liveRefresh: answer.value });
}

/**
 * Applies one live refresh event: destinations that changed on disk come with their new rows (their
 * verify turned stale at once) and every open view of them reloads; a workspace file read again is
 * shown as a Rescan's re-read is, with the rows of what it added or changed; a new watch status is kept.
 */
export function applyLiveRefresh(event: EventOf<'liveRefresh'>): void {
  if (event.kind === 'status') return store.set({ liveRefresh: event.status });
  if (event.kind === 'verified') {
    // Auto-verify: the engine read and verified again what changed on disk; each row goes in with its
    // result, fresh, from that one read.
    const rows = event.entries.map((read) => read.entry);
    const verified = event.entries.flatMap((read) => read.verify ?? []);
    store.set((state) => ({ destinationTable: state.destinationTable.withScan(rows).withVerify(verified) }));
    noteAutoVerifySkips(event);
    bumpRevisions(rows.map((entry) => entry.destination));
    return;
  }
  if (event.kind === 'destinations') {
    store.set((state) => ({ destinationTable: state.destinationTable.withChangedOnDisk(event.changes) }));
    bumpRevisions(event.changes.map((change) => change.entry.destination));
    return;
  }
  if (event.kind === 'sync') {
    // A source bundle changed: the rows' sync is new, the destinations (and their verify) are as they were.
    store.set((state) => ({ destinationTable: state.destinationTable.withScan(event.entries) }));
    bumpRevisions(event.entries.map((entry) => entry.destination));
    return;
  }
  // Another workspace opened meanwhile: this re-read is about one no longer shown.
  if (store.get().workspace?.root !== event.reload.workspace.root) return;
  applyWorkspaceReload(event.reload);
  if (event.entries.length > 0) store.set((state) => ({ destinationTable: state.destinationTable.withScan(event.entries) }));
}

let stopFollowing: (() => void) | undefined;

/** Follows live refresh (once per page, however often it is called). */
export function followLiveRefresh(): () => void {
  stopFollowing ??= getClient().on('liveRefresh', applyLiveRefresh);
  return stopFollowing;
}
