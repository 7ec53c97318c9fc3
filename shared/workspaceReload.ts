// Re-reading the open workspace (Rescan, and live refresh when the workspace file changes): which
// destinations came, went or changed their configuration, and the problem when the file no longer
// loads. Pure; never imports Node, Electron or the DOM. Never decides to drop the list: a workspace
// that stopped loading keeps its last good list, marked with this problem.

// Only types of the zod schemas: the page's first screen reads this rule (workspaceChangesSchema.ts).
import type { WorkspaceChanges } from './workspaceChangesSchema';
import type { WorkspaceDestination } from './workspaceSchema';

export type { WorkspaceReloadProblem } from './workspaceSchema';

export type { WorkspaceChanges } from './workspaceChangesSchema';

export const noWorkspaceChanges = (): WorkspaceChanges => ({ added: [], removed: [], changed: [] });

export function hasWorkspaceChanges(changes: WorkspaceChanges): boolean {
  return changes.added.length + changes.removed.length + changes.changed.length > 0;
}

function sameDestination(a: WorkspaceDestination, b: WorkspaceDestination): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof WorkspaceDestination>;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/**
 * The list before and after, reconciled by id: added and changed in the new list's order, removed in
 * the old one's. An id listed twice (only possible in a hand-made list) counts by its first entry.
 */
export function reconcileDestinations(previous: readonly WorkspaceDestination[], next: readonly WorkspaceDestination[]): WorkspaceChanges {
  const before = new Map<string, WorkspaceDestination>();
  for (const destination of previous) if (!before.has(destination.id)) before.set(destination.id, destination);
  const after = new Map<string, WorkspaceDestination>();
  for (const destination of next) if (!after.has(destination.id)) after.set(destination.id, destination);
  const changes = noWorkspaceChanges();
  for (const [id, destination] of after) {
    const old = before.get(id);
    if (old === undefined) changes.added.push(id);
    else if (!sameDestination(old, destination)) changes.changed.push(id);
  }
  for (const id of before.keys()) if (!after.has(id)) changes.removed.push(id);
  return changes;
}

/** "2 added (docs-emea, …), 1 removed (old-site)": what the status bar says after a re-read. */
export function workspaceChangesText(changes: WorkspaceChanges): string {
  const part = (count: readonly string[], word: string) =>
    count.length === 0 ? [] : [`${count.length} ${word} (${count.slice(0, 3).join(', ')}${count.length > 3 ? ', …' : ''})`];
  const parts = [...part(changes.added, 'added'), ...part(changes.removed, 'removed'), ...part(changes.changed, 'changed')];
  return parts.length === 0 ? 'no destination added, removed or changed' : parts.join(', ');
}
