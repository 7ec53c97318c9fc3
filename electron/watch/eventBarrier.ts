// A barrier in the kernel's event queue. Every fs.watch of this process reads one inotify queue
// (libuv keeps one inotify descriptor per loop), in order. A change made in a folder of our own, once
// its event arrives, proves that every event queued before it has been delivered too: the events of
// the engine's own last writes to a destination have arrived, and are still muted, by the time a mute
// is lifted. Without it the events of an apply's last removals (a cancelled apply's staging folder)
// could arrive after the mute and turn a true verify result stale.

import { mkdtempSync, rmSync, watch as fsWatch, writeFileSync, type FSWatcher } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A bound on the wait, never the wait itself: where the queue cannot be marked, a mute ends after it. */
const LONGEST_WAIT_MS = 1_000;

export class EventBarrier {
  private dir: string | undefined;
  private watcher: FSWatcher | undefined;
  private next = 0;
  private readonly waiting = new Map<string, () => void>();
  private failed = false;

  /** Resolves once every event queued before the call has been delivered (or after the bound). */
  pass(): Promise<void> {
    return new Promise((resolve) => {
      const name = `barrier-${this.next++}`;
      const timer = setTimeout(() => done(), LONGEST_WAIT_MS);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(name);
        resolve();
      };
      if (!this.start()) return done();
      this.waiting.set(name, done);
      try {
        writeFileSync(path.join(this.dir!, name), '');
        rmSync(path.join(this.dir!, name), { force: true });
      } catch {
        done();
      }
    });
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
    for (const done of [...this.waiting.values()]) done();
  }

  private start(): boolean {
    if (this.watcher) return true;
    if (this.failed) return false;
    try {
      this.dir = mkdtempSync(path.join(os.tmpdir(), 'inspector-barrier-'));
      this.watcher = fsWatch(this.dir, { persistent: false }, (_event, name) => {
        if (name !== null) this.waiting.get(name.toString())?.();
      });
      this.watcher.on('error', () => this.close());
      return true;
    } catch {
      // No watch to spare (ENOSPC) or no temp folder: mutes end after the bound instead.
      this.failed = true;
      if (this.dir) rmSync(this.dir, { recursive: true, force: true });
      this.dir = undefined;
      return false;
    }
  }
}
