// The only way apply changes the disk: six small mutations, each one step. Tests wrap this
// interface to count steps, kill the process before step k, or inject EIO/ENOSPC at step k.
// Reads (lstat, realpath, readdir) are not here: they change nothing. Never follows a symbolic
// link when creating a file (O_EXCL | O_NOFOLLOW): a link planted at a path makes the write fail.

import { constants, promises as fs } from 'node:fs';

export type FsOpName = 'mkdir' | 'writeFile' | 'rename' | 'unlink' | 'rmdir' | 'fsyncDir';

export interface FsOps {
  /** Creates one directory; its parent must exist; fails if anything is already there. */
  mkdir(dir: string): Promise<void>;
  /** Creates a new file (never an existing one, never through a link), writes, fsyncs, closes. */
  writeFile(file: string, bytes: Uint8Array): Promise<void>;
  /** Atomic rename within one file system. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file or a symbolic link (the link itself, never its target). */
  unlink(file: string): Promise<void>;
  /** Removes an empty directory. */
  rmdir(dir: string): Promise<void>;
  /** Makes the directory's entries durable (after renames and unlinks). */
  fsyncDir(dir: string): Promise<void>;
}

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export const nodeFsOps: FsOps = {
  async mkdir(dir) {
    await fs.mkdir(dir, { mode: 0o755 });
  },
  async writeFile(file, bytes) {
    const handle = await fs.open(file, CREATE_FLAGS, 0o644);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  async rename(from, to) {
    await fs.rename(from, to);
  },
  async unlink(file) {
    await fs.unlink(file);
  },
  async rmdir(dir) {
    await fs.rmdir(dir);
  },
  async fsyncDir(dir) {
    const handle = await fs.open(dir, constants.O_RDONLY);
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
};
