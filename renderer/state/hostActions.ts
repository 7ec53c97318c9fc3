// The open workspace's remote hosts as the page shows them: their states read and followed, a host's
// destinations put in the list (and scanned) when it connects, reconnecting one, adding, editing or
// removing one (the engine writes the workspace file; the list follows what it read again).

import type { ApiError, HostState, HostStateEvent, RequestOf, ResponseOf } from '../../shared/api';
import { noWorkspaceChanges, reconcileDestinations } from '../../shared/workspaceReload';
import { getClient } from '../api/client';
import { reportError } from './jobActions';
import { applyWorkspaceReload, bumpRevisions } from './listUpdates';
import { scan } from './scanActions';
import { sideCallsGo } from './listPages';
import { store } from './store';

/** Reads every host's state again (after an open, a reload, a reconnected page). */
export async function refreshHosts(): Promise<void> {
  await sideCallsGo();
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

type HostAnswer = { ok: true; host?: HostState } | { ok: false; error: ApiError };

/** The engine's list after an edit or a removal: the destinations it no longer lists leave the list. */
function followWorkspace(workspace: ResponseOf<'removeHost'>['workspace'], goneHost: string): void {
  const before = store.get().workspace?.destinations ?? [];
  applyWorkspaceReload({ workspace, changes: reconcileDestinations(before, workspace.destinations) });
  store.set((state) => ({ hosts: state.hosts.filter((host) => host.name !== goneHost) }));
}

/** Saves the Edit host dialog's fields to the workspace file; the host then connects again under its (new) name. */
export async function editHost(request: RequestOf<'editHost'>): Promise<HostAnswer> {
  const answer = await getClient().invoke('editHost', request);
  if (!answer.ok) return answer;
  followWorkspace(answer.value.workspace, request.name);
  applyHostState({ host: answer.value.host });
  return { ok: true, host: answer.value.host };
}

/** Takes a host out of the workspace file; its destinations leave the list. */
export async function removeHost(name: string): Promise<HostAnswer> {
  const answer = await getClient().invoke('removeHost', { name });
  if (!answer.ok) return answer;
  followWorkspace(answer.value.workspace, name);
  if (store.get().filter.host === name) store.set((state) => ({ filter: { ...state.filter, host: undefined } }));
  return { ok: true };
}
