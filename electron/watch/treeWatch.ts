// One destination's folder tree watched at every depth: one non-recursive fs.watch (one inotify
// watch) per folder, never one per file. A folder made later (mkdir, a rename into the tree) is
// watched as soon as its parent reports it; a folder removed or renamed away has its watches closed.
// Chosen by figures over Node 20's own `recursive: true` (which on Linux also spends a watch on every
// file: 59,151 watches for the 20,019 folders and 39,132 files of the large demo), @parcel/watcher
// (the same 20,019 watches, twice the memory, ~60 ms of its own latency) and chokidar 4 (15 s to set
// up, 0.5 GB): docs/live-refresh.md. Never follows a link (a link to a folder is an entry, not a
// folder to enter), never reads a file's bytes, never keeps the process alive.

import { promises as fs, type FSWatcher, type watch as fsWatch } from 'node:fs';
import path from 'node:path';

export interface TreeWatchOptions {
  watch: typeof fsWatch;
  /** Any change under the root (a name in a folder added, removed, renamed or written). */
  onEvent: () => void;
  /** A watch could not be set or failed later: the tree is no longer fully watched. */
  onFailure: (cause: unknown) => void;
  /** True once the watch limit was met elsewhere: no further watch is tried, as if this one hit it too. */
  limitReached: () => boolean;
}

export class TreeWatch {
  /** Folder (absolute) → its watch, and the inode it was set on (another folder at that path is watched again). */
  private readonly watches = new Map<string, FSWatcher>();
  private readonly inodes = new Map<string, number>();
  private closed = false;

  constructor(
    readonly root: string,
    private readonly options: TreeWatchOptions,
  ) {}

  /** How many kernel watches it holds now (one per folder). */
  get size(): number {
    return this.watches.size;
  }

  /** Watches the root and every folder below it; throws what fs.watch threw (ENOSPC at the limit). */
  async start(): Promise<void> {
    await this.watchTree(this.root, true);
  }

  close(): void {
    this.closed = true;
    for (const watch of this.watches.values()) watch.close();
    this.watches.clear();
    this.inodes.clear();
  }

  /** The root folder and its subfolders; a folder that vanished meanwhile is skipped (its parent's event said so). */
  private async watchTree(folder: string, isRoot: boolean): Promise<void> {
    if (this.closed || this.watches.has(folder)) return;
    const stats = await fs.lstat(folder).catch((cause: unknown) => cause as Error);
    if (stats instanceof Error || !stats.isDirectory()) {
      if (isRoot) throw stats instanceof Error ? stats : Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' });
      return;
    }
    if (this.closed || this.watches.has(folder)) return;
    if (this.options.limitReached()) throw Object.assign(new Error('the watch limit is reached'), { code: 'ENOSPC' });
    this.watchOne(folder, stats.ino);
    let entries;
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch (cause) {
      if (isRoot) throw cause;
      return;
    }
    // Depth first, one folder at a time: a destination is small; 10,000 of them are started concurrently by the caller.
    for (const entry of entries) if (entry.isDirectory()) await this.watchTree(path.join(folder, entry.name), false);
  }

  private watchOne(folder: string, inode: number): void {
    const watch = this.options.watch(folder, { persistent: false }, (_eventType, fileName) =>
      this.onNative(folder, fileName === null ? undefined : String(fileName)),
    );
    watch.on('error', (cause) => {
      if (folder === this.root) this.options.onFailure(cause);
      else this.forget(folder);
    });
    this.watches.set(folder, watch);
    this.inodes.set(folder, inode);
  }

  private onNative(folder: string, fileName: string | undefined): void {
    if (this.closed) return;
    this.options.onEvent();
    if (fileName === undefined) return;
    const child = path.join(folder, fileName);
    void this.follow(child);
  }

  /** A name in a watched folder changed: a new folder is watched, one gone (or replaced) is let go. */
  private async follow(child: string): Promise<void> {
    const stats = await fs.lstat(child).catch(() => undefined);
    if (this.closed) return;
    if (stats?.isDirectory()) {
      if (this.inodes.get(child) === stats.ino) return;
      // A folder removed and made again under the same name: the old watch died with the old folder.
      this.forget(child);
      try {
        await this.watchTree(child, false);
      } catch (cause) {
        this.options.onFailure(cause);
      }
      // Entries made in it before its watch was set are a change too.
      this.options.onEvent();
      return;
    }
    if (this.watches.has(child)) this.forget(child);
  }

  /** Closes the watches of a folder and everything below it (it was removed or renamed away). */
  private forget(folder: string): void {
    const prefix = folder + path.sep;
    for (const [key, watch] of this.watches) {
      if (key === folder || key.startsWith(prefix)) {
        watch.close();
        this.watches.delete(key);
        this.inodes.delete(key);
      }
    }
  }
}
