// The sha256 of a file of a backup, or of one it is kept from or put back to, read in 1 MiB chunks
// (replace/hashedChunks.ts) and, when asked, written to a copy as they are read: a file is never
// held whole in memory, so a 4 GiB output is kept and put back like a small one. Opens only a
// regular file, never through a link (engine/regularFile.ts).

import { createHash } from 'node:crypto';
import { openRegularFile } from '../engine/regularFile';
import type { FsOps } from '../replace/fsOps';
import { hashedChunks } from '../replace/hashedChunks';

/**
 * The sha256 of the file at `file` (opened no-follow, a regular file of `sizeBytes`), read in chunks
 * as they are written to `copyTo` when given; undefined when it is not that file (gone, swapped, of
 * another size, grown or shrunk while read).
 */
export async function hashRegularFile(file: string, sizeBytes: number, copyTo?: { path: string; fs: FsOps }): Promise<string | undefined> {
  const opened = await openRegularFile(file);
  if (opened.kind !== 'open') return undefined;
  try {
    if (opened.sizeBytes !== sizeBytes) return undefined;
    const hash = createHash('sha256');
    let readBytes = 0;
    const chunks = hashedChunks(opened.handle.fd, hash, { maxBytes: sizeBytes, onBytes: (bytes) => (readBytes += bytes) });
    if (copyTo) await copyTo.fs.writeFile(copyTo.path, chunks);
    else for await (const _chunk of chunks);
    return readBytes === sizeBytes ? `sha256:${hash.digest('hex')}` : undefined;
  } finally {
    await opened.handle.close();
  }
}
