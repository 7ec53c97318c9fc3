// The list's updates every other action shares: a destination's open views told to reload (its
// revision bumped), and a re-read workspace shown with the results that still apply.

import type { ResponseOf } from '../../shared/api';
import { hasWorkspaceChanges } from '../../shared/workspaceReload';
import { dropFromSelection } from './selectionActions';
import { store } from './store';

/** Tells the open views of these destinations to read them again. */
export function bumpRevisions(ids: readonly string[]): void {
  store.set((state) => {
    const revisions = new Map(state.revisions);
    for (const id of ids) revisions.set(id, (revisions.get(id) ?? 0) + 1);
    return { revisions };
  });
}

/**
 * Shows a re-read of the open workspace (Rescan; live refresh): the list as the engine now has it, the
 * results of destinations that stayed as they were kept, those of added, removed or reconfigured ones
 * gone. A workspace file that no longer loads comes back with the last good list and its problem,
 * which the page shows beside that list. A re-read that changed nothing leaves the status bar's word on
 * the last one that did: live refresh often reads an edit before the Rescan that follows it, and that
 * Rescan must not make the edit's "1 added" vanish.
 */
export function applyWorkspaceReload({ workspace, changes }: ResponseOf<'reloadWorkspace'>): void {
  store.set((state) => {
    if (!hasWorkspaceChanges(changes) && state.workspace?.root === workspace.root) return { workspace };
    const dropped = new Set([...changes.removed, ...changes.changed]);
    const removed = new Set(changes.removed);
    return {
      workspace,
      destinationTable: state.destinationTable.reconciled(workspace.root, workspace.destinations, dropped),
      ...dropFromSelection(state, removed),
      lastReload: { changes, at: new Date().toISOString() },
    };
  });
  if (changes.changed.length > 0) bumpRevisions(changes.changed);
}
