// operations/: may be imported by service/ and cli/. Reads one file inside a destination for the
// content diff: the path must be clean (no "..", no "/" at the start), every folder on the way is
// entered through a held-open descriptor with O_NOFOLLOW (replace/pinnedDir.ts), so no link,
// swapped in or not, leads out of the tree, and the file itself is opened only when it is a
// regular file, non-blocking, never through a link (engine/regularFile.ts). Files up to the text
// limit are read whole; larger ones are streamed: hashed, and compared chunk by chunk with the
// other side's bytes for the first differing offset. Read-only; never follows a link.

import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { cleanPathProblem } from '../../shared/cleanPath';
import { firstDifferingOffset, TEXT_DIFF_LIMIT_BYTES } from '../../shared/contentDiff/contentBytes';
import { openRegularFile } from '../engine/regularFile';
import { childPath, pinDirectory, type PinnedDir } from '../replace/pinnedDir';

export type DestinationFileRead =
  | { kind: 'file'; sizeBytes: number; sha256: string; bytes?: Buffer; firstDifferingOffset?: number }
  | { kind: 'missing' }
  | { kind: 'not_a_file'; what: string }
  | { kind: 'unreadable'; message: string };

const CHUNK_BYTES = 1024 * 1024;

function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

/** The folder holding `relative`, entered one segment at a time; missing or a link on the way is said so. */
async function pinParent(
  root: string,
  segments: string[],
): Promise<{ dir: PinnedDir } | { kind: 'missing' } | { kind: 'not_a_file'; what: string }> {
  let current: PinnedDir;
  try {
    current = await pinDirectory(root, { label: root });
  } catch (cause) {
    const code = errnoCode(cause);
    const isLink = code === 'ELOOP' || (code === 'ENOTDIR' && (await fs.lstat(root).catch(() => undefined))?.isSymbolicLink() === true);
    if (isLink) return { kind: 'not_a_file', what: `inside a destination that is a symbolic link (${root}); not read` };
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    throw cause;
  }
  for (let index = 0; index < segments.length - 1; index++) {
    const folder = segments.slice(0, index + 1).join('/');
    try {
      const next = await pinDirectory(childPath(current, segments[index]!), { label: `"${folder}"` });
      await current.close();
      current = next;
    } catch (cause) {
      const code = errnoCode(cause);
      // Linux answers ENOTDIR, not ELOOP, for a link opened with O_DIRECTORY | O_NOFOLLOW: look, only to say which.
      const isLink =
        code === 'ELOOP' ||
        (code === 'ENOTDIR' &&
          Boolean(
            await fs
              .lstat(childPath(current, segments[index]!))
              .then((stat) => stat.isSymbolicLink())
              .catch(() => false),
          ));
      await current.close();
      if (isLink) return { kind: 'not_a_file', what: `reached through the symbolic link "${folder}"; not followed` };
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
      throw cause;
    }
  }
  return { dir: current };
}

/**
 * Reads `relative` inside `root`. `compareWith`, when given, is the other side's bytes: a file too
 * large to keep is compared with it while streaming, so its first differing offset is known.
 * Throws only for an unclean path (a caller's bug: callers check first).
 */
export async function readDestinationFile(root: string, relative: string, compareWith?: Uint8Array): Promise<DestinationFileRead> {
  const problem = cleanPathProblem(relative);
  if (problem) throw new Error(`"${relative}" is not a path inside the destination: it ${problem}`);
  const segments = relative.split('/');
  try {
    const parent = await pinParent(root, segments);
    if (!('dir' in parent)) return parent;
    try {
      const opened = await openRegularFile(childPath(parent.dir, segments.at(-1)!));
      if (opened.kind === 'missing') return { kind: 'missing' };
      if (opened.kind === 'not_a_file') return { kind: 'not_a_file', what: opened.what };
      if (opened.kind !== 'open') return { kind: 'unreadable', message: 'cannot be read' };
      try {
        return await readOpened(opened.handle, opened.sizeBytes, compareWith);
      } finally {
        await opened.handle.close();
      }
    } finally {
      await parent.dir.close();
    }
  } catch (cause) {
    return { kind: 'unreadable', message: `cannot be read (${errnoCode(cause) ?? (cause as Error)?.message ?? String(cause)})` };
  }
}

async function readAtMost(handle: FileHandle, maxBytes: number): Promise<Buffer> {
  const buffer = Buffer.alloc(maxBytes);
  let filled = 0;
  while (filled < maxBytes) {
    const { bytesRead } = await handle.read(buffer, filled, maxBytes - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

async function readOpened(handle: FileHandle, sizeBytes: number, compareWith: Uint8Array | undefined): Promise<DestinationFileRead> {
  if (sizeBytes <= TEXT_DIFF_LIMIT_BYTES) {
    // Never more than the limit in memory, also when the file grows after the stat: past it, stream.
    const whole = await readAtMost(handle, sizeBytes + 1);
    if (whole.length <= sizeBytes) {
      const sha256 = `sha256:${createHash('sha256').update(whole).digest('hex')}`;
      return { kind: 'file', sizeBytes: whole.length, sha256, bytes: whole };
    }
  }
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let offset = 0;
  let differs: number | undefined;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, offset);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    hash.update(chunk);
    if (compareWith !== undefined && differs === undefined && offset < compareWith.length) {
      const other = compareWith.subarray(offset, offset + bytesRead);
      const at = firstDifferingOffset(chunk.subarray(0, other.length), other);
      if (at !== undefined) differs = offset + at;
    }
    offset += bytesRead;
  }
  if (compareWith !== undefined && differs === undefined && offset !== compareWith.length) differs = Math.min(offset, compareWith.length);
  return {
    kind: 'file',
    sizeBytes: offset,
    sha256: `sha256:${hash.digest('hex')}`,
    ...(compareWith !== undefined && differs !== undefined ? { firstDifferingOffset: differs } : {}),
  };
}
