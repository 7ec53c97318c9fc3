// Live refresh's engine: tells when a destination, or the workspace file, changed on disk. Every
// folder of a destination is watched, at any depth (treeWatch.ts: one non-recursive fs.watch per
// folder, never one per file), so an output edited three folders down is a change of its
// destination. Events are debounced per destination (a burst of writes is one change, and a long
// burst still reports within maxWaitMs). Where a native watch is unavailable (inotify watches
// exhausted: ENOSPC, EPERM, a network file system whose writes from other machines inotify never
// sees) the destination is polled instead, its whole tree stat'ed each sweep (pollSignature.ts), and
// its mode says why. A removed folder is polled until it comes back, then watched again.
// Must never follow a link, read a file's bytes, or keep the process alive (watches and timers are unref'd).

import { watch as fsWatch, promises as fs, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { LiveRefreshStatus } from '../../shared/liveRefresh';
import { networkFileSystemOf } from './networkFileSystem';
import { fileSignature, pollSignature } from './pollSignature';
import { Bursts } from './bursts';
import { EventBarrier } from './eventBarrier';
import { PollSchedule } from './pollSchedule';
import { TreeWatch } from './treeWatch';
import {
  errnoCode,
  POLL_REASONS,
  reasonOf,
  type DestinationWatcherOptions,
  type Mode,
  type WatchedDestination,
  type WorkspaceWatchTarget,
} from './watchModes';

export { POLL_REASONS } from './watchModes';
export type { DestinationWatcherOptions, WatchChange, WatchedDestination, WorkspaceWatchTarget } from './watchModes';

interface Target {
  key: string;
  /** The folder watched or polled. */
  root: string;
  /** A workspace file: only events naming it count; the folder is its parent. */
  fileName?: string;
  /** A folder of destinations: only added or removed entries count. */
  entriesOnly?: boolean;
  mode: Mode;
  native?: FSWatcher;
  /** A destination's folders, every depth. */
  tree?: TreeWatch;
  /** The folder's inode when the native watch was made: another one at that path is watched again. */
  inode?: number;
  signature?: string;
  suppressed: number;
  /** Left (removed from the workspace, or the watcher closed): late callbacks are ignored. */
  gone?: boolean;
}

const WORKSPACE_KEY = '\u0000workspace';

export class DestinationWatcher {
  private readonly targets = new Map<string, Target>();
  private readonly bursts: Bursts;
  private readonly polls: PollSchedule<Target>;
  readonly pollIntervalMs: number;
  private readonly watchFn: typeof fsWatch;
  /** Once ENOSPC is seen, further native watches would fail the same way: poll at once. */
  private limitReached = false;
  private closed = false;
  private statusDirty = false;
  private workspaceTarget: WorkspaceWatchTarget | undefined;
  private readonly fileSystemByDevice = new Map<number, Promise<string | undefined>>();
  private readonly barrier = new EventBarrier();

  constructor(private readonly options: DestinationWatcherOptions) {
    const debounceMs = options.debounceMs ?? 400;
    this.bursts = new Bursts(debounceMs, Math.max(options.maxWaitMs ?? 1000, debounceMs), (key, firstMs, lastMs) =>
      this.endBurst(key, firstMs, lastMs),
    );
    this.pollIntervalMs = options.pollIntervalMs ?? 2000;
    this.polls = new PollSchedule(this.pollIntervalMs, {
      polled: () => [...this.targets.values()].filter((target) => this.isPolled(target)),
      pollOne: (target) => this.pollOne(target),
      afterSweep: (intervalChanged) => {
        if (intervalChanged) this.statusDirty = true;
        this.reportStatus();
      },
    });
    this.watchFn = options.watch ?? fsWatch;
  }

  /**
   * Watches exactly these destinations: new ones are added, those no longer listed are let go, one
   * whose folder moved is watched at its new place. Resolves once each has its mode.
   */
  async setDestinations(destinations: readonly WatchedDestination[]): Promise<void> {
    if (this.closed) return;
    const wanted = new Map(destinations.map((destination) => [destination.id, path.resolve(destination.root)]));
    for (const [key, target] of this.targets) {
      if (key === WORKSPACE_KEY) continue;
      if (wanted.get(key) !== target.root) this.drop(key);
    }
    const added = [...wanted].filter(([id]) => !this.targets.has(id)).map(([id, root]) => this.add({ key: id, root }));
    await Promise.all(added);
    this.reportStatus();
  }

  /** Watches the workspace file (or folder of destinations), or nothing. */
  async setWorkspace(target: WorkspaceWatchTarget | undefined): Promise<void> {
    if (this.closed) return;
    const same = target && this.workspaceTarget && target.path === this.workspaceTarget.path && target.kind === this.workspaceTarget.kind;
    if (same) return;
    this.drop(WORKSPACE_KEY);
    this.workspaceTarget = target;
    if (target) {
      const resolved = path.resolve(target.path);
      await this.add(
        target.kind === 'file'
          ? { key: WORKSPACE_KEY, root: path.dirname(resolved), fileName: path.basename(resolved) }
          : { key: WORKSPACE_KEY, root: resolved, entriesOnly: true },
      );
    }
    this.reportStatus();
  }

  /** How each destination is watched now, and the workspace file. */
  status(): LiveRefreshStatus {
    let watching = 0;
    let polling = 0;
    const reasons = new Map<string, number>();
    let workspace: LiveRefreshStatus['workspace'];
    for (const target of this.targets.values()) {
      if (target.key === WORKSPACE_KEY) {
        const shown = this.workspaceTarget!.path;
        workspace = target.mode.mode === 'watching' ? { path: shown, mode: 'watching' } : { path: shown, ...target.mode };
        continue;
      }
      if (target.mode.mode === 'watching') watching += 1;
      else {
        polling += 1;
        reasons.set(target.mode.reason, (reasons.get(target.mode.reason) ?? 0) + 1);
      }
    }
    const pollingReasons = [...reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
    return {
      active: !this.closed,
      watching,
      polling,
      pollingReasons,
      ...(workspace ? { workspace } : {}),
      pollIntervalMs: this.polls.intervalMs,
    };
  }

  /** Kernel watches held now: one per watched folder (tests, docs/live-refresh.md). */
  watchCount(): number {
    let count = 0;
    for (const target of this.targets.values()) count += target.tree?.size ?? (target.native ? 1 : 0);
    return count;
  }

  /** Resolves once every burst of events begun has been reported (tests and the bench wait on it, never on a sleep). */
  settled(): Promise<void> {
    return this.bursts.settled();
  }

  /** Resolves at the end of the next complete sweep of the polled destinations (at once when none is polled). */
  nextSweep(): Promise<void> {
    return this.polls.nextSweep();
  }

  /** The mode of one destination (tests, diagnostics). */
  modeOf(id: string): Mode | undefined {
    return this.targets.get(id)?.mode;
  }

  /**
   * While the engine itself writes a destination (an apply), its events are not changes to report:
   * the apply reads and verifies the destination afterwards. Returns the release; polling takes the
   * disk as it is then for its baseline.
   */
  suppress(id: string): () => void {
    const target = this.targets.get(id);
    if (!target) return () => undefined;
    target.suppressed += 1;
    this.bursts.cancel(id);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Muted until the events of the engine's last writes, still in the kernel's queue, have arrived.
      void this.barrier.pass().then(() => {
        target.suppressed -= 1;
        if (target.suppressed === 0 && target.mode.mode === 'polling' && !target.gone) void this.rebase(target);
      });
    };
  }

  /** Stops every watch and timer; nothing is reported afterwards. */
  close(): void {
    this.closed = true;
    this.barrier.close();
    for (const key of [...this.targets.keys()]) this.drop(key);
    this.polls.stop();
  }

  // -------------------------------------------------------------------------------------------

  private async add(spec: Pick<Target, 'key' | 'root' | 'fileName' | 'entriesOnly'>): Promise<void> {
    const target: Target = { ...spec, mode: { mode: 'polling', reason: POLL_REASONS.missing }, suppressed: 0 };
    this.targets.set(spec.key, target);
    await this.establish(target);
  }

  private drop(key: string): void {
    const target = this.targets.get(key);
    if (!target) return;
    target.gone = true;
    this.bursts.cancel(key);
    if (target.native || target.tree) {
      this.closeNative(target);
      // A watch freed: the next destination may get one again.
      this.limitReached = false;
    }
    this.targets.delete(key);
  }

  /** Watches the target natively when it can, else polls it with the reason. */
  private async establish(target: Target): Promise<void> {
    const forced = this.options.forcePolling;
    const reason = forced ?? (this.limitReached ? POLL_REASONS.limit : await this.nativeWatch(target));
    if (target.gone) {
      this.closeNative(target);
      return;
    }
    if (reason === undefined) {
      this.setMode(target, { mode: 'watching' });
      return;
    }
    this.setMode(target, { mode: 'polling', reason });
    await this.rebase(target);
    this.polls.schedule();
  }

  /** Undefined when the watch is in place; else why it could not be. */
  private async nativeWatch(target: Target): Promise<string | undefined> {
    const stats = await fs.lstat(target.root).catch((cause: unknown) => cause as NodeJS.ErrnoException);
    if (stats instanceof Error) return reasonOf(stats);
    if (!stats.isDirectory()) return POLL_REASONS.missing;
    // One statfs per device: every folder on it is on the same file system.
    let fileSystem = this.fileSystemByDevice.get(stats.dev);
    if (!fileSystem) this.fileSystemByDevice.set(stats.dev, (fileSystem = networkFileSystemOf(target.root)));
    const network = await fileSystem;
    if (network) return `the folder is on a network file system (${network})`;
    if (target.gone) return undefined;
    // Asked again here: the folders are checked concurrently, and another may have hit the limit meanwhile.
    if (this.limitReached) return POLL_REASONS.limit;
    if (target.fileName === undefined && !target.entriesOnly) return this.treeWatch(target, stats.ino);
    try {
      const native = this.watchFn(target.root, { persistent: false }, (eventType, fileName) =>
        this.onNativeEvent(target, eventType, fileName === null ? undefined : String(fileName)),
      );
      native.on('error', (cause) => this.onNativeError(target, cause));
      target.native = native;
      target.inode = stats.ino;
      return undefined;
    } catch (cause) {
      if (errnoCode(cause) === 'ENOSPC') this.limitReached = true;
      return reasonOf(cause);
    }
  }

  /** A destination: every folder of it watched, or none (a tree watched in part would miss changes). */
  private async treeWatch(target: Target, inode: number): Promise<string | undefined> {
    const tree = new TreeWatch(target.root, {
      watch: this.watchFn,
      limitReached: () => this.limitReached,
      onEvent: () => {
        if (!target.gone && target.suppressed === 0 && target.tree === tree) this.noteEvent(target);
      },
      onFailure: (cause) => {
        if (target.tree === tree) this.onNativeError(target, cause);
      },
    });
    target.tree = tree;
    target.inode = inode;
    try {
      await tree.start();
      return undefined;
    } catch (cause) {
      tree.close();
      if (target.tree === tree) target.tree = undefined;
      if (errnoCode(cause) === 'ENOSPC') this.limitReached = true;
      return reasonOf(cause);
    }
  }

  private closeNative(target: Target): void {
    target.native?.close();
    target.native = undefined;
    target.tree?.close();
    target.tree = undefined;
  }

  private onNativeEvent(target: Target, eventType: string, fileName: string | undefined): void {
    if (target.gone || target.suppressed > 0) return;
    if (target.fileName !== undefined && fileName !== undefined && fileName !== target.fileName) return;
    // A folder of destinations lists its visible subfolders: a hidden entry (the history journal) is none.
    if (target.entriesOnly && (eventType !== 'rename' || fileName?.startsWith('.') === true)) return;
    this.noteEvent(target);
  }

  private onNativeError(target: Target, cause: unknown): void {
    if (target.gone) return;
    if (errnoCode(cause) === 'ENOSPC') this.limitReached = true;
    this.closeNative(target);
    this.setMode(target, { mode: 'polling', reason: reasonOf(cause) });
    this.reportStatus();
    this.noteEvent(target);
    void this.rebase(target).then(() => this.polls.schedule());
  }

  /** One raw event: starts or extends the target's burst. */
  private noteEvent(target: Target): void {
    this.bursts.note(target.key);
  }

  private async endBurst(key: string, firstMs: number, lastMs: number): Promise<void> {
    const target = this.targets.get(key);
    if (!target || target.gone || this.closed) return;
    // A removed or replaced folder ends its native watch: check it is still the one watched.
    if (target.native || target.tree) {
      const stats = await fs.lstat(target.root).catch(() => undefined);
      if (target.gone) return;
      if (!stats || !stats.isDirectory() || stats.ino !== target.inode) {
        this.closeNative(target);
        await this.establish(target);
        this.reportStatus();
      }
    }
    this.emit(target, firstMs, lastMs);
  }

  private emit(target: Target, firstMs: number, lastMs: number): void {
    if (target.gone || this.closed) return;
    const at = new Date(firstMs).toISOString();
    try {
      this.options.onChange(
        target.key === WORKSPACE_KEY
          ? { kind: 'workspace', at }
          : { kind: 'destination', id: target.key, at, lastEventAt: new Date(lastMs).toISOString() },
      );
    } catch {
      // A listener's failure must not stop the watching of the others.
    }
  }

  private setMode(target: Target, mode: Mode): void {
    const before = target.mode;
    target.mode = mode;
    if (before.mode !== mode.mode || (before.mode === 'polling' && mode.mode === 'polling' && before.reason !== mode.reason))
      this.statusDirty = true;
  }

  private reportStatus(): void {
    if (!this.statusDirty || this.closed) return;
    this.statusDirty = false;
    try {
      this.options.onStatus?.(this.status());
    } catch {
      // As for onChange.
    }
  }

  // Polling ------------------------------------------------------------------------------------

  private async signatureOf(target: Target): Promise<{ signature: string; folderPresent: boolean }> {
    if (target.fileName !== undefined) {
      const signature = await fileSignature(path.join(target.root, target.fileName));
      return { signature, folderPresent: false };
    }
    return pollSignature(target.root);
  }

  private async rebase(target: Target): Promise<void> {
    target.signature = (await this.signatureOf(target)).signature;
  }

  private isPolled(target: Target): boolean {
    return !target.native && !target.tree && target.mode.mode === 'polling';
  }

  private async pollOne(target: Target): Promise<void> {
    if (target.gone) return;
    const { signature, folderPresent } = await this.signatureOf(target);
    if (target.gone || signature === target.signature) return;
    target.signature = signature;
    if (target.suppressed > 0) return;
    // A folder that was missing is back: watch it natively again when it can be.
    if (folderPresent && target.mode.mode === 'polling' && target.mode.reason === POLL_REASONS.missing && !this.options.forcePolling)
      await this.establish(target);
    // Seen now, after the read that found it: a write it reports came before.
    const now = Date.now();
    this.emit(target, now, now);
  }
}
