// The open workspace's hosts (issue 15): one agent connection per host, made in parallel (at most
// `limit` connecting at once, so a slow or down host holds one lane and never the others), kept open
// and reused; each host's state (connecting, connected, failed or lost, with the named reason) told by
// an event; reconnect. A connected host's destinations are the ones its agent's workspace lists, named
// `NAME:ID`; its event also says what that workspace is (kind, where, its warnings), and a workspace
// there that does not load fails the host with its file and every problem. Must never route a call to
// a host that is not connected (host_unavailable), nor keep answers of a connection that was replaced.

import { z } from 'zod';
import type { DestinationEntry, HostState, HostStateEvent } from '../../shared/api';
import { issueSchema } from '../../shared/issueSchema';
import { fail } from '../../shared/apiError';
import { remoteDestinationId } from '../../shared/hostState';
import { parseSshUrl } from '../../shared/sshUrl';
import type { WorkspaceHost } from '../../shared/workspaceSchema';
import type { HostConnector, HostFailure, HostLink } from './hostLink';

export const DEFAULT_HOSTS_PARALLEL = 8;

interface HostEntry {
  host: WorkspaceHost;
  state: HostState;
  link?: HostLink;
  destinations: DestinationEntry[];
  /** Bumped by each connect: an answer of an older attempt is dropped. */
  attempt: number;
  /** Stops the attempt still waiting for its handshake: a hung host's ssh does not outlive the workspace. */
  connecting?: AbortController;
}

export interface HostRouterOptions {
  connector: HostConnector;
  /** Every state change, with the host's destinations when it (re)connected. */
  onState: (event: HostStateEvent) => void;
  limit?: number;
}

/** What an agent's invalid_workspace refusal carries: checked, as anything else the agent sends. */
const workspaceProblemSchema = z.object({ file: z.string(), issues: z.array(issueSchema) });

function failureOf(cause: unknown): HostFailure {
  const { code, message } = (cause ?? {}) as Partial<HostFailure>;
  return { code: typeof code === 'string' ? code : 'ssh_failed', message: typeof message === 'string' ? message : String(cause) };
}

export class HostRouter {
  private readonly entries = new Map<string, HostEntry>();
  private readonly queue: HostEntry[] = [];
  private connecting = 0;
  private closed = false;
  private readonly limit: number;

  constructor(
    hosts: readonly WorkspaceHost[],
    private readonly options: HostRouterOptions,
  ) {
    this.limit = Math.max(1, options.limit ?? DEFAULT_HOSTS_PARALLEL);
    for (const host of hosts) this.add(host);
  }

  /** Starts connecting a host (queued behind the lanes); its destinations come with its `connected` event. */
  add(host: WorkspaceHost): HostState {
    const entry: HostEntry = {
      host,
      destinations: [],
      attempt: 0,
      state: { name: host.name, url: host.url, state: 'connecting', destinations: 0, since: new Date().toISOString() },
    };
    this.entries.set(host.name, entry);
    this.enqueue(entry);
    return entry.state;
  }

  states(): HostState[] {
    return [...this.entries.values()].map((entry) => entry.state);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  hosts(): WorkspaceHost[] {
    return [...this.entries.values()].map((entry) => entry.host);
  }

  /** Every connected host's destinations, in workspace order. */
  destinations(): DestinationEntry[] {
    return [...this.entries.values()].flatMap((entry) => entry.destinations);
  }

  /** The connection of a connected host; host_unavailable (naming the state and why) otherwise. */
  link(name: string): HostLink {
    const entry = this.entries.get(name);
    if (!entry) throw fail('not_found', `no host "${name}" in the open workspace`);
    if (entry.state.state !== 'connected' || !entry.link) {
      const why = entry.state.failure ? `: ${entry.state.failure.message}` : '';
      throw fail(
        'host_unavailable',
        `host "${name}" is ${entry.state.state === 'connecting' ? 'still connecting' : entry.state.state}${why}`,
        {
          host: name,
          state: entry.state.state,
        },
      );
    }
    return entry.link;
  }

  isConnected(name: string): boolean {
    return this.entries.get(name)?.state.state === 'connected';
  }

  /** Closes the host's connection (if any) and connects again; answers the `connecting` state at once. */
  reconnect(name: string): HostState {
    const entry = this.entries.get(name);
    if (!entry) throw fail('not_found', `no host "${name}" in the open workspace`);
    if (entry.state.state === 'connecting') return entry.state;
    const old = entry.link;
    entry.link = undefined;
    void old?.close();
    this.enqueue(entry);
    return entry.state;
  }

  /** Drops a host (gone from the workspace file): closes its connection. */
  async remove(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) return;
    this.entries.delete(name);
    entry.attempt++;
    entry.connecting?.abort();
    await entry.link?.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    const links = [...this.entries.values()].flatMap((entry) => {
      entry.attempt++;
      entry.connecting?.abort();
      const link = entry.link;
      entry.link = undefined;
      return link ? [link] : [];
    });
    this.queue.length = 0;
    await Promise.all(links.map((link) => link.close().catch(() => {})));
  }

  private setState(entry: HostEntry, patch: Omit<Partial<HostState>, 'name' | 'url'>, opened?: Omit<HostStateEvent, 'host'>): void {
    const { failure: _failure, ...kept } = entry.state;
    entry.state = { ...kept, ...patch, since: new Date().toISOString() };
    if (this.entries.get(entry.host.name) !== entry || this.closed) return;
    this.options.onState({ host: entry.state, ...opened });
  }

  private enqueue(entry: HostEntry): void {
    entry.attempt++;
    this.setState(entry, { state: 'connecting', agent: undefined });
    if (!this.queue.includes(entry)) this.queue.push(entry);
    this.drain();
  }

  private drain(): void {
    while (!this.closed && this.connecting < this.limit && this.queue.length > 0) {
      const entry = this.queue.shift()!;
      this.connecting++;
      void this.connect(entry).finally(() => {
        this.connecting--;
        this.drain();
      });
    }
  }

  private async connect(entry: HostEntry): Promise<void> {
    const attempt = entry.attempt;
    const current = () => attempt === entry.attempt && !this.closed && this.entries.get(entry.host.name) === entry;
    const target = parseSshUrl(entry.host.url);
    if (!target.ok) return this.setState(entry, { state: 'failed', failure: { code: 'invalid_url', message: target.message } });
    let link: HostLink | undefined;
    const connecting = (entry.connecting = new AbortController());
    try {
      link = await this.options.connector(entry.host, connecting.signal).finally(() => {
        if (entry.connecting === connecting) entry.connecting = undefined;
      });
      if (!current()) return void (await link.close());
      const opened = await link.call('openWorkspace', {
        path: target.value.path,
        ...(entry.host.asDestination ? { asDestination: true } : {}),
      });
      if (!current()) return void (await link.close());
      if (!opened.ok) {
        await link.close();
        const problem = opened.error.code === 'invalid_workspace' ? workspaceProblemSchema.safeParse(opened.error.details) : undefined;
        return this.setState(entry, {
          state: 'failed',
          failure: {
            code: opened.error.code,
            message: `${entry.host.name}: ${target.value.path}: ${opened.error.message}`,
            ...(problem?.success ? { file: problem.data.file, issues: problem.data.issues } : {}),
          },
        });
      }
      const name = entry.host.name;
      entry.destinations = opened.value.destinations.map((destination) => ({
        ...destination,
        id: remoteDestinationId(name, destination.id),
        host: name,
      }));
      entry.link = link;
      const connected = link;
      void connected.ended.then(() => {
        if (entry.link !== connected || !current()) return;
        entry.link = undefined;
        this.setState(entry, {
          state: 'lost',
          // Copied field by field: a RemoteFailure is an Error, whose message JSON would leave out.
          failure: connected.lost ? failureOf(connected.lost) : { code: 'connection_lost', message: `the connection to ${name} ended` },
        });
      });
      const { kind, root, path, issues } = opened.value;
      this.setState(
        entry,
        { state: 'connected', agent: { ...link.hello }, destinations: entry.destinations.length },
        { destinations: entry.destinations, workspace: { kind, root, path, issues } },
      );
    } catch (cause) {
      if (link && entry.link !== link) void link.close().catch(() => {});
      if (current()) this.setState(entry, { state: 'failed', failure: failureOf(cause) });
    }
  }
}
