// The one small store for app-wide state: the open workspace, scan and verify results, the selection,
// running jobs and the last error. Everything else lives in the component that uses it.
// Never holds anything the engine did not say; never calls the API itself (actions.ts does).

import { useSyncExternalStore } from 'react';
import type { ApiError, ConnectionState, HostState, JobMethod, Transport, Workspace } from '../../shared/api';
import type { DestinationStatus } from '../../shared/inspection';
import type { ApplyStep } from '../../shared/plan';
import type { WorkspaceChanges } from '../../shared/workspaceReload';
import type { LiveRefreshStatus } from '../../shared/liveRefresh';
import type { AutoVerifySetting } from '../../shared/autoVerifySetting';
import type { SyncKind } from '../../shared/syncStatus';
import type { BulkRun } from '../view/bulkPlan';
import type { SortKey } from '../view/destinationRows';
import type { HealthMark } from '../view/health';
import { DestinationTable } from '../view/destinationTable';
import type { Density, GroupBy } from '../view/viewSettings';

export interface JobView {
  /** Local key, known before the engine hands out a job id. */
  key: string;
  job?: string;
  method: JobMethod;
  label: string;
  done: number;
  total: number;
  bytes: number;
  /** An apply's phase with its own count, as the engine last said. */
  step?: ApplyStep;
  /** The destination it is about, when one. */
  destination?: string;
  /** The link to the engine was lost while it ran: how it ended is unknown until the workspace is read again. */
  outcomeUnknown?: boolean;
  /** Cancel was clicked: shown at once, until the engine says how the job ended. */
  cancelling?: boolean;
}

export interface ErrorView {
  title: string;
  error: ApiError;
  at: string;
}

export interface AppState {
  transport?: Transport;
  version?: string;
  /** How to run the CLI on the engine's machine (appInfo's `command`), for the hints shown; never npx. */
  command?: string;
  workspace?: Workspace;
  opening: boolean;
  /**
   * The workspace's destinations joined with their scan and verify results, one row each, kept
   * incrementally as results stream in (a new table per batch, sharing what did not change).
   */
  destinationTable: DestinationTable;
  /**
   * Destinations the open workspace lists that the table does not hold yet: its list arrives a page
   * at a time after the first (listPages.ts); the list counts them as still scanning.
   */
  unlisted: number;
  /** The destination shown in the detail pane: the one last clicked (the primary of the selection). */
  selectedId?: string;
  /** Several destinations selected (ctrl/cmd- or shift-click, select all): two or more make a bulk selection (renderer/view/multiSelection.ts). */
  selectedIds: ReadonlySet<string>;
  /** Where a shift-click's range starts. */
  selectionAnchor?: string;
  /** A replace planned (and applied) for several destinations: one at a time (renderer/state/bulk.ts). */
  bulk?: BulkRun;
  jobs: readonly JobView[];
  lastError?: ErrorView;
  /** The link to the engine (the browser host's event stream; IPC is always connected). */
  connection?: ConnectionState;
  /** After a lost link came back: when, whether it was the same run of the host, and how far the re-inspection is. */
  reconnected?: { at: string; sameHost: boolean; reinspecting: boolean };
  /** What the last re-read of the workspace (Rescan) changed in the list, and when. */
  lastReload?: { changes: WorkspaceChanges; at: string };
  /** How the engine watches the open workspace for live refresh (the status bar says it); undefined until it said. */
  liveRefresh?: LiveRefreshStatus;
  /** Whether the engine verifies again by itself what changed on disk (the status bar's switch); undefined until it said. */
  autoVerify?: AutoVerifySetting;
  /** Destinations auto-verify left stale, each with why (over the size limit): shown as their stale reason. */
  autoVerifySkipped?: ReadonlyMap<string, string>;
  /** What the last job that ended said about itself (a cancelled verify: how far it got); cleared when another starts. */
  notice?: string;
  /** Bumped per destination when it changed on disk (rescan, replace), so open views reload it. */
  revisions: ReadonlyMap<string, number>;
  /** Chips OR'ed within their group (statuses, health); the groups and the search AND'ed (docs/destination-list.md). */
  filter: {
    statuses: ReadonlySet<DestinationStatus>;
    health: ReadonlySet<HealthMark>;
    /** Sync chips (shared/syncStatus.ts), OR'ed within their group like the others. */
    sync: ReadonlySet<SyncKind>;
    query: string;
    sort: SortKey;
    host?: string;
    /** The shown rows grouped by pipeline or host (a view setting, kept: state/viewSettingsActions.ts). */
    group?: GroupBy;
  };
  /** Rows of 58 px with two lines, or of 28 px with one (a view setting, kept). */
  density?: Density;
  /** The open workspace's hosts, each with its connection's state, as the engine last said (in workspace order). */
  hosts: readonly HostState[];
  /** "Restore this backup" / "Undo" asked for: the one restore dialog (RestoreBackupDialog.tsx) is open on it. */
  restoreRequest?: { destination: string; backupId: string };
  /** A backup a history entry links to: its destination selected, its Backups tab open on it (`at` tells two clicks apart). */
  backupFocus?: { destination: string; backupId: string; at: number };
}

type Listener = () => void;

function createStore(initial: AppState) {
  let state = initial;
  const listeners = new Set<Listener>();
  return {
    get: () => state,
    set(update: Partial<AppState> | ((current: AppState) => Partial<AppState>)) {
      const patch = typeof update === 'function' ? update(state) : update;
      state = { ...state, ...patch };
      for (const listener of listeners) listener();
    },
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export const initialState = (): AppState => ({
  opening: false,
  destinationTable: DestinationTable.empty(),
  unlisted: 0,
  selectedIds: new Set(),
  jobs: [],
  revisions: new Map(),
  hosts: [],
  // By id (workspace order) by default: rows keep their places while scan results stream in.
  filter: { statuses: new Set(), health: new Set(), sync: new Set(), query: '', sort: 'id' },
});

export const store = createStore(initialState());

/** Subscribes a component to one slice; it re-renders only when that slice changes (Object.is). */
export function useAppState<T>(select: (state: AppState) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}
