// The Session's connections to the open workspace's hosts (issue 15): one HostRouter, made when the
// workspace lists a host and this Session reaches hosts, kept in step with the workspace's `hosts` each
// time it is opened or read again; a lost host reconnected by itself with backoff (hostReconnect.ts,
// issue 28); and the API's host methods (hosts, reconnectHost, addHost, editHost, removeHost).

import type { ApiEvent } from '../../shared/api';
import { fail } from '../../shared/apiError';
import type { HostStateEvent } from '../../shared/hostState';
import type { WorkspaceHost } from '../../shared/workspaceSchema';
import type { HostState } from '../../shared/hostState';
import { addWorkspaceHost, editWorkspaceHost, removeWorkspaceHost } from '../operations/addWorkspaceHost';
import { HostReconnector } from './hostReconnect';
import { HostRouter } from './hostRouter';
import type { HostWatches } from './hostWatch';
import type { OpenWorkspace, SessionState } from './sessionContext';
import { dropHostDestinations, hostStateArrived } from './sessionHostList';
import type { hostPlanStore } from './sessionHosts';
import type { HandlerTable, SessionOptions } from './sessionOptions';
import type { WorkspaceReloadAnswer } from './workspaceSummary';

type HostPlans = ReturnType<typeof hostPlanStore>;

/** Whether two entries of the file name the same connection: any change of a setting connects again. */
function sameSettings(a: WorkspaceHost, b: WorkspaceHost): boolean {
  return (
    a.url === b.url &&
    a.agent === b.agent &&
    a.identityFile === b.identityFile &&
    a.jumpHost === b.jumpHost &&
    a.sshConfig === b.sshConfig &&
    a.connectTimeoutMs === b.connectTimeoutMs
  );
}

export class HostConnections {
  private current: HostRouter | undefined;
  private readonly reconnector: HostReconnector;

  constructor(
    private readonly state: SessionState,
    private readonly hostPlans: HostPlans,
    private readonly options: Pick<SessionOptions, 'connectHost' | 'hostsParallel' | 'reconnectClock'>,
    private readonly emit: (event: ApiEvent) => void,
    /** Where live refresh runs: each connected host's agent watches its destinations for it (hostWatch.ts). */
    private readonly watch?: HostWatches,
  ) {
    this.reconnector = new HostReconnector((name) => {
      if (this.current?.has(name)) this.current.reconnect(name);
    }, options.reconnectClock);
  }

  /** Every host's state as the page sees it: its countdown and when it last connected, its settings. */
  states(): HostState[] {
    const router = this.current;
    if (!router) return [];
    const settings = new Map(router.hosts().map((host) => [host.name, host]));
    return router.states().map((state) => this.shown(state, settings.get(state.name)));
  }

  /** Tries a host now (the button, or an automatic retry's count kept); answers its state. */
  reconnectNow(name: string): HostState {
    if (!this.required().has(name)) throw fail('not_found', `no host "${name}" in the open workspace`);
    this.reconnector.now(name);
    return this.states().find((state) => state.name === name)!;
  }

  private shown(state: HostState, host: WorkspaceHost | undefined): HostState {
    const decorated = this.reconnector.decorate(state);
    if (!host) return decorated;
    const { agent, identityFile, jumpHost, sshConfig, connectTimeoutMs } = host;
    const connectTimeout = connectTimeoutMs === undefined ? undefined : connectTimeoutMs / 1000;
    const settings = Object.fromEntries(
      Object.entries({ agent, identityFile, jumpHost, sshConfig, connectTimeout }).filter(([, value]) => value !== undefined),
    );
    return { ...decorated, settings };
  }

  /** The open workspace's hosts and their connections, when it lists any and this Session reaches hosts. */
  get router(): HostRouter | undefined {
    return this.current;
  }

  /** The router; fails with not_available when this Session does not reach hosts. */
  required(): HostRouter {
    if (!this.current) throw fail('not_available', 'this session does not reach hosts');
    return this.current;
  }

  /** Starts, keeps, restarts or drops host connections to match the workspace's `hosts`. */
  sync(hosts: WorkspaceHost[]): void {
    const connector = this.options.connectHost;
    if (!connector) return;
    if (!this.current) {
      if (hosts.length === 0) return;
      this.current = new HostRouter([], { connector, onState: (event) => this.onHostState(event), limit: this.options.hostsParallel });
    }
    const router = this.current;
    const wanted = new Map(hosts.map((host) => [host.name, host]));
    for (const old of router.hosts()) {
      const now = wanted.get(old.name);
      if (!now || !sameSettings(now, old)) {
        this.watch?.forget(old.name);
        dropHostDestinations(this.state, this.hostPlans, old.name);
        this.reconnector.forget(old.name);
        void router.remove(old.name);
      }
    }
    for (const host of hosts) if (!router.has(host.name)) router.add(host);
  }

  /** A host's new state: on (re)connect, its destinations replace the ones it had; then the event goes out. */
  private onHostState(event: HostStateEvent): void {
    this.reconnector.observe(event.host);
    const arrived = hostStateArrived(this.state, this.hostPlans, event);
    const host = this.current?.hosts().find((entry) => entry.name === event.host.name);
    this.emit({ event: 'hostState', data: { ...arrived, host: this.shown(arrived.host, host) } });
    if (this.current) this.watch?.hostState(event.host, this.current);
  }

  async close(): Promise<void> {
    this.reconnector.close();
    this.watch?.close();
    await this.current?.close();
    this.current = undefined;
  }
}

/** What the host methods use of the Session. */
interface HostSession {
  workspace(): OpenWorkspace;
  reloadWorkspace(): Promise<WorkspaceReloadAnswer>;
  readonly options: Pick<SessionOptions, 'connectHost'>;
}

type HostMethod = 'hosts' | 'reconnectHost' | 'addHost' | 'editHost' | 'removeHost';

export function hostHandlers(session: HostSession, hosts: HostConnections): Pick<HandlerTable, HostMethod> {
  const reaching = () => {
    const open = session.workspace();
    if (!session.options.connectHost) throw fail('not_available', 'this session does not reach hosts');
    return open;
  };
  /** Reads the file again (the hosts follow it) and answers the host now named `name`. */
  const reread = async (name: string) => {
    const { workspace } = await session.reloadWorkspace();
    const host = hosts.states().find((state) => state.name === name.trim());
    if (!host) throw fail('internal', `host "${name}" was saved but is not in the workspace read again`);
    return { workspace, host };
  };
  return {
    hosts: async () => {
      session.workspace();
      return { hosts: hosts.states() };
    },
    reconnectHost: async ({ name }) => {
      session.workspace();
      return hosts.reconnectNow(name);
    },
    addHost: async (request) => {
      await addWorkspaceHost(reaching().loaded, request);
      return reread(request.name);
    },
    editHost: async ({ name, settings }) => {
      await editWorkspaceHost(reaching().loaded, name, settings);
      return reread(settings.name);
    },
    removeHost: async ({ name }) => {
      await removeWorkspaceHost(reaching().loaded, name);
      const { workspace } = await session.reloadWorkspace();
      return { workspace };
    },
  };
}
