// Reads an open file from its start in chunks, hashing each chunk before it is handed on: how a
// large source file is verified (plan), or copied into staging and verified in the same pass
// (apply), never held whole in memory. Synchronous reads, like the rest of apply's per-file work,
// the event loop let in every 20 ms (timeSlice.ts): reads and writes through libuv's threads, one
// chunk ahead, cost a 1 GiB copy 2.3 s of CPU here against 1.3 s (docs/performance.md). Never reads
// past `maxBytes` + 1, so a file that grew since its size was checked is seen to have grown without
// being read to its end. Reads only; the caller closes the descriptor.

import type { Hash } from 'node:crypto';
import { readSync } from 'node:fs';
import { timeSlicer } from './timeSlice';

export const CHUNK_BYTES = 1024 * 1024;

export interface HashedChunksOptions {
  /** The bytes expected: at most one byte more is read, so "larger than expected" is known. */
  maxBytes: number;
  chunkBytes?: number;
  /** After each chunk is hashed, with its length. */
  onBytes?: (bytes: number) => void;
}

/**
 * Yields the file's chunks in order, each already fed to `hash`; returns the bytes read. Two buffers
 * in turn: a chunk holds its bytes until the one after next is asked for, so a writer can write one
 * chunk while the next is read and hashed (fsOps.ts), and must finish it before asking again.
 */
export async function* hashedChunks(fd: number, hash: Hash, options: HashedChunksOptions): AsyncGenerator<Buffer, number> {
  const limit = options.maxBytes + 1;
  const size = Math.max(1, Math.min(options.chunkBytes ?? CHUNK_BYTES, limit));
  // The second buffer only once a second chunk is read: a small file holds one.
  const buffers: Buffer[] = [Buffer.allocUnsafe(size)];
  const slice = timeSlicer();
  let position = 0;
  for (let turn = 0; position < limit; turn ^= 1) {
    await slice.yield();
    const buffer = (buffers[turn] ??= Buffer.allocUnsafe(size));
    const bytesRead = readSync(fd, buffer, 0, Math.min(buffer.length, limit - position), position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    hash.update(chunk);
    options.onBytes?.(bytesRead);
    yield chunk;
  }
  return position;
}
