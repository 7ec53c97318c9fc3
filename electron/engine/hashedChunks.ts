// Reads an open file from its start in chunks, hashing each chunk before it is handed on: how a
// large source file is copied into staging and verified in the same pass, never held whole in
// memory. The next chunk's read (in libuv's threads) runs while this thread hashes the current one
// and the caller writes it. Never reads past `maxBytes` + 1, so a file that grew since its size was
// checked is seen to have grown without being read to its end. Reads only; the caller closes.

import type { Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

export const CHUNK_BYTES = 1024 * 1024;

export interface HashedChunksOptions {
  /** The bytes expected: at most one byte more is read, so "larger than expected" is known. */
  maxBytes: number;
  chunkBytes?: number;
  /** After each chunk is hashed, with its length. */
  onBytes?: (bytes: number) => void;
}

/**
 * Yields the file's chunks in order, each already fed to `hash`. A yielded chunk stays untouched
 * until two more have been asked for: a caller may write one chunk while it asks for the next
 * (three buffers turn: the one being written, the one being hashed, the one being read).
 */
export async function* hashedChunks(handle: FileHandle, hash: Hash, options: HashedChunksOptions): AsyncGenerator<Buffer, number> {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const limit = options.maxBytes + 1;
  const buffers = [0, 1, 2].map(() => Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, limit))));
  let position = 0;
  let turn = 0;
  const readAt = (buffer: Buffer) => handle.read(buffer, 0, Math.min(buffer.length, limit - position), position);
  let pending = readAt(buffers[0]!);
  try {
    for (;;) {
      const { bytesRead } = await pending;
      if (bytesRead === 0) return position;
      const chunk = buffers[turn % 3]!.subarray(0, bytesRead);
      position += bytesRead;
      turn += 1;
      pending = position < limit ? readAt(buffers[turn % 3]!) : Promise.resolve({ bytesRead: 0, buffer: chunk });
      hash.update(chunk);
      options.onBytes?.(bytesRead);
      yield chunk;
    }
  } finally {
    // A caller that stops early closes the file next: no read may still be running on it then.
    await pending.catch(() => undefined);
  }
}
