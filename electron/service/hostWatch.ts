// The client's side of a host's watch (issue 24, docs/live-refresh.md): on each connect it asks the
// host's agent to watch its destinations (`watchDestinations`, service/changeFeed.ts there) and hears
// its `destinationChanges`. A destination named there has its verify result turned stale at once
// (`changed_on_host`), is read again through the agent, and, with auto-verify on, verified again
// there (incrementally: the agent's stat cache); each step is the same `liveRefresh` event a local
// change makes, so the renderer needs nothing of its own. A host whose watch cannot be trusted (lost,
// reconnecting, failed, its watch incomplete, an agent that cannot watch) has every result of its
// destinations turned stale (`host_unwatched`) until verified again.
// Must never keep more than one pending change per destination the host listed, nor let a change of
// a workspace no longer shown reach the one shown now.

import type { ApiEvent, DestinationRead, HostState, ScanEntry } from '../../shared/api';
import { remoteDestinationId } from '../../shared/hostState';
import type { DestinationChanges } from '../../shared/hostWatch';
import type { WatchStaleReason } from '../../shared/verifyFreshness';
import type { HostRouter } from './hostRouter';
import type { HostLink } from './hostLink';
import type { JobContext } from './jobRegistry';
import type { SessionContext } from './sessionContext';
import { routedReadJob } from './sessionHosts';
import { chooseAutoVerify, keepChange, type Seen } from './sessionLiveRefresh';

/** Changes read again in one pass, as one event (as live refresh does here). */
const BATCH = 256;

interface Watched {
  link: HostLink;
  router: HostRouter;
  off: () => void;
  /** The agent said its watch is complete, and the connection has held since. */
  trusted: boolean;
  /** Local ids (`NAME:ID`) changed and not read again yet, each with when: at most one per destination. */
  pending: Map<string, Seen>;
  draining?: Promise<void>;
}

export interface HostWatchOptions {
  /** The size past which auto-verify leaves a destination stale, or false when it is off now (live refresh's setting). */
  autoVerifyLimit: () => number | false;
  /** Hears how many of the hosts' destinations are watched by their agents, and how many not, at each change (the status bar). */
  hostsWatched: (hosts: { watched: number; unwatched: number }) => void;
}

export class HostWatches {
  private readonly hosts = new Map<string, Watched>();

  constructor(
    private readonly session: SessionContext,
    private readonly emit: (event: ApiEvent) => void,
    private readonly options: HostWatchOptions,
  ) {}

  /** A host's new state: connected, it is watched again; any other, its results can no longer be vouched for. */
  hostState(state: HostState, router: HostRouter): void {
    if (state.state === 'connected') void this.connected(state.name, router);
    else {
      this.forget(state.name);
      this.markHost(state.name, state.since);
    }
    this.report();
  }

  /** Stops hearing a host (dropped from the workspace, or its connection replaced). */
  forget(name: string): void {
    this.hosts.get(name)?.off();
    this.hosts.delete(name);
  }

  close(): void {
    for (const name of [...this.hosts.keys()]) this.forget(name);
    this.options.hostsWatched({ watched: 0, unwatched: 0 });
  }

  /** Counts the hosts' destinations listed now by whether their agent's watch vouches for them. */
  private report(): void {
    const open = this.session.state.workspace;
    let watched = 0;
    let unwatched = 0;
    for (const entry of open?.summary.destinations ?? [])
      if (entry.host !== undefined) {
        if (this.isTrusted(entry.host)) watched++;
        else unwatched++;
      }
    this.options.hostsWatched({ watched, unwatched });
  }

  /** Whether the host's events are trusted now (tests, the docs' promise). */
  isTrusted(name: string): boolean {
    return this.hosts.get(name)?.trusted === true;
  }

  private async connected(name: string, router: HostRouter): Promise<void> {
    this.forget(name);
    let link: HostLink;
    try {
      link = router.link(name);
    } catch {
      return;
    }
    const watched: Watched = { link, router, off: () => undefined, trusted: false, pending: new Map() };
    this.hosts.set(name, watched);
    if (link.onDestinationChanges) watched.off = link.onDestinationChanges((changes) => this.changed(name, watched, changes));
    const answer = link.onDestinationChanges ? await link.call('watchDestinations', {}).catch(() => undefined) : undefined;
    if (this.hosts.get(name) !== watched) return;
    if (!answer?.ok || !answer.value.complete) return this.markHost(name, new Date().toISOString());
    watched.trusted = true;
    this.report();
    // Results held from before (a reconnect) turned stale when the connection went: verified again now.
    await this.autoVerify(watched, this.heldOn(name));
  }

  private changed(name: string, watched: Watched, changes: DestinationChanges): void {
    const open = this.session.state.workspace;
    if (this.hosts.get(name) !== watched || !open) return;
    const wasTrusted = watched.trusted;
    watched.trusted = changes.complete;
    if (wasTrusted !== watched.trusted) this.report();
    if (!changes.complete) this.markHost(name, changes.at);
    else if (!wasTrusted) void this.autoVerify(watched, this.heldOn(name));
    for (const id of changes.destinations) {
      const local = remoteDestinationId(name, id);
      // Only destinations the host listed: whatever the agent names, this map never outgrows its list.
      if (open.byId.get(local)?.host !== name) continue;
      const seen = watched.pending.get(local);
      watched.pending.set(local, {
        changedAt: seen?.changedAt ?? changes.at,
        ...(changes.lastEventAt ? { lastEventAt: changes.lastEventAt } : {}),
      });
    }
    if (watched.pending.size > 0) watched.draining ??= this.drain(name, watched).finally(() => (watched.draining = undefined));
  }

  private async drain(name: string, watched: Watched): Promise<void> {
    while (this.hosts.get(name) === watched && watched.pending.size > 0) {
      const batch = [...watched.pending].slice(0, BATCH);
      for (const [id] of batch) watched.pending.delete(id);
      try {
        await this.reread(watched, new Map(batch));
      } catch {
        // The workspace closed or the host went: its state event says so, and marks what it must.
      }
    }
  }

  /** Stale at once, read again through the agent, then (auto-verify) verified again there. */
  private async reread(watched: Watched, changed: Map<string, Seen>): Promise<void> {
    const open = this.session.state.workspace;
    if (!open) return;
    // A result whose verify the agent began after it saw the whole change stays fresh (shared/verifyFreshness.ts).
    for (const [id, seen] of changed) keepChange(open, id, seen, 'changed_on_host');
    const entries: ScanEntry[] = [];
    await this.read(watched, 'scan', [...changed.keys()], entries).catch(() => undefined);
    if (this.session.state.workspace !== open) return;
    // A destination the read could not reach keeps the row it had: its stale mark still goes out.
    const read = new Set(entries.map((entry) => entry.destination));
    for (const id of changed.keys()) {
      const held = open.scans.get(id);
      if (!read.has(id) && held) entries.push(held);
    }
    this.sendStale(entries, changed, 'changed_on_host');
    // What is still fresh was verified after the change: verifying it again would tell nothing new.
    await this.autoVerify(
      watched,
      [...changed.keys()].filter((id) => open.verifies.get(id)?.freshness.fresh === false),
    );
  }

  /** Every result held for the host's destinations turns stale (host_unwatched), and the renderer hears it. */
  private markHost(name: string, at: string): void {
    const open = this.session.state.workspace;
    if (!open) return;
    const seen: Seen = { changedAt: at };
    const marked = new Map<string, Seen>();
    for (const id of this.heldOn(name)) if (keepChange(open, id, seen, 'host_unwatched')) marked.set(id, seen);
    const entries = [...marked.keys()].flatMap((id) => open.scans.get(id) ?? []);
    this.sendStale(entries, marked, 'host_unwatched');
  }

  private sendStale(entries: ScanEntry[], seen: Map<string, Seen>, reason: WatchStaleReason): void {
    const now = new Date().toISOString();
    const changes = entries.map((entry) => ({ entry, changedAt: now, ...seen.get(entry.destination), reason }));
    if (changes.length > 0) this.emit({ event: 'liveRefresh', data: { kind: 'destinations', changes } });
  }

  /** The host's destinations that hold a verify result. */
  private heldOn(name: string): string[] {
    const open = this.session.state.workspace;
    if (!open) return [];
    return open.summary.destinations.filter((entry) => entry.host === name && open.verifies.has(entry.id)).map((entry) => entry.id);
  }

  private async autoVerify(watched: Watched, ids: string[]): Promise<void> {
    const open = this.session.state.workspace;
    const maxBytes = this.options.autoVerifyLimit();
    if (!open || maxBytes === false || ids.length === 0) return;
    const { chosen, skipped } = chooseAutoVerify(open, ids, maxBytes);
    const entries: DestinationRead[] = [];
    if (chosen.length > 0) await this.read(watched, 'verify', chosen, entries).catch(() => undefined);
    if (this.session.state.workspace !== open) return;
    if (entries.length > 0 || skipped.length > 0) this.emit({ event: 'liveRefresh', data: { kind: 'verified', entries, skipped } });
  }

  /** A scan or verify of these ids on the host, outside any job: its items (renamed `NAME:ID`, kept by the session) into `into`. */
  private async read<M extends 'scan' | 'verify'>(watched: Watched, method: M, ids: string[], into: unknown[]): Promise<void> {
    const context = {
      signal: new AbortController().signal,
      progress: () => undefined,
      item: (item: unknown) => void into.push(item),
    } as unknown as JobContext<M>;
    await routedReadJob(method, this.session, watched.router, ids, context);
  }
}
