// Live refresh in the session: watches the open workspace's destinations and its workspace file
// (electron/watch/), and turns what the watcher reports into what the renderer needs. A destination
// that changed has its verify result turned stale at once (shared/verifyFreshness.ts, changed_on_disk)
// and is read again by the inspect path (the same read and the same freshness rule as an inspect); a
// workspace file that changed is re-read by the session's reload (operations/reloadWorkspace.ts), the
// watches follow the new list, and the destinations it added or changed are read. Each is one
// `liveRefresh` event (shared/api.ts), as is each change in how the workspace is watched.
// Must never let a change of the workspace shown before reach the one shown now, and never write the disk.

import type { ApiEvent, EventOf, ResponseOf, ScanEntry, DestinationRead } from '../../shared/api';
import { LIVE_REFRESH_OFF, type LiveRefreshStatus } from '../../shared/liveRefresh';
import { nextVerifyFreshness, type WatchStaleReason } from '../../shared/verifyFreshness';
import { inspectDestination } from '../engine/inspectDestination';
import { DestinationWatcher, type WatchChange, type WorkspaceWatchTarget } from '../watch/destinationWatcher';
import type { OpenWorkspace } from './sessionContext';
import { keepReread } from './sessionDestinations';
import { formatBytes } from '../../shared/byteSize';
import { entryWithSync } from './sessionSync';
import type { AutoVerifySetting } from '../../shared/autoVerifySetting';

export interface LiveRefreshOptions {
  debounceMs?: number;
  maxWaitMs?: number;
  pollIntervalMs?: number;
  /** Poll every destination, with this as the reason shown (tests; mounts known to lie to inotify). */
  forcePolling?: string;
  /**
   * Auto-verify: a destination that changed on disk and held a verify result is verified again once
   * its burst settled, incrementally (the stat cache); on opening, so is each destination the cache
   * knows. False turns it off (results then stay stale until a verify). A destination whose recorded
   * outputs are larger than `maxBytes` in all is left stale, with that reason.
   */
  autoVerify?: false | { maxBytes?: number };
}

/**
 * Auto-verify unless the environment turns it off (`DISTRIBUTOR_INSPECTOR_AUTO_VERIFY=off`): the one
 * run's default; the operator's setting (the status bar's switch, `setAutoVerify`) moves it unless
 * the environment turned it off.
 */
export function autoVerifyFromEnvironment(env: NodeJS.ProcessEnv = process.env): LiveRefreshOptions['autoVerify'] {
  return env.DISTRIBUTOR_INSPECTOR_AUTO_VERIFY === 'off' ? false : undefined;
}

/** Recorded outputs past this many bytes in all are not hashed in the background: 1 GiB. */
export const AUTO_VERIFY_MAX_BYTES = 1024 * 1024 * 1024;

/** What live refresh needs of the session: the workspace shown now, and its one reload. */
export interface LiveRefreshHost {
  readonly state: { workspace?: OpenWorkspace };
  reloadWorkspace(): Promise<ResponseOf<'reloadWorkspace'>>;
  /** Verifies these destinations of `open` incrementally, outside any job; each result kept fresh and returned. */
  verifyQuietly(open: OpenWorkspace, ids: string[]): Promise<DestinationRead[]>;
  /** Whether the stat cache knows the destination at this path (it was verified before, on this machine and boot). */
  hasCachedSignatures(destinationPath: string): Promise<boolean>;
}

/** Which of these destinations auto-verify hashes again, and which it leaves stale (recorded outputs past `maxBytes` in all), saying why. */
export function chooseAutoVerify(
  open: OpenWorkspace,
  ids: readonly string[],
  maxBytes: number,
): { chosen: string[]; skipped: { destination: string; reason: string }[] } {
  const skipped: { destination: string; reason: string }[] = [];
  const chosen: string[] = [];
  for (const id of ids) {
    const held = open.verifies.get(id);
    const bytes = held ? held.report.outputs.reduce((sum, output) => sum + (output.expected?.size ?? 0), 0) : 0;
    if (bytes > maxBytes)
      skipped.push({
        destination: id,
        reason: `its outputs are ${formatBytes(bytes)}, over the ${formatBytes(maxBytes)} auto-verify limit: verify it to check`,
      });
    else chosen.push(id);
  }
  return { chosen, skipped };
}

/**
 * When a watch saw a change of one destination: its first event (a result turns stale then) and its
 * last (absent where the watch does not say: a host's older agent).
 */
export interface Seen {
  changedAt: string;
  lastEventAt?: string;
}

/**
 * A watch saw the destination change: the verify result held for it turns stale at once (the reason
 * says which watch), unless its verify began after the change's last event. Whether it turned.
 */
export function keepChange(open: OpenWorkspace, id: string, { changedAt, lastEventAt }: Seen, reason?: WatchStaleReason): boolean {
  const held = open.verifies.get(id);
  if (!held) return false;
  const freshness = nextVerifyFreshness(held.stamp, held.freshness, { kind: 'changed_on_disk', at: changedAt, reason, lastEventAt });
  if (freshness === held.freshness) return false;
  open.verifies.set(id, { ...held, freshness });
  return true;
}

/** Destinations read again at once: enough to keep the disk busy, few enough not to starve the API. */
const READ_CONCURRENCY = 8;
/** Changes read in one pass, sent as one event (a publisher writing 10,000 destinations is ~40 events). */
const BATCH = 256;

/** What to watch so that the list follows the workspace: its file, its folder of destinations, or nothing (one folder opened as a destination). */
export function workspaceWatchTarget(open: OpenWorkspace): WorkspaceWatchTarget | undefined {
  if (open.opened.asDestination) return undefined;
  if (open.loaded.file) return { path: open.loaded.file, kind: 'file' };
  // A folder that holds a state file is itself the one destination: its own watch sees it.
  if (open.loaded.destinations.some((destination) => destination.path === open.loaded.root)) return undefined;
  return { path: open.loaded.root, kind: 'folder' };
}

async function mapLimited<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export class LiveRefresh {
  private watcher: DestinationWatcher | undefined;
  private current: LiveRefreshStatus = LIVE_REFRESH_OFF;
  private hosts: { watched: number; unwatched: number } | undefined;
  private sent = '';
  /** The workspace the watches were last set for: changes reported for another are dropped. */
  private followed: OpenWorkspace | undefined;
  private following: Promise<void> = Promise.resolve();
  /** Destinations changed and not yet read again: when the watcher saw the first and the last event of each. */
  private readonly pending = new Map<string, Seen>();
  private workspaceChangedAt: string | undefined;
  private draining: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly host: LiveRefreshHost,
    private readonly emit: (event: ApiEvent) => void,
    private readonly options: LiveRefreshOptions = {},
  ) {
    if (!('autoVerify' in options)) this.options = { ...options, autoVerify: autoVerifyFromEnvironment() };
    this.autoVerifyOn = this.options.autoVerify !== false;
    this.autoVerifyFixed = this.options.autoVerify === false && !('autoVerify' in options);
  }

  /** Whether auto-verify runs now: the options' default, then the operator's setting. */
  private autoVerifyOn: boolean;
  /** The environment turned it off for this run: the setting cannot turn it on. */
  private readonly autoVerifyFixed: boolean;

  autoVerifySetting(): AutoVerifySetting {
    return this.autoVerifyFixed
      ? { enabled: false, fixedBy: 'auto-verify is off for this run: DISTRIBUTOR_INSPECTOR_AUTO_VERIFY=off' }
      : { enabled: this.autoVerifyOn };
  }

  /** The size past which auto-verify leaves a destination stale, or false when auto-verify is off now. */
  autoVerifyLimit(): number | false {
    return this.autoVerifyOn ? ((this.options.autoVerify || undefined)?.maxBytes ?? AUTO_VERIFY_MAX_BYTES) : false;
  }

  /** The operator's switch; turning it on does not verify what is stale already (Verify does). */
  setAutoVerify(enabled: boolean): AutoVerifySetting {
    if (!this.autoVerifyFixed) this.autoVerifyOn = enabled;
    return this.autoVerifySetting();
  }

  /** Watches the workspace as it is now (after an open, or a reload that changed its list). */
  follow(open: OpenWorkspace): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.followed !== open) {
      // Changes seen for the workspace shown before are about folders no longer shown.
      this.pending.clear();
      this.workspaceChangedAt = undefined;
      void this.verifyCachedOnOpen(open);
    }
    this.followed = open;
    const watcher = (this.watcher ??= new DestinationWatcher({
      ...this.options,
      onChange: (change) => this.onChange(change),
      onStatus: (status) => this.setStatus(status),
    }));
    const run = async () => {
      // A host's destinations are on another machine: its agent reads them, nothing here can watch them.
      const local = open.summary.destinations.filter((destination) => destination.host === undefined);
      await watcher.setDestinations(local.map((destination) => ({ id: destination.id, root: destination.path })));
      await watcher.setWorkspace(workspaceWatchTarget(open));
      this.setStatus(watcher.status());
    };
    this.following = this.following.then(run, run);
    return this.following;
  }

  /** How the workspace is watched, once the watches being set are in place. */
  async status(): Promise<LiveRefreshStatus> {
    await this.following.catch(() => undefined);
    return this.current;
  }

  /** Keeps the watcher quiet about one destination while the engine writes it (an apply). */
  mute(id: string): () => void {
    return this.watcher?.suppress(id) ?? (() => undefined);
  }

  /** Stops every watch; resolves when a pass already reading the disk has ended. */
  async close(): Promise<void> {
    this.closed = true;
    this.watcher?.close();
    this.watcher = undefined;
    this.pending.clear();
    this.current = LIVE_REFRESH_OFF;
    await this.draining;
  }

  /** The hosts' destinations watched by their agents, and not (hostWatch.ts): part of the status. */
  hostsWatched(hosts: { watched: number; unwatched: number }): void {
    this.hosts = hosts.watched + hosts.unwatched > 0 ? hosts : undefined;
    if (this.current.active) this.setStatus(this.current);
  }

  private setStatus(local: LiveRefreshStatus): void {
    const { hosts: _hosts, ...status } = local;
    const current: LiveRefreshStatus = this.hosts ? { ...status, hosts: this.hosts } : status;
    this.current = current;
    const text = JSON.stringify(current);
    if (text === this.sent) return;
    this.sent = text;
    this.emit({ event: 'liveRefresh', data: { kind: 'status', status: current } });
  }

  private onChange(change: WatchChange): void {
    if (this.closed) return;
    if (change.kind === 'workspace') this.workspaceChangedAt ??= change.at;
    else {
      const seen = this.pending.get(change.id);
      this.pending.set(change.id, { changedAt: seen?.changedAt ?? change.at, lastEventAt: change.lastEventAt });
    }
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
  }

  /** One pass at a time: the workspace file first (it decides what the destinations are), then the destinations, a batch per event. */
  private async drain(): Promise<void> {
    while (!this.closed && (this.workspaceChangedAt !== undefined || this.pending.size > 0)) {
      try {
        if (this.workspaceChangedAt !== undefined) {
          const at = this.workspaceChangedAt;
          this.workspaceChangedAt = undefined;
          await this.rereadWorkspace(at);
          continue;
        }
        const batch = [...this.pending].slice(0, BATCH);
        for (const [id] of batch) this.pending.delete(id);
        await this.rereadDestinations(batch);
      } catch {
        // A read that failed (the workspace closed under it) leaves the next change to be read afresh.
      }
    }
  }

  private async read(open: OpenWorkspace, id: string): Promise<ScanEntry | undefined> {
    const destination = open.byId.get(id);
    if (!destination) return undefined;
    return entryWithSync(open, destination, await inspectDestination(destination.path));
  }

  private async rereadDestinations(batch: [id: string, seen: Seen][]): Promise<void> {
    const open = this.host.state.workspace;
    if (!open || open !== this.followed) return;
    // Stale at once, before the read: whatever the read finds, a result taken before this change
    // described the disk before it. One whose verify began reading after the watcher saw the whole
    // change (its report waits for the burst to go quiet, so it can come after the result) stays fresh.
    for (const [id, seen] of batch) keepChange(open, id, seen);
    const read = await mapLimited(batch, READ_CONCURRENCY, async ([id, seen]) => ({ entry: await this.read(open, id), seen }));
    if (this.host.state.workspace !== open || this.closed) return;
    const changes: EventOf<'liveRefresh'> & { kind: 'destinations' } = { kind: 'destinations', changes: [] };
    for (const { entry, seen } of read) {
      if (!entry || !open.byId.has(entry.destination)) continue;
      keepReread(open, entry);
      changes.changes.push({ entry, ...seen });
    }
    if (changes.changes.length > 0) this.emit({ event: 'liveRefresh', data: changes });
    // What is still fresh was verified after the change: verifying it again would tell nothing new.
    await this.autoVerify(
      open,
      changes.changes.map((change) => change.entry.destination).filter((id) => open.verifies.get(id)?.freshness.fresh === false),
    );
  }

  /** On opening: every destination the stat cache knows is verified again, incrementally. */
  private async verifyCachedOnOpen(open: OpenWorkspace): Promise<void> {
    if (!this.autoVerifyOn) return;
    try {
      const local = open.summary.destinations.filter((destination) => destination.host === undefined);
      const known = await mapLimited(local, READ_CONCURRENCY, async (d) =>
        (await this.host.hasCachedSignatures(d.path)) ? d.id : undefined,
      );
      await this.autoVerify(
        open,
        known.filter((id): id is string => id !== undefined),
      );
    } catch {
      // The workspace closed meanwhile: nothing to say about it.
    }
  }

  /**
   * Verifies again what changed (or what the cache knows), except a destination whose recorded
   * outputs are past the size limit: it stays stale, and the event says why.
   */
  private async autoVerify(open: OpenWorkspace, ids: string[]): Promise<void> {
    const maxBytes = this.autoVerifyLimit();
    if (maxBytes === false || ids.length === 0) return;
    const { chosen, skipped } = chooseAutoVerify(open, ids, maxBytes);
    const entries = chosen.length > 0 ? await this.host.verifyQuietly(open, chosen) : [];
    if (this.host.state.workspace !== open || this.closed) return;
    if (entries.length > 0 || skipped.length > 0) this.emit({ event: 'liveRefresh', data: { kind: 'verified', entries, skipped } });
  }

  private async rereadWorkspace(changedAt: string): Promise<void> {
    const open = this.host.state.workspace;
    if (!open || open !== this.followed) return;
    const reload = await this.host.reloadWorkspace();
    if (this.host.state.workspace !== open || this.closed) return;
    const ids = [...reload.changes.added, ...reload.changes.changed];
    const read = await mapLimited(ids, READ_CONCURRENCY, (id) => this.read(open, id));
    if (this.host.state.workspace !== open || this.closed) return;
    const entries = read.filter((entry): entry is ScanEntry => entry !== undefined);
    for (const entry of entries) keepReread(open, entry);
    this.emit({ event: 'liveRefresh', data: { kind: 'workspace', changedAt, reload, entries } });
  }
}
