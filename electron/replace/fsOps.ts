// The only way apply changes the disk: nine small mutations, each one step. Tests wrap this
// interface to count steps, kill the process before step k, or inject EIO/ENOSPC/EACCES/ENAMETOOLONG
// at step k. Reads (lstat, realpath, readdir) are not here: they change nothing. Never follows a
// symbolic link when creating a file (O_EXCL | O_NOFOLLOW): a link planted at a path makes the write
// fail. Apply passes paths anchored to open folders (pinnedDir.ts), so no path can be redirected.
// The per-file mutations but unlink are synchronous system calls behind the async interface (no thread hop, a
// quarter of the CPU of fs.promises: docs/performance.md); apply slices its loops (timeSlice.ts) so
// the event loop still turns. Flushes, writes past SYNC_WRITE_MAX_BYTES and chunked writes stay asynchronous.

import {
  closeSync,
  constants,
  fdatasync,
  fsync,
  fsyncSync,
  mkdirSync,
  openSync,
  promises as fs,
  renameSync,
  rmdirSync,
  write,
  writeFileSync,
} from 'node:fs';
import { boundedAll } from './boundedAll';
import { copyInKernel, copyInProcess } from './kernelCopy';
import { removeTree } from './removeTree';
import { syncFileSystemsOf } from './syncFileSystem';

export type FsOpName = 'mkdir' | 'writeFile' | 'syncFiles' | 'rename' | 'unlink' | 'rmdir' | 'fsyncDir' | 'removeTree' | 'symlink';

export interface WriteOptions {
  /**
   * false: written and closed, not yet fsynced. The caller makes it durable later, together with the
   * others, in one syncFiles (how dpkg and git make thousands of files durable without one disk
   * flush each). Default: fsynced before it is closed.
   */
  durable?: boolean;
}

/**
 * A large file copied from an open descriptor by the kernel (kernelCopy.ts), its bytes then proven
 * by `check`, which reads the new file back through the descriptor it is given: what is staged is
 * what was hashed, however the copy went.
 */
export interface CopiedBytes {
  /** Open for reading; copied from its start. */
  copyFrom: number;
  /** The bytes expected: the copy writes at most one more, so "larger" is known. */
  sizeBytes: number;
  /** Reads the new file from its start through `fd` and throws if it is not the expected bytes. */
  check(fd: number): Promise<void>;
  /** A cancel stops the copy (the child is killed) and rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A file's bytes whole, in chunks (each holding its bytes until the one after next is asked for: hashedChunks.ts), or copied. */
export type FileBytes = Uint8Array | AsyncIterable<Uint8Array> | CopiedBytes;

export interface FsOps {
  /** Creates one directory (mode 0755, or the given one); its parent must exist; fails if anything is already there. */
  mkdir(dir: string, mode?: number): Promise<void>;
  /**
   * Creates a new file (never an existing one, never through a link), writes, fsyncs (unless
   * `durable: false`), closes. `bytes` may be chunks, each written while the next is made and before
   * the one after it is asked for (a large output copied as it is verified), or copied by the kernel
   * and then checked. If the chunks, the copy or its check fail, the file is left as far as it was
   * written, for the caller to remove.
   */
  writeFile(file: string, bytes: FileBytes, options?: WriteOptions): Promise<void>;
  /**
   * Makes the bytes of files already written durable; resolves once every one is flushed. On Linux,
   * for 32 files or more, one syncfs of the file system holding them (syncFileSystem.ts); for fewer,
   * elsewhere, or if that fails,
   * each opened without following a link and fsynced, many at once (the disk flushes them together).
   */
  syncFiles(files: readonly string[]): Promise<void>;
  /** Atomic rename within one file system. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file or a symbolic link (the link itself, never its target). */
  unlink(file: string): Promise<void>;
  /** Removes an empty directory. */
  rmdir(dir: string): Promise<void>;
  /** Makes the directory's entries durable (after renames and unlinks). */
  fsyncDir(dir: string): Promise<void>;
  /**
   * Removes a folder apply made itself (trash, staging) and all it holds: never follows a link, never
   * leaves the folder, never crosses into another file system (removeTree.ts).
   */
  removeTree(dir: string): Promise<void>;
  /** Creates a symbolic link holding `target` (a backup's copy of a link, and its restore); never over an existing path. */
  symlink(target: string, link: string): Promise<void>;
}

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
// A copy is read back through the descriptor that created it, so it is opened for both.
const CREATE_FOR_COPY_FLAGS = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
// Read-write (Windows refuses to flush a read-only handle), never following a link, never blocking.
const SYNC_FLAGS = constants.O_RDWR | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
// fsyncs in flight: enough to keep libuv's threads and the disk's queue busy, few enough descriptors.
const SYNC_PARALLEL = 16;
// From this many files on, one syncfs of their file system beats an fsync each (its cost is all the
// dirty data on that file system, others' too; an fsync's is the file's own): below it, fsyncs.
const SYNCFS_MIN_FILES = 32;
// Writes up to this size are made with synchronous calls; a larger one never holds the event loop.
const SYNC_WRITE_MAX_BYTES = 1024 * 1024;

// A large file written unflushed is flushed as it goes, one fdatasync in flight at a time every this
// many bytes: the disk writes it while the rest is read and hashed, so the one flush after staging
// finds little left (the kernel would hold up to a tenth of the memory dirty and write all of it
// then: for 1 GiB, seconds after the copy). Durability is still that final flush's.
export const EARLY_FLUSH_BYTES = 64 * 1024 * 1024;

interface EarlyFlusher {
  /** Bytes just written: starts a flush when enough are unflushed and none is in flight. */
  wrote(bytes: number): void;
  /** Waits for the flush in flight; throws the first flush's failure. */
  settled(): Promise<void>;
  /** Waits for the flush in flight, never throws: before the descriptor is closed. */
  idle(): Promise<void>;
}

/** `flush`: fdatasync, or a test's stand-in. */
export function earlyFlusher(
  fd: number,
  enabled: boolean,
  flush: (fd: number, done: (cause: NodeJS.ErrnoException | null) => void) => void = fdatasync,
): EarlyFlusher {
  let unflushed = 0;
  let inFlight: Promise<void> | undefined;
  let failure: unknown;
  const idle = async () => {
    while (inFlight) await inFlight;
  };
  return {
    wrote(bytes) {
      unflushed += bytes;
      if (!enabled || inFlight || unflushed < EARLY_FLUSH_BYTES) return;
      unflushed = 0;
      const flushing = new Promise<void>((resolve) =>
        flush(fd, (cause) => {
          if (cause) failure ??= cause;
          resolve();
        }),
      );
      inFlight = flushing;
      void flushing.then(() => {
        if (inFlight === flushing) inFlight = undefined;
      });
    },
    async settled() {
      await idle();
      if (failure !== undefined) throw failure;
    },
    idle,
  };
}

/** Writes the whole chunk asynchronously; resolves with the failure rather than rejecting, so one never goes unhandled while the next chunk is read. */
function writeAll(fd: number, chunk: Uint8Array): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const from = (offset: number) =>
      write(fd, chunk, offset, chunk.length - offset, null, (cause, written) => {
        if (cause) resolve(cause);
        else if (offset + written < chunk.length) from(offset + written);
        else resolve(undefined);
      });
    from(0);
  });
}

/**
 * Copies into a new file (kernelCopy.ts), then checks it through the same descriptor while the disk
 * writes it: one fdatasync in flight beside the check when the file is written unflushed (the early
 * flush of a chunked write, for the same reason), an fsync after it otherwise.
 */
async function writeCopy(file: string, bytes: CopiedBytes, durable: boolean): Promise<void> {
  const fd = openSync(file, CREATE_FOR_COPY_FLAGS, 0o644);
  let flushing: Promise<NodeJS.ErrnoException | null> | undefined;
  try {
    if (!(await copyInKernel(bytes.copyFrom, fd, bytes.sizeBytes, bytes.signal))) await copyInProcess(bytes.copyFrom, fd, bytes.sizeBytes);
    if (!durable) flushing = new Promise((resolve) => fdatasync(fd, resolve));
    await bytes.check(fd);
    const failed = await flushing;
    if (failed) throw failed;
    if (durable) await new Promise<void>((resolve, reject) => fsync(fd, (cause) => (cause ? reject(cause) : resolve())));
  } finally {
    await flushing;
    closeSync(fd);
  }
}

const isCopy = (bytes: FileBytes): bytes is CopiedBytes => !(bytes instanceof Uint8Array) && 'copyFrom' in bytes;

export const nodeFsOps: FsOps = {
  async mkdir(dir, mode = 0o755) {
    // No chmod after: it follows links. The umask can only narrow the mode, and 0700 stays private.
    mkdirSync(dir, { mode });
  },
  async writeFile(file, bytes, options = {}) {
    if (isCopy(bytes)) return writeCopy(file, bytes, options.durable !== false);
    if (!(bytes instanceof Uint8Array)) {
      // Each chunk written in libuv's thread while the producer reads and hashes the next (its two
      // buffers in turn: hashedChunks.ts), one write in flight: a 1 GiB copy's writes no longer wait
      // on its hashing. A failing producer or write ends the loop, for-await closes the producer, and
      // the write in flight ends before the descriptor is closed.
      const fd = openSync(file, CREATE_FLAGS, 0o644);
      const early = earlyFlusher(fd, options.durable === false);
      let writing: Promise<NodeJS.ErrnoException | undefined> | undefined;
      try {
        for await (const chunk of bytes) {
          const failed = await writing;
          if (failed) throw failed;
          writing = writeAll(fd, chunk);
          early.wrote(chunk.length);
        }
        const failed = await writing;
        if (failed) throw failed;
        await early.settled();
        if (options.durable !== false)
          await new Promise<void>((resolve, reject) => fsync(fd, (cause) => (cause ? reject(cause) : resolve())));
      } finally {
        await writing;
        await early.idle();
        closeSync(fd);
      }
      return;
    }
    if (bytes.length <= SYNC_WRITE_MAX_BYTES) {
      const fd = openSync(file, CREATE_FLAGS, 0o644);
      try {
        writeFileSync(fd, bytes);
        if (options.durable !== false) fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return;
    }
    const handle = await fs.open(file, CREATE_FLAGS, 0o644);
    try {
      await handle.writeFile(bytes);
      if (options.durable !== false) await handle.sync();
    } finally {
      await handle.close();
    }
  },
  async syncFiles(files) {
    if (files.length >= SYNCFS_MIN_FILES && (await syncFileSystemsOf(files))) return;
    await boundedAll(
      files,
      async (file) => {
        const handle = await fs.open(file, SYNC_FLAGS);
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      },
      { limit: SYNC_PARALLEL },
    );
  },
  async rename(from, to) {
    renameSync(from, to);
  },
  async unlink(file) {
    // Asynchronous, many in flight: freeing a flushed file's blocks waits on the journal (and, on a
    // file system mounted with `discard`, on the device): 2.5 ms each here one after another, ten
    // times less in all when the threads overlap them (docs/performance.md).
    await fs.unlink(file);
  },
  async rmdir(dir) {
    rmdirSync(dir);
  },
  async fsyncDir(dir) {
    // O_DIRECTORY: a FIFO or file swapped in is refused at once, never waited on.
    const handle = await fs.open(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NONBLOCK ?? 0));
    try {
      await handle.sync();
    } catch (cause) {
      // Some file systems cannot fsync a directory; that is no reason to abandon a replace.
      const code = (cause as NodeJS.ErrnoException).code;
      if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM') throw cause;
    } finally {
      await handle.close();
    }
  },
  async removeTree(dir) {
    await removeTree(dir);
  },
  async symlink(target, link) {
    await fs.symlink(target, link);
  },
};
