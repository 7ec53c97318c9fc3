// Folders of apply's own staging folder, pinned once and held open for the rest of the apply, so that
// staging 10,000 files does not open and check the same four folders 10,000 times each. Only folders
// inside the staging folder are kept (apply made them, mode 0700 at the top, and no output lies in
// them): a folder of the destination is still pinned afresh for each mutation. Bounded, so a bundle
// of a million folders cannot exhaust the descriptors; past the bound a folder is pinned per use, as
// before. Never changes the disk; closes every folder it holds on `closeAll`.

import { pinRelative, type PinnedDir } from './pinnedDir';

/** More than any real bundle's folder count on the way to its files, far fewer than the descriptor limit. */
const MAX_HELD = 256;

export interface HeldPin {
  pin: PinnedDir;
  /** Closes a pin that was not kept; a no-op for a kept one. */
  release: () => Promise<void>;
}

export class PinCache {
  private readonly held = new Map<string, Promise<PinnedDir>>();

  /** `prefix`: the staging folder's name; only it and folders below it are kept. */
  constructor(private readonly prefix: string) {}

  private keeps(relative: string): boolean {
    return this.prefix !== '' && (relative === this.prefix || relative.startsWith(`${this.prefix}/`));
  }

  /** The pinned folder `relative` below `root`, kept open when it lies in the staging folder. */
  async pin(root: PinnedDir, relative: string): Promise<HeldPin> {
    if (!this.keeps(relative)) {
      const pin = await pinRelative(root, relative);
      return { pin, release: () => pin.close() };
    }
    let pending = this.held.get(relative);
    if (pending === undefined) {
      if (this.held.size >= MAX_HELD) {
        const pin = await pinRelative(root, relative);
        return { pin, release: () => pin.close() };
      }
      pending = pinRelative(root, relative);
      this.held.set(relative, pending);
      // A failed pin is not kept: the next use tries again (and fails with its own message).
      pending.catch(() => this.held.delete(relative));
    }
    return { pin: await pending, release: async () => undefined };
  }

  /** Closes every kept folder; before the staging folder is removed, and when apply ends. */
  async closeAll(): Promise<void> {
    const pending = [...this.held.values()];
    this.held.clear();
    await Promise.all(pending.map((held) => held.then((pin) => pin.close()).catch(() => undefined)));
  }
}
