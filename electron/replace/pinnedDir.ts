// Directories held open, so that a path through them cannot be redirected while a replace works.
// Node has no openat/unlinkat, but on Linux `/proc/self/fd/<fd>/<name>` is resolved by the kernel
// from the open directory itself: a system call on it acts on `name` inside exactly that directory,
// whatever was renamed or swapped for a link on the way since it was opened (the same guarantee that
// GNU rm gets from openat/unlinkat). Each step down opens the next folder with O_NOFOLLOW and
// O_DIRECTORY, so a link is never entered, and checks its device, so no other file system is entered.
// Where /proc/self/fd is not there (macOS, Windows), a pinned folder is its real path, checked with
// lstat and realpath right before use: narrower (a same-user writer could still race it), and said so
// in docs/replace.md. Read-only itself: it opens and stats, never changes anything. The opens and
// fstats are synchronous (a replace pins a folder for every mutation: thousands, each a few
// microseconds this way against a thread hop each through fs.promises); callers slice their loops.

import { closeSync, constants, fstatSync, openSync, promises as fs, readlinkSync, type BigIntStats } from 'node:fs';
import path from 'node:path';

const OPEN_DIR = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export interface PinnedDir {
  /** A path that reaches exactly this folder: `/proc/self/fd/<fd>` where anchoring works, else its real path. */
  readonly path: string;
  readonly dev: bigint;
  readonly ino: bigint;
  /** Whether `path` is anchored to an open descriptor (race-free) or is a checked real path. */
  readonly anchored: boolean;
  close(): Promise<void>;
}

/** An errno-style error: EXDEV for a mount point, ELOOP/ENOTDIR for a link or a file where a folder was. */
export function errnoError(code: string, message: string): NodeJS.ErrnoException {
  const failure = new Error(`${code}: ${message}`) as NodeJS.ErrnoException;
  failure.code = code;
  return failure;
}

let anchoring: Promise<boolean> | undefined;

/** Whether `/proc/self/fd/<fd>` reaches the open folder itself (Linux with /proc mounted). Probed once. */
export function fdAnchoringWorks(): Promise<boolean> {
  anchoring ??= (async () => {
    if (process.platform !== 'linux') return false;
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open('/', OPEN_DIR);
      const [viaFd, direct] = await Promise.all([fs.stat(`/proc/self/fd/${handle.fd}`, { bigint: true }), handle.stat({ bigint: true })]);
      return viaFd.ino === direct.ino && viaFd.dev === direct.dev;
    } catch {
      return false;
    } finally {
      await handle?.close();
    }
  })();
  return anchoring;
}

/** The path of `name` inside a pinned folder: one segment, never "." or "..", never a separator. */
export function childPath(dir: PinnedDir, name: string): string {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0') || name.includes(path.sep))
    throw errnoError('EINVAL', `"${name}" is not one path segment`);
  return `${dir.path}/${name}`;
}

/** The path of a relative "a/b" below a pinned folder (for messages, and for the unanchored fallback). */
function realPathOfPinned(dir: PinnedDir): string {
  return dir.anchored ? readlinkSync(dir.path) : dir.path;
}

export interface PinOptions {
  /** The device every folder must be on (the destination's); undefined: the pinned folder's own. */
  dev?: bigint;
  /** Mount points (real paths, from readMountPoints): a folder that is one is never entered. */
  mounts?: ReadonlySet<string>;
  /** For messages: how to name the folder being pinned. */
  label?: string;
}

function pinFromDescriptor(fd: number, stat: BigIntStats): PinnedDir {
  let closed = false;
  return {
    path: `/proc/self/fd/${fd}`,
    dev: stat.dev,
    ino: stat.ino,
    anchored: true,
    async close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}

function checkPinned(dir: PinnedDir, options: PinOptions): void {
  const label = options.label ?? dir.path;
  if (options.dev !== undefined && dir.dev !== options.dev)
    throw errnoError('EXDEV', `${label} is on another file system (a mount point); a replace never crosses into one`);
  if (options.mounts && options.mounts.size > 0) {
    const real = realPathOfPinned(dir);
    if (options.mounts.has(real)) throw errnoError('EXDEV', `${real} is a mount point; a replace never crosses into one`);
  }
}

/** Pins a folder given by a path whose last segment must be a real folder (never a link). */
export async function pinDirectory(dirPath: string, options: PinOptions = {}): Promise<PinnedDir> {
  if (await fdAnchoringWorks()) {
    const fd = openSync(dirPath, OPEN_DIR);
    try {
      const stat = fstatSync(fd, { bigint: true });
      if (!stat.isDirectory()) throw errnoError('ENOTDIR', `${options.label ?? dirPath} is not a folder`);
      const pinned = pinFromDescriptor(fd, stat);
      checkPinned(pinned, options);
      return pinned;
    } catch (cause) {
      closeSync(fd);
      throw cause;
    }
  }
  // Fallback: a checked real path (the last segment not a link, the whole path its own real path).
  const stat = await fs.lstat(dirPath, { bigint: true });
  if (stat.isSymbolicLink()) throw errnoError('ELOOP', `${options.label ?? dirPath} is a symbolic link`);
  if (!stat.isDirectory()) throw errnoError('ENOTDIR', `${options.label ?? dirPath} is not a folder`);
  const real = await fs.realpath(dirPath);
  if (real !== path.resolve(dirPath)) throw errnoError('ELOOP', `${options.label ?? dirPath} is reached through a symbolic link`);
  const pinned: PinnedDir = { path: real, dev: stat.dev, ino: stat.ino, anchored: false, close: async () => undefined };
  checkPinned(pinned, options);
  return pinned;
}

/** Pins the folder `name` inside a pinned folder: never through a link, never onto another device. */
export function pinChild(dir: PinnedDir, name: string, options: PinOptions = {}): Promise<PinnedDir> {
  return pinDirectory(childPath(dir, name), { dev: dir.dev, ...options });
}

/** Pins "a/b/c" below a pinned folder, one segment at a time; the folders on the way are closed again. */
export async function pinRelative(root: PinnedDir, relative: string, options: PinOptions = {}): Promise<PinnedDir> {
  if (relative === '') return { ...root, close: async () => undefined };
  let current: PinnedDir = { ...root, close: async () => undefined };
  const segments = relative.split('/');
  for (let index = 0; index < segments.length; index++) {
    const label = segments.slice(0, index + 1).join('/');
    try {
      const next = await pinChild(current, segments[index] as string, { dev: root.dev, ...options, label: `"${label}"` });
      await current.close();
      current = next;
    } catch (cause) {
      await current.close();
      throw cause;
    }
  }
  return current;
}
