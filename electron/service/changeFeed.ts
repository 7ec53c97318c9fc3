// A host's agent watching its own destinations for its client (issue 24, docs/live-refresh.md):
// once the client asks (`watchDestinations`), the open workspace's destinations are watched as live
// refresh watches them on this machine (watch/destinationWatcher.ts: every folder at any depth,
// polling where watching is impossible), each change coalesced per destination and sent as a
// `destinationChanges` event, at most one per CHANGES_INTERVAL_MS (shared/hostWatch.ts). It reads and
// verifies nothing: the client asks for that. Must never send faster than the interval nor more ids
// in one event than MAX_CHANGES_PER_EVENT, and never keep the process alive.

import { CHANGES_INTERVAL_MS, MAX_CHANGES_PER_EVENT, type DestinationChanges, type HostWatch } from '../../shared/hostWatch';
import type { ApiEvent } from '../../shared/api';
import { fail } from '../../shared/apiError';
import { DestinationWatcher, type DestinationWatcherOptions } from '../watch/destinationWatcher';
import type { OpenWorkspace } from './sessionContext';

export type ChangeFeedOptions = Pick<
  DestinationWatcherOptions,
  'debounceMs' | 'maxWaitMs' | 'pollIntervalMs' | 'forcePolling' | 'watch'
> & {
  /** At least this long between two events (tests may shorten it; never below what the client's flood rule allows). */
  intervalMs?: number;
};

export class ChangeFeed {
  private readonly watcher: DestinationWatcher;
  /** Changed destinations not sent yet, each with when its change was first and last seen: one entry per destination, whatever the burst. */
  private readonly pending = new Map<string, { at: string; lastEventAt: string }>();
  private timer: NodeJS.Timeout | undefined;
  private lastSentMs = Number.NEGATIVE_INFINITY;
  private watch: HostWatch = { complete: false, watching: 0, polling: 0, reason: 'not watched yet' };
  /** What the client was last told about completeness: a change of it is sent even with no destination. */
  private told: boolean | undefined;
  private following: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly intervalMs: number;

  constructor(
    private readonly send: (changes: DestinationChanges) => void,
    options: ChangeFeedOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? CHANGES_INTERVAL_MS;
    this.watcher = new DestinationWatcher({
      ...options,
      onChange: (change) => {
        if (change.kind === 'destination') this.note(change.id, change.at, change.lastEventAt);
      },
    });
  }

  /** Watches the workspace's destinations (after the client's subscribe, an open, a reload); answers how. */
  follow(open: OpenWorkspace): Promise<HostWatch> {
    const run = async (): Promise<HostWatch> => {
      const local = open.summary.destinations.filter((destination) => destination.host === undefined);
      try {
        await this.watcher.setDestinations(local.map((destination) => ({ id: destination.id, root: destination.path })));
        const status = this.watcher.status();
        const complete = status.watching + status.polling === local.length;
        this.watch = {
          complete,
          watching: status.watching,
          polling: status.polling,
          ...(complete ? {} : { reason: `only ${status.watching + status.polling} of its ${local.length} destinations could be watched` }),
        };
      } catch (cause) {
        this.watch = {
          complete: false,
          watching: 0,
          polling: 0,
          reason: `its watch failed: ${(cause as Error)?.message ?? String(cause)}`,
        };
      }
      if (this.told !== undefined && this.told !== this.watch.complete) this.schedule();
      this.told ??= this.watch.complete;
      return this.watch;
    };
    const next = this.following.then(run, run);
    this.following = next;
    return next;
  }

  /** Keeps quiet about one destination while the engine writes it (an apply, which reports its own result). */
  mute(id: string): () => void {
    return this.watcher.suppress(id);
  }

  close(): void {
    this.closed = true;
    this.watcher.close();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private note(id: string, at: string, lastEventAt: string): void {
    if (this.closed) return;
    this.pending.set(id, { at: this.pending.get(id)?.at ?? at, lastEventAt });
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    const waitMs = Math.max(0, this.lastSentMs + this.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, waitMs);
    this.timer.unref();
  }

  private flush(): void {
    if (this.closed) return;
    const batch = [...this.pending].slice(0, MAX_CHANGES_PER_EVENT);
    for (const [id] of batch) this.pending.delete(id);
    // ISO 8601 times of one clock sort as text.
    const now = new Date().toISOString();
    const at = batch.reduce((earliest, [, seen]) => (seen.at < earliest ? seen.at : earliest), batch[0]?.[1].at ?? now);
    const lastEventAt = batch.reduce(
      (latest, [, seen]) => (seen.lastEventAt > latest ? seen.lastEventAt : latest),
      batch[0]?.[1].lastEventAt ?? now,
    );
    this.lastSentMs = Date.now();
    this.told = this.watch.complete;
    this.send({
      destinations: batch.map(([id]) => id),
      at,
      lastEventAt,
      complete: this.watch.complete,
      ...(this.watch.reason !== undefined ? { reason: this.watch.reason } : {}),
    });
    if (this.pending.size > 0) this.schedule();
  }
}

/** The Session's side of it: no feed until a client asks, then one that follows whatever workspace is open. */
export class SessionChangeFeed {
  private feed: ChangeFeed | undefined;

  constructor(
    private readonly emit: (event: ApiEvent) => void,
    private readonly options: ChangeFeedOptions | undefined,
    /** Set where live refresh runs: its liveRefresh events already carry every change. */
    private readonly liveRefreshOn: boolean,
  ) {}

  /** The `watchDestinations` handler. */
  subscribe(open: OpenWorkspace): Promise<HostWatch> {
    if (this.liveRefreshOn) throw fail('not_available', 'live refresh runs in this session: its liveRefresh events carry every change');
    this.feed ??= new ChangeFeed((data) => this.emit({ event: 'destinationChanges', data }), this.options);
    return this.feed.follow(open);
  }

  follow(open: OpenWorkspace): void {
    void this.feed?.follow(open);
  }

  mute(id: string): () => void {
    return this.feed?.mute(id) ?? (() => undefined);
  }

  close(): void {
    this.feed?.close();
    this.feed = undefined;
  }
}
