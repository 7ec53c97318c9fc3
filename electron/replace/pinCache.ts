// Folders an apply pins, held open for the rest of the apply, so that moving 10,000 files does not
// open and check the same folders 10,000 times each. Folders of apply's own staging folder are kept
// as pinned (apply made them, mode 0700 at the top, and no output lies in them). A folder of the
// destination is kept too, but checked again before every use, one segment at a time from the
// destination down: it must still stand at its name in its (checked) parent as the same folder
// (device and inode, never a link). A folder renamed out of the destination meanwhile, or swapped
// for a link or another folder, is never acted in: it is pinned afresh from its parent, exactly as a
// pin per mutation would (and fails as one would). A check is one lstat a segment, against an open,
// fstat and close a segment for a fresh pin. Bounded, so a bundle of a million folders cannot
// exhaust the descriptors; past the bound a folder is pinned per use. Never changes the disk; closes
// every folder it holds, and every one it stopped using, on `closeAll`.

import { lstatSync } from 'node:fs';
import { childPath, pinChild, pinRelative, type PinnedDir } from './pinnedDir';

/** More than any real bundle's folder count on the way to its files, far fewer than the descriptor limit. */
const MAX_HELD = 256;

export interface HeldPin {
  pin: PinnedDir;
  /** Closes a pin that was not kept; a no-op for a kept one. */
  release: () => Promise<void>;
}

/** Whether the folder `name` in `parent` is still the pinned folder `pin` (the same device and inode, a folder). */
function standsAt(parent: PinnedDir, name: string, pin: PinnedDir): boolean {
  try {
    const stat = lstatSync(childPath(parent, name), { bigint: true });
    return stat.isDirectory() && stat.ino === pin.ino && stat.dev === pin.dev;
  } catch {
    return false;
  }
}

export class PinCache {
  private readonly held = new Map<string, Promise<PinnedDir>>();
  // Pins found moved or swapped: never used again, closed only on closeAll, since a mutation in
  // flight may still hold its path (a closed descriptor's number could be reused under it).
  private readonly retired: Promise<PinnedDir>[] = [];
  private root: PinnedDir | undefined;

  /** `prefix`: the staging folder's name; it and folders below it are kept without a check. */
  constructor(private readonly prefix: string) {}

  private isStaging(relative: string): boolean {
    return this.prefix !== '' && (relative === this.prefix || relative.startsWith(`${this.prefix}/`));
  }

  /** The pinned folder `relative` below `root`: kept open, and for a destination folder, checked still there. */
  async pin(root: PinnedDir, relative: string): Promise<HeldPin> {
    if (this.root !== root) {
      // Another destination pin (the folder apply just made): nothing held below the old one is used.
      for (const pending of this.held.values()) this.retired.push(pending);
      this.held.clear();
      this.root = root;
    }
    if (relative === '') return { pin: root, release: async () => undefined };
    if (this.isStaging(relative)) return this.stagingPin(root, relative);
    if (!root.anchored) {
      // A checked real path (no /proc/self/fd): pinned per use, as pinnedDir.ts checks it right before.
      const pin = await pinRelative(root, relative);
      return { pin, release: () => pin.close() };
    }
    return this.destinationPin(root, relative);
  }

  private async stagingPin(root: PinnedDir, relative: string): Promise<HeldPin> {
    let pending = this.held.get(relative);
    if (pending === undefined) {
      if (this.held.size >= MAX_HELD) {
        const pin = await pinRelative(root, relative);
        return { pin, release: () => pin.close() };
      }
      pending = this.keep(relative, pinRelative(root, relative));
    }
    return { pin: await pending, release: async () => undefined };
  }

  /** Each segment from the destination down: the held pin when it still stands at its name, else pinned afresh from its parent. */
  private async destinationPin(root: PinnedDir, relative: string): Promise<HeldPin> {
    let parent = root;
    let parentRelease = async () => undefined as void;
    let at = '';
    for (const name of relative.split('/')) {
      at = at === '' ? name : `${at}/${name}`;
      let next: HeldPin;
      try {
        next = await this.segment(root, parent, name, at);
      } finally {
        await parentRelease();
      }
      parent = next.pin;
      parentRelease = next.release;
    }
    return { pin: parent, release: parentRelease };
  }

  private async segment(root: PinnedDir, parent: PinnedDir, name: string, at: string): Promise<HeldPin> {
    const pending = this.held.get(at);
    if (pending !== undefined) {
      const pin = await pending.catch(() => undefined);
      if (pin !== undefined && standsAt(parent, name, pin)) return { pin, release: async () => undefined };
      // Moved, swapped or gone since it was pinned: never used again.
      if (this.held.get(at) === pending) {
        this.held.delete(at);
        this.retired.push(pending);
      }
    }
    const fresh = pinChild(parent, name, { dev: root.dev, label: `"${at}"` });
    if (this.held.size >= MAX_HELD || this.held.has(at)) {
      const pin = await fresh;
      return { pin, release: () => pin.close() };
    }
    return { pin: await this.keep(at, fresh), release: async () => undefined };
  }

  private keep(relative: string, pending: Promise<PinnedDir>): Promise<PinnedDir> {
    this.held.set(relative, pending);
    // A failed pin is not kept: the next use tries again (and fails with its own message).
    pending.catch(() => {
      if (this.held.get(relative) === pending) this.held.delete(relative);
    });
    return pending;
  }

  /** Closes every folder kept or retired; before the staging folder is removed, and when apply ends. */
  async closeAll(): Promise<void> {
    const pending = [...this.held.values(), ...this.retired];
    this.held.clear();
    this.retired.length = 0;
    this.root = undefined;
    await Promise.all(pending.map((held) => held.then((pin) => pin.close()).catch(() => undefined)));
  }
}
