// Opening a workspace and showing it: the recent list, open (with its scan started at once), the list
// built in slices so a large workspace does not freeze the page, and Rescan.

import type { ApiError, Workspace } from '../../shared/api';
import { getClient } from '../api/client';
import type { JobOutcome } from '../api/jobs';
import { DestinationTable } from '../view/destinationTable';
import { readRecent, rememberRecent } from '../view/recentWorkspaces';
import { refreshHosts } from './hostActions';
import { reportError } from './jobActions';
import { refreshLiveRefreshStatus } from './liveRefreshActions';
import { applyWorkspaceReload } from './listUpdates';
import { scan } from './scanActions';
import { store } from './store';

export function recentWorkspaces(): string[] {
  return readRecent(safeLocalStorage());
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Rescan: read the workspace file (or folder) again, then every destination in it. */
export async function rescan(): Promise<JobOutcome<'scan'> | undefined> {
  const answer = await getClient().invoke('reloadWorkspace', {});
  if (!answer.ok) {
    reportError('Could not read the workspace again', answer.error);
    return undefined;
  }
  applyWorkspaceReload(answer.value);
  void refreshHosts();
  return scan();
}

/** Resolves in a task of its own, with no timer's clamp: the page may paint and take input meanwhile. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/**
 * showWorkspace, with the list built in slices, a task each (DestinationTable.ofInSlices), so a large
 * workspace does not freeze the page while its list is built; false when another workspace was shown
 * meanwhile. `onShown` runs right after the list is in the store, before the page renders it.
 */
export async function showWorkspaceInSlices(workspace: Workspace, unlisted = 0, onShown?: () => void): Promise<boolean> {
  const before = store.get().workspace;
  const table = await DestinationTable.ofInSlices(workspace.root, workspace.destinations, nextTask);
  // The list's first render in a task of its own, not after the table's last slice: together they
  // were the longest task of a large workspace's first screen.
  await nextTask();
  if (store.get().workspace !== before) return false;
  showWorkspace(workspace, table, unlisted);
  // In the same task as the list: the page never renders the list without what onShown sets (a selection kept).
  onShown?.();
  return true;
}

/**
 * Shows a workspace the engine has open: every destination pending until its scan result arrives;
 * `unlisted`: how many more it lists, still to come (listPages.ts).
 */
export function showWorkspace(workspace: Workspace, table?: DestinationTable, unlisted = 0): void {
  store.set((state) => ({
    workspace,
    destinationTable: table ?? DestinationTable.of(workspace.root, workspace.destinations),
    unlisted,
    selectedId: undefined,
    selectedIds: new Set<string>(),
    selectionAnchor: undefined,
    bulk: undefined,
    lastReload: undefined,
    // A host filter of another workspace would hide everything.
    filter:
      state.filter.host !== undefined && state.workspace?.path !== workspace.path ? { ...state.filter, host: undefined } : state.filter,
  }));
  void refreshHosts();
  void refreshLiveRefreshStatus();
}

/**
 * Opens a workspace and starts its scan at once; the list fills as results stream in. A failure is
 * answered, not reported: the Open dialog shows it in place, with every problem.
 */
export async function tryOpenWorkspace(path: string): Promise<{ ok: true } | { ok: false; error: ApiError }> {
  store.set({ opening: true });
  const answer = await getClient().invoke('openWorkspace', { path });
  if (!answer.ok) {
    store.set({ opening: false });
    return { ok: false, error: answer.error };
  }
  rememberRecent(safeLocalStorage(), answer.value.path);
  // The scan is asked for before the list is built (in slices: 100,000 rows must not freeze the
  // page), and its rows wait for the list, as at the start.
  let settleListShown: (shown: boolean) => void = () => undefined;
  void scan(undefined, new Promise<boolean>((resolve) => (settleListShown = resolve)));
  const shown = await showWorkspaceInSlices(answer.value);
  store.set({ opening: false, lastError: undefined });
  settleListShown(shown);
  return { ok: true };
}

/** Opens a workspace where no dialog is there to show why it failed (the start, a menu): the status bar says it. */
export async function openWorkspace(path: string): Promise<boolean> {
  const opened = await tryOpenWorkspace(path);
  if (!opened.ok) reportError(`Could not open ${path}`, opened.error);
  return opened.ok;
}
