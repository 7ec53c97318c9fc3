// Copies a large file's bytes from one open descriptor to another without passing them through our
// buffers: coreutils' `cp` copies with copy_file_range(2) inside the kernel (a reflink where the file
// system shares blocks). Writing 1 GiB from a user buffer cost ~2 s of system time here against
// ~0.4 s in the kernel (docs/performance.md). Node's own fs.copyFile does call copy_file_range, but
// takes paths and, in libuv, loops on the size it saw at the open: a source truncated during the copy
// makes it spin forever in a pool thread. `cp` stops at the end of the file instead, and the child is
// given the two descriptors as its stdin and stdout, so it never resolves a path of ours: it reopens
// exactly the files we opened and checked (`/dev/stdin` is `/proc/self/fd/0`). Its writes are bounded
// (`ulimit -f`), so a source that keeps growing cannot fill the disk. Linux only. Proves nothing about
// the bytes: the caller reads the copy back and hashes it (fsOps.ts, sourceFile.ts). Never writes
// outside the destination descriptor; when `cp` is missing or fails, the caller copies in-process.

import { spawn } from 'node:child_process';
import { existsSync, ftruncateSync, readSync, writeSync } from 'node:fs';
import { timeSlicer } from './timeSlice';

/** Absolute paths, so no PATH entry decides what runs. */
const SHELL = '/bin/sh';
const CP_BINARIES = ['/usr/bin/cp', '/bin/cp'];
// A buffer that stays in the core's cache: copying through 1 MiB buffers cost twice the CPU of 128 KiB.
const FALLBACK_CHUNK_BYTES = 128 * 1024;

/** Whether this process can copy in the kernel at all (the check is made once). */
let cpBinary: string | null | undefined;
function cpPath(): string | null {
  if (cpBinary === undefined) cpBinary = process.platform === 'linux' ? (CP_BINARIES.find((binary) => existsSync(binary)) ?? null) : null;
  return cpBinary;
}

/** Whether large files are copied by the kernel here (Linux with coreutils' cp). */
export function canCopyInKernel(): boolean {
  return cpPath() !== null;
}

/**
 * Copies from `fromFd` (read from its start) into the empty file `toFd`, by `cp` in the kernel;
 * resolves true when it ended well, false when it could not run or failed (the caller truncates and
 * copies in-process). At most `maxBytes` + 1 bytes (rounded up to the shell's block) are written.
 * A cancel (`signal`) kills the child and rejects with the signal's reason.
 */
export function copyInKernel(fromFd: number, toFd: number, maxBytes: number, signal?: AbortSignal): Promise<boolean> {
  const cp = cpPath();
  if (cp === null) return Promise.resolve(false);
  signal?.throwIfAborted();
  // POSIX shells count `ulimit -f` in 512-byte blocks (bash outside POSIX mode in 1,024: a looser bound).
  const blocks = String(Math.ceil((maxBytes + 1) / 512));
  const script = 'ulimit -f "$1" && exec "$2" --sparse=never -- /dev/stdin /dev/stdout';
  return new Promise((resolve, reject) => {
    const child = spawn(SHELL, ['-c', script, 'sh', blocks, cp], { stdio: [fromFd, toFd, 'ignore'], windowsHide: true });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (copied: boolean) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(signal.reason);
      else resolve(copied);
    };
    child.once('error', () => settle(false));
    child.once('close', (code) => settle(code === 0));
  });
}

/** The in-process copy when the kernel's is not available: from the start, at most `maxBytes` + 1 bytes, in 20 ms slices. */
export async function copyInProcess(fromFd: number, toFd: number, maxBytes: number): Promise<void> {
  ftruncateSync(toFd, 0);
  const buffer = Buffer.allocUnsafe(FALLBACK_CHUNK_BYTES);
  const slice = timeSlicer();
  for (let position = 0; position <= maxBytes;) {
    await slice.yield();
    const bytesRead = readSync(fromFd, buffer, 0, Math.min(buffer.length, maxBytes + 1 - position), position);
    if (bytesRead === 0) return;
    for (let written = 0; written < bytesRead;) written += writeSync(toFd, buffer, written, bytesRead - written, position + written);
    position += bytesRead;
  }
}
