// What the app does with the engine on the user's behalf: open a workspace and scan it, verify,
// cancel, remember errors. Thin: calls the API client, writes results into the store.
// Scan items are applied in batches, so 100,000 streamed results cost ~100 renders, not 100,000, and
// each batch derives only its own rows (DestinationTable), never the whole list again.

import type {
  ApiError,
  AppliedDestination,
  ConnectionState,
  EventOf,
  HostState,
  HostStateEvent,
  JobItemOf,
  JobMethod,
  JobResultOf,
  RequestOf,
  ResponseOf,
  ScanEntry,
  VerifyEntry,
  Workspace,
} from '../../shared/api';
import { hasWorkspaceChanges, noWorkspaceChanges } from '../../shared/workspaceReload';
import { getClient } from '../api/client';
import { noteAutoVerifySkips } from './autoVerifyActions';
import { runJob, type JobOutcome } from '../api/jobs';
import { DestinationTable } from '../view/destinationTable';
import { cancelledVerifySentence } from '../view/verifyOutcome';
import { readRecent, rememberRecent } from '../view/recentWorkspaces';
import { selectOnly } from '../view/multiSelection';
import { dropFromSelection, selectionPatch, selectOneDestination } from './selectionActions';
import { store, type JobView } from './store';

let nextKey = 1;

export function reportError(title: string, error: ApiError): void {
  store.set({ lastError: { title, error, at: new Date().toISOString() } });
}

export function dismissError(): void {
  store.set({ lastError: undefined });
}

function updateJob(key: string, patch: Partial<JobView>): void {
  store.set((state) => ({ jobs: state.jobs.map((job) => (job.key === key ? { ...job, ...patch } : job)) }));
}

/**
 * Runs a job with a row in the status bar (progress, Cancel); a failure other than cancel becomes the last error.
 * `shownOnlyIf`: a job asked for before the page knows it applies (the start's scan, asked beside
 * appInfo): its row and its error show only once that resolves true; on false it is cancelled, unseen.
 */
export async function trackedJob<M extends JobMethod>(
  method: M,
  request: RequestOf<M>,
  label: string,
  options: {
    destination?: string;
    onItem?: (item: JobItemOf<M>) => void;
    onProgress?: (view: JobView) => void;
    shownOnlyIf?: Promise<boolean>;
  } = {},
): Promise<JobOutcome<M>> {
  const key = `job-${nextKey++}`;
  // The row as it stands, kept here too: a row not shown yet is added as it is by then.
  let view: JobView = {
    key,
    method,
    label,
    done: 0,
    total: 0,
    bytes: 0,
    ...(options.destination ? { destination: options.destination } : {}),
  };
  const update = (patch: Partial<JobView>) => {
    view = { ...view, ...patch };
    updateJob(key, patch);
  };
  let ended = false;
  let unwanted = false;
  const show = () => store.set((state) => ({ jobs: [...state.jobs, view], notice: undefined }));
  const cancelUnseen = () => {
    if (view.job !== undefined && !ended) void getClient().invoke('cancelJob', { job: view.job });
  };
  if (options.shownOnlyIf)
    void options.shownOnlyIf.then((applies) => {
      unwanted = !applies;
      if (unwanted) cancelUnseen();
      else if (!ended) show();
    });
  else show();
  const outcome = await runJob(getClient(), method, request, {
    onStart: (job) => {
      update({ job });
      if (unwanted) cancelUnseen();
    },
    onProgress: (progress) => {
      update({
        done: progress.done,
        total: progress.total,
        bytes: progress.bytes,
        ...(progress.step ? { step: progress.step } : {}),
      });
      const current = store.get().jobs.find((job) => job.key === key);
      if (current) options.onProgress?.(current);
    },
    ...(options.onItem ? { onItem: options.onItem } : {}),
  });
  ended = true;
  if (options.shownOnlyIf && !(await options.shownOnlyIf)) return outcome;
  // A job whose link was lost stays in view, marked: it may have finished, failed or still run.
  if (!outcome.ok && outcome.error.code === 'connection_lost') {
    if (!store.get().jobs.some((job) => job.key === key)) show();
    updateJob(key, { outcomeUnknown: true });
  } else store.set((state) => ({ jobs: state.jobs.filter((job) => job.key !== key) }));
  if (!outcome.ok && outcome.error.code !== 'cancelled' && outcome.error.code !== 'connection_lost')
    reportError(`${label} failed`, outcome.error);
  return outcome;
}

export async function cancelJob(key: string): Promise<void> {
  const job = store.get().jobs.find((candidate) => candidate.key === key)?.job;
  if (!job) return;
  // Said at once: the engine stops at its next safe point, which can be seconds away.
  updateJob(key, { cancelling: true });
  const answer = await getClient().invoke('cancelJob', { job });
  if (!answer.ok) {
    updateJob(key, { cancelling: false });
    reportError('Cancel failed', answer.error);
  }
}

/** How often streamed items are applied: each apply renders the list once. */
const BATCH_INTERVAL_MS = 120;

/**
 * At most this many items in one apply: the rows that waited for the list (heldUntil) go in a task
 * each per slice, so no one task derives and renders tens of thousands of rows.
 */
const MAX_BATCH_ITEMS = 1000;

/** `heldUntil`: items wait for it (the list they go into is not shown yet), then go in, or are dropped on false. */
function batcher<T>(apply: (items: T[]) => void, heldUntil?: Promise<boolean>): { push: (item: T) => void; drain: () => Promise<void> } {
  let pending: T[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let first = true;
  let held = heldUntil !== undefined;
  let dropped = false;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (held || pending.length === 0) return;
    if (pending.length <= MAX_BATCH_ITEMS) {
      const items = pending;
      pending = [];
      apply(items);
      return;
    }
    apply(pending.slice(0, MAX_BATCH_ITEMS));
    pending = pending.slice(MAX_BATCH_ITEMS);
    timer = setTimeout(flush, 0);
  };
  void heldUntil?.then((applies) => {
    held = false;
    first = false;
    dropped = !applies;
    if (dropped) pending = [];
    // In a task of its own: the list just shown paints first, then the rows that waited for it.
    else if (pending.length > 0) timer = setTimeout(flush, 0);
  });
  return {
    push(item) {
      if (dropped) return;
      pending.push(item);
      if (held || timer !== undefined) return;
      // The first item shows at once (first rows fast); the rest gather into batches.
      if (first) {
        first = false;
        queueMicrotask(flush);
      } else timer = setTimeout(flush, BATCH_INTERVAL_MS);
    },
    /** Applies what is pending now (a slice per task), resolving once it is all in. */
    async drain() {
      await heldUntil;
      flush();
      while (pending.length > 0) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        flush();
      }
    },
  };
}

function bumpRevisions(ids: readonly string[]): void {
  store.set((state) => {
    const revisions = new Map(state.revisions);
    for (const id of ids) revisions.set(id, (revisions.get(id) ?? 0) + 1);
    return { revisions };
  });
}

/**
 * Scans the whole workspace, or the given destinations (after a replace). `listShown`: the scan was
 * asked for before the workspace's list is shown (the start, App.tsx; an open); its rows wait for the list,
 * and on false (no workspace shown after all) the scan is dropped unseen.
 */
export async function scan(destinations?: string[], listShown?: Promise<boolean>): Promise<JobOutcome<'scan'>> {
  const items = batcher<ScanEntry>(
    (entries) =>
      store.set((state) => {
        return { destinationTable: state.destinationTable.withScan(entries) };
      }),
    listShown,
  );
  const label = destinations
    ? `Rescan ${destinations.length === 1 ? destinations[0] : `${destinations.length} destinations`}`
    : 'Scan workspace';
  const outcome = await trackedJob('scan', destinations ? { destinations } : {}, label, {
    onItem: (entry) => items.push(entry),
    ...(listShown ? { shownOnlyIf: listShown } : {}),
  });
  if (listShown && !(await listShown)) return outcome;
  await items.drain();
  if (destinations) bumpRevisions(destinations);
  // An event stream that reconnected mid-scan loses items: ask again for the rows still missing, once.
  if (outcome.ok && !destinations) {
    const table = store.get().destinationTable;
    // A host that is not connected is not read: its state says why.
    const offline = new Set(
      store
        .get()
        .hosts.filter((host) => host.state !== 'connected')
        .map((host) => host.name),
    );
    const missing = (store.get().workspace?.destinations ?? [])
      .filter((destination) => destination.host === undefined || !offline.has(destination.host))
      .map((destination) => destination.id)
      .filter((id) => table.scanEntry(id) === undefined);
    if (missing.length > 0) return scan(missing);
  }
  return outcome;
}

export async function verify(destinations?: string[]): Promise<JobOutcome<'verify'>> {
  const items = batcher<VerifyEntry>((entries) => store.set((state) => ({ destinationTable: state.destinationTable.withVerify(entries) })));
  const label = destinations
    ? `Verify ${destinations.length === 1 ? destinations[0] : `${destinations.length} destinations`}`
    : 'Verify all';
  // What it sets out to check: the engine verifies the managed destinations among those asked for.
  const setOutFor = destinations ? destinations.length : store.get().destinationTable.statusCounts.managed;
  let kept = 0;
  let last = { done: 0, total: 0 };
  const outcome = await trackedJob('verify', destinations ? { destinations } : {}, label, {
    onItem: (entry) => {
      kept += 1;
      items.push(entry);
    },
    onProgress: (view) => (last = { done: view.done, total: view.total }),
    ...(destinations?.length === 1 ? { destination: destinations[0] } : {}),
  });
  await items.drain();
  if (!outcome.ok && outcome.error.code === 'cancelled')
    store.set({ notice: cancelledVerifySentence({ kept, destinations: setOutFor, outputsDone: last.done, outputsTotal: last.total }) });
  return outcome;
}

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

/**
 * Shows a re-read of the open workspace (Rescan; live refresh): the list as the engine now has it, the
 * results of destinations that stayed as they were kept, those of added, removed or reconfigured ones
 * gone. A workspace file that no longer loads comes back with the last good list and its problem,
 * which the page shows beside that list.
 */
export function applyWorkspaceReload({ workspace, changes }: ResponseOf<'reloadWorkspace'>): void {
  store.set((state) => {
    if (!hasWorkspaceChanges(changes) && state.workspace?.root === workspace.root)
      return { workspace, lastReload: { changes, at: new Date().toISOString() } };
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
 * workspace does not freeze the page while its list is built; false when another workspace was shown meanwhile.
 */
export async function showWorkspaceInSlices(workspace: Workspace): Promise<boolean> {
  const before = store.get().workspace;
  const table = await DestinationTable.ofInSlices(workspace.root, workspace.destinations, nextTask);
  if (store.get().workspace !== before) return false;
  showWorkspace(workspace, table);
  return true;
}

/** Shows a workspace the engine has open: every destination pending until its scan result arrives. */
export function showWorkspace(workspace: Workspace, table?: DestinationTable): void {
  store.set((state) => ({
    workspace,
    destinationTable: table ?? DestinationTable.of(workspace.root, workspace.destinations),
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

/** Reads every host's state again (after an open, a reload, a reconnected page). */
export async function refreshHosts(): Promise<void> {
  const client = getClient();
  const answer = await client.invoke('hosts', {});
  const hosts = answer.ok ? answer.value.hosts : [];
  store.set({ hosts });
  // A host that connected before this page listened (or before the open's answer was shown): its
  // destinations are in the engine's list, not yet in ours.
  const shown = store.get().workspace?.destinations ?? [];
  const missing = hosts.filter(
    (host) => host.state === 'connected' && shown.filter((entry) => entry.host === host.name).length !== host.destinations,
  );
  if (missing.length === 0) return;
  const info = await client.invoke('appInfo', {});
  const workspace = info.ok ? info.value.workspace : undefined;
  if (!workspace) return;
  for (const host of missing) applyHostState({ host, destinations: workspace.destinations.filter((entry) => entry.host === host.name) });
}

/**
 * A host's new state. When it (re)connected, its destinations come with it: they replace the ones it
 * had in the list (results of those still there kept), and they are scanned. A job left "outcome
 * unknown" by a lost host is cleared then: its destinations are read again.
 */
export function applyHostState({ host, destinations }: HostStateEvent): void {
  store.set((state) => {
    const known = state.hosts.some((entry) => entry.name === host.name);
    const hosts = known ? state.hosts.map((entry) => (entry.name === host.name ? host : entry)) : [...state.hosts, host];
    if (!destinations || !state.workspace) return { hosts };
    const kept = state.workspace.destinations.filter((entry) => entry.host !== host.name);
    const workspace = { ...state.workspace, destinations: [...kept, ...destinations] };
    return {
      hosts,
      workspace,
      destinationTable: state.destinationTable.reconciled(workspace.root, workspace.destinations, new Set()),
      jobs: state.jobs.filter((job) => !job.outcomeUnknown),
    };
  });
  if (destinations && destinations.length > 0) {
    bumpRevisions(destinations.map((entry) => entry.id));
    void scan(destinations.map((entry) => entry.id));
  }
}

let stopWatchingHosts: (() => void) | undefined;

/** How often the hosts' states are read again while one is connecting: a backstop for an event the stream missed. */
const HOSTS_POLL_MS = 3000;

/**
 * Follows the hosts' states (once per page): their events, and a fresh read each time the event
 * stream (re)connects, since what happened before it listened is not sent again.
 */
export function watchHosts(): () => void {
  if (stopWatchingHosts) return stopWatchingHosts;
  const client = getClient();
  const stopEvents = client.on('hostState', applyHostState);
  const stopConnection = client.onConnection((state) => {
    if (state.status === 'connected' && store.get().workspace) void refreshHosts();
  });
  const timer = setInterval(() => {
    if (store.get().hosts.some((host) => host.state === 'connecting')) void refreshHosts();
  }, HOSTS_POLL_MS);
  stopWatchingHosts = () => {
    stopEvents();
    stopConnection();
    clearInterval(timer);
    stopWatchingHosts = undefined;
  };
  return stopWatchingHosts;
}

/** Connects to a host again; its state events follow. */
export async function reconnectHost(name: string): Promise<void> {
  const answer = await getClient().invoke('reconnectHost', { name });
  if (!answer.ok) reportError(`Could not reconnect ${name}`, answer.error);
  else applyHostState({ host: answer.value });
}

/** Adds a host to the workspace file; the answer (or the error naming each bad field) goes to the dialog. */
export async function addHost(request: RequestOf<'addHost'>): Promise<{ ok: true; host: HostState } | { ok: false; error: ApiError }> {
  const answer = await getClient().invoke('addHost', request);
  if (!answer.ok) return answer;
  applyWorkspaceReload({ workspace: answer.value.workspace, changes: noWorkspaceChanges() });
  applyHostState({ host: answer.value.host });
  return { ok: true, host: answer.value.host };
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

/** The destination as the engine read it after an apply: its row, and its verify (dropped when there is none: it described the old outputs). */
function showApplied({ entry, verify }: AppliedDestination): void {
  store.set((state) => {
    const table = state.destinationTable.withScan([entry]);
    return { destinationTable: verify ? table.withVerify([verify]) : table.withoutVerify([entry.destination]) };
  });
  bumpRevisions([entry.destination]);
}

/**
 * Applies a plan with a row in the status bar. The engine sends the destination as it is afterwards
 * (read again, and verified when a new state is in place), so its row and views update without a
 * second scan and verify; only a job that ended before it could say (cancelled, an error) rescans it.
 */
export async function applyPlan(
  destination: string,
  request: RequestOf<'applyPlan'>,
  label: string,
  onProgress?: (view: JobView) => void,
): Promise<JobOutcome<'applyPlan'>> {
  let applied = false;
  const outcome = await trackedJob('applyPlan', request, label, {
    destination,
    onItem: (item) => {
      applied = true;
      showApplied(item);
    },
    ...(onProgress ? { onProgress } : {}),
  });
  // A refusal before the job started (a wrong confirmation, an unknown plan) changed nothing; a lost
  // link is re-inspected as a whole when it is back (reinspect).
  const started =
    outcome.ok || !['confirmation_required', 'not_found', 'refused', 'bad_request', 'connection_lost'].includes(outcome.error.code);
  if (!applied && started) await scan([destination]);
  return outcome;
}

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

/** Asks the engine how it watches the open workspace (after an open, a reconnect); the events say each change after. */
export async function refreshLiveRefreshStatus(): Promise<void> {
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
    // Auto-verify: the engine verified again what changed on disk; those results are fresh again.
    store.set((state) => ({ destinationTable: state.destinationTable.withVerify(event.entries) }));
    noteAutoVerifySkips(event);
    bumpRevisions(event.entries.map((entry) => entry.destination));
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

/** Tries a lost link again now. */
export function reconnect(): void {
  getClient().reconnect();
}

/** Opens the restore dialog on a backup of a destination: "Restore this backup", and Undo in a result or the history. */
export function openRestore(destination: string, backupId: string): void {
  store.set({ restoreRequest: { destination, backupId } });
}

export function closeRestore(): void {
  store.set({ restoreRequest: undefined });
}

/** A history entry's link to its backup: selects the destination and opens its Backups tab on that backup. */
export function showBackup(destination: string, backupId: string): void {
  store.set((state) => ({
    ...selectionPatch(selectOnly(destination)),
    backupFocus: { destination, backupId, at: (state.backupFocus?.at ?? 0) + 1 },
  }));
}

export type { JobResultOf };
