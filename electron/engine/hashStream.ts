// The rest of a file bigger than one read buffer, hashed while the next chunk is read: each read (a
// copy from the page cache, on libuv's thread pool) runs while this thread hashes the chunk before
// it, so a big file costs the hashing alone, not the hashing plus the copy. For a worker thread of
// HashPool, whose one thread would otherwise wait on every read.
// Holds two buffers, never more; closes the file, and never before its last read has returned.

import { closeSync, read } from 'node:fs';
import type { Hash } from 'node:crypto';

/** What reading ahead needs of the hasher (hashTask.ts Hasher): its two buffers and the byte count. */
export interface ReadAheadBuffers {
  buffer: Buffer;
  spare: Buffer;
  onBytes(bytes: number): void;
}

function readChunk(fd: number, into: Buffer): Promise<number> {
  return new Promise((resolve, reject) => read(fd, into, 0, into.length, null, (cause, bytes) => (cause ? reject(cause) : resolve(bytes))));
}

/**
 * `hasher.buffer` holds the file's first `first` bytes (a full buffer), not yet hashed. Hashes them
 * and the rest, then closes `fd`. Resolves with the size read and the hex digest; rejects with the
 * read's error (the file is closed then too).
 */
export async function hashRestReadingAhead(
  fd: number,
  hasher: ReadAheadBuffers,
  hash: Hash,
  first: number,
): Promise<{ size: number; hex: string }> {
  let current = hasher.buffer;
  let next = hasher.spare;
  let size = first;
  let held = first;
  try {
    while (held > 0) {
      const pending = readChunk(fd, next);
      try {
        hash.update(held === current.length ? current : current.subarray(0, held));
      } finally {
        // The read in flight writes into `next`: never leave it running into a closed (and reused) fd.
        held = await pending;
      }
      size += held;
      if (held > 0) hasher.onBytes(held);
      [current, next] = [next, current];
    }
    return { size, hex: hash.digest('hex') };
  } finally {
    closeSync(fd);
  }
}
