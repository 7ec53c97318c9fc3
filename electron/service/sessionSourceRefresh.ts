// Live refresh of the sync axis: watches the source bundles the open workspace configures (through
// the destination watcher's public interface, one more watcher whose "destinations" are the bundle
// folders), and when one changes forgets its manifest and reads again the destinations configured
// with it, so their sync is decided against the bundle as it is now. Their verify results are left
// as they are: the destinations did not change. One `liveRefresh` event of kind `sync` per pass.
// Must never let a change of the workspace shown before reach the one shown now, and never write.

import type { ApiEvent, ScanEntry } from '../../shared/api';
import { inspectDestination } from '../engine/inspectDestination';
import { bundleFolderOf } from '../engine/sourceManifests';
import { DestinationWatcher, type WatchChange } from '../watch/destinationWatcher';
import type { OpenWorkspace } from './sessionContext';
import { keepReread } from './sessionDestinations';
import { destinationsOfBundle, entryWithSync } from './sessionSync';

export interface SourceRefreshOptions {
  debounceMs?: number;
  maxWaitMs?: number;
  pollIntervalMs?: number;
  forcePolling?: string;
}

/** Destinations read again at once after a bundle changed. */
const READ_CONCURRENCY = 8;

export class SourceRefresh {
  private watcher: DestinationWatcher | undefined;
  private followed: OpenWorkspace | undefined;
  private following: Promise<void> = Promise.resolve();
  private readonly pending = new Map<string, string>();
  private draining: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly session: { readonly state: { workspace?: OpenWorkspace } },
    private readonly emit: (event: ApiEvent) => void,
    private readonly options: SourceRefreshOptions = {},
  ) {}

  private current(): OpenWorkspace | undefined {
    return this.session.state.workspace;
  }

  /** Watches the bundles the workspace configures now (after an open, or a reload). */
  follow(open: OpenWorkspace): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.followed !== open) this.pending.clear();
    this.followed = open;
    const watcher = (this.watcher ??= new DestinationWatcher({ ...this.options, onChange: (change) => this.onChange(change) }));
    const bundles = new Set<string>();
    for (const destination of open.summary.destinations)
      if (destination.host === undefined && destination.source !== undefined) bundles.add(bundleFolderOf(destination.source));
    const run = () => watcher.setDestinations([...bundles].map((folder) => ({ id: folder, root: folder })));
    this.following = this.following.then(run, run);
    return this.following;
  }

  /** Resolves once the watches being set are in place (tests). */
  async ready(): Promise<void> {
    await this.following.catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watcher?.close();
    this.watcher = undefined;
    this.pending.clear();
    await this.draining;
  }

  private onChange(change: WatchChange): void {
    if (this.closed || change.kind !== 'destination') return;
    if (!this.pending.has(change.id)) this.pending.set(change.id, change.at);
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
  }

  private async drain(): Promise<void> {
    while (!this.closed && this.pending.size > 0) {
      const [folder, changedAt] = [...this.pending][0]!;
      this.pending.delete(folder);
      try {
        await this.reread(folder, changedAt);
      } catch {
        // The workspace closed under the read: the next change is read afresh.
      }
    }
  }

  private async reread(folder: string, changedAt: string): Promise<void> {
    const open = this.current();
    if (!open || open !== this.followed) return;
    open.sources.forget(folder);
    const destinations = destinationsOfBundle(open, folder, bundleFolderOf);
    const entries: ScanEntry[] = [];
    let next = 0;
    const lane = async () => {
      for (let index = next++; index < destinations.length; index = next++) {
        const destination = destinations[index]!;
        entries.push(await entryWithSync(open, destination, await inspectDestination(destination.path)));
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, destinations.length) }, lane));
    if (this.current() !== open || this.closed) return;
    const kept = entries.filter((entry) => open.byId.has(entry.destination));
    for (const entry of kept) keepReread(open, entry);
    if (kept.length > 0) this.emit({ event: 'liveRefresh', data: { kind: 'sync', changedAt, entries: kept } });
  }
}
