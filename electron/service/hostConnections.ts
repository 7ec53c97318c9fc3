// The Session's connections to the open workspace's hosts (issue 15): one HostRouter, made when the
// workspace lists a host and this Session reaches hosts, kept in step with the workspace's `hosts` each
// time it is opened or read again; and the API's host methods (hosts, reconnectHost, addHost).

import type { ApiEvent } from '../../shared/api';
import { fail } from '../../shared/apiError';
import type { HostStateEvent } from '../../shared/hostState';
import type { WorkspaceHost } from '../../shared/workspaceSchema';
import { addWorkspaceHost } from '../operations/addWorkspaceHost';
import { HostRouter } from './hostRouter';
import type { HostWatches } from './hostWatch';
import type { OpenWorkspace, SessionState } from './sessionContext';
import { dropHostDestinations, hostStateArrived } from './sessionHostList';
import type { hostPlanStore } from './sessionHosts';
import type { HandlerTable, SessionOptions } from './sessionOptions';
import type { WorkspaceReloadAnswer } from './workspaceSummary';

type HostPlans = ReturnType<typeof hostPlanStore>;

export class HostConnections {
  private current: HostRouter | undefined;

  constructor(
    private readonly state: SessionState,
    private readonly hostPlans: HostPlans,
    private readonly options: Pick<SessionOptions, 'connectHost' | 'hostsParallel'>,
    private readonly emit: (event: ApiEvent) => void,
    /** Where live refresh runs: each connected host's agent watches its destinations for it (hostWatch.ts). */
    private readonly watch?: HostWatches,
  ) {}

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
      if (!now || now.url !== old.url || now.agent !== old.agent) {
        this.watch?.forget(old.name);
        dropHostDestinations(this.state, this.hostPlans, old.name);
        void router.remove(old.name);
      }
    }
    for (const host of hosts) if (!router.has(host.name)) router.add(host);
  }

  /** A host's new state: on (re)connect, its destinations replace the ones it had; then the event goes out. */
  private onHostState(event: HostStateEvent): void {
    this.emit({ event: 'hostState', data: hostStateArrived(this.state, this.hostPlans, event) });
    if (this.current) this.watch?.hostState(event.host, this.current);
  }

  async close(): Promise<void> {
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

export function hostHandlers(session: HostSession, hosts: HostConnections): Pick<HandlerTable, 'hosts' | 'reconnectHost' | 'addHost'> {
  return {
    hosts: async () => {
      session.workspace();
      return { hosts: hosts.router?.states() ?? [] };
    },
    reconnectHost: async ({ name }) => {
      session.workspace();
      return hosts.required().reconnect(name);
    },
    addHost: async (request) => {
      const open = session.workspace();
      if (!session.options.connectHost) throw fail('not_available', 'this session does not reach hosts');
      await addWorkspaceHost(open.loaded, request);
      const { workspace } = await session.reloadWorkspace();
      const host = hosts
        .required()
        .states()
        .find((state) => state.name === request.name.trim());
      if (!host) throw fail('internal', `host "${request.name}" was saved but is not in the workspace read again`);
      return { workspace, host };
    },
  };
}
