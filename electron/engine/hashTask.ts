// How one output file is examined and hashed, in a worker of HashPool. Never follows a symbolic
// link, not even in a parent directory, and never opens what lstat did not show to be a regular file.
// Synchronous, except for a file bigger than one buffer when the caller asks to read ahead
// (hashStream.ts): its outcome is then a promise, and the next file waits for it (one buffer pair).

import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, type Stats } from 'node:fs';
import { createHash, hash as oneShotHash, type Hash } from 'node:crypto';
import path from 'node:path';
import type { FileKind } from '../../shared/verifyReport';
import { hashRestReadingAhead } from './hashStream';

export interface HashTask {
  /** Absolute directory the path is inside of (the destination). */
  root: string;
  /** Clean relative path with "/" separators. */
  path: string;
  /** When given and the file's size differs, no hash is computed: a size mismatch needs none. */
  expectedSize?: number;
}

export type HashOutcome =
  | { kind: 'file'; size: number; sha256?: string }
  | { kind: 'missing' }
  | { kind: Exclude<FileKind, 'file'>; size?: number; linkTarget?: string }
  | { kind: 'error'; message: string };

/** The read buffer of a hashing thread (and its spare): memory stays bounded whatever the file size. */
export const READ_BUFFER_BYTES = 1024 * 1024;

/** An outcome, or with reading ahead, for a file bigger than the buffer, the promise of one. */
export type HashResult = HashOutcome | Promise<HashOutcome>;

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO swapped in between lstat and open must not block the open.
const OPEN_FLAGS = constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0);

export function kindOf(stat: Stats): FileKind {
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'directory';
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isFIFO()) return 'fifo';
  if (stat.isSocket()) return 'socket';
  if (stat.isBlockDevice()) return 'block_device';
  if (stat.isCharacterDevice()) return 'character_device';
  return 'other';
}

/** What a symbolic link points at, read with readlink (the link itself, never what it names); undefined when unreadable. */
export function linkTargetOf(absolute: string): string | undefined {
  try {
    return readlinkSync(absolute, 'utf8');
  } catch {
    return undefined;
  }
}

/** The outcome for something that is not a regular file: a link also says where it points. */
export function notAFileOutcome(kind: Exclude<FileKind, 'file'>, absolute: string, size?: number): HashOutcome {
  if (kind !== 'symlink') return size === undefined ? { kind } : { kind, size };
  const linkTarget = linkTargetOf(absolute);
  return linkTarget === undefined ? { kind } : { kind, linkTarget };
}

function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

/** What stands at a directory the path goes through: fine, missing (or a file), or a link. */
function directoryProblem(dir: string, checkedDirs: Set<string>): 'missing' | 'link_in_path' | null {
  if (checkedDirs.has(dir)) return null;
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat) return 'missing';
  if (stat.isSymbolicLink()) return 'link_in_path';
  if (!stat.isDirectory()) return 'missing';
  checkedDirs.add(dir);
  return null;
}

/**
 * The destination itself and each parent directory of `relative` must be real directories, not
 * links: lstat of the full path would follow a linked parent out of the destination.
 * `checkedDirs` caches those already seen in this batch, so ten outputs in one folder cost one
 * lstat, not ten.
 */
function parentProblem(root: string, relative: string, checkedDirs: Set<string>): 'missing' | 'link_in_path' | null {
  try {
    const rootProblem = directoryProblem(root, checkedDirs);
    if (rootProblem) return rootProblem;
    for (let at = relative.indexOf('/'); at !== -1; at = relative.indexOf('/', at + 1)) {
      const problem = directoryProblem(path.join(root, relative.slice(0, at)), checkedDirs);
      if (problem) return problem;
    }
    return null;
  } catch {
    // ENOTDIR, EACCES on a parent: nothing can be read below it.
    return 'missing';
  }
}

export interface Hasher {
  /** One reusable read buffer per worker: memory stays bounded whatever the file size. */
  buffer: Buffer;
  checkedDirs: Set<string>;
  /** Called after every chunk with the bytes just read. */
  onBytes(bytes: number): void;
  /** A second buffer as big as `buffer`: reading ahead fills one while the other is hashed. */
  spare?: Buffer;
}

/** Reads the rest of a big file through the one buffer, hashing as it goes. */
function streamRest(fd: number, hasher: Hasher, hash: Hash, alreadyRead: number): HashOutcome {
  let size = alreadyRead;
  for (;;) {
    const read = readSync(fd, hasher.buffer, 0, hasher.buffer.length, null);
    if (read === 0) break;
    hash.update(read === hasher.buffer.length ? hasher.buffer : hasher.buffer.subarray(0, read));
    size += read;
    hasher.onBytes(read);
  }
  return { kind: 'file', size, sha256: `sha256:${hash.digest('hex')}` };
}

/** The absolute path of a task, or an error when it would leave the destination. */
function absoluteOf(task: HashTask): string | HashOutcome {
  const inside = task.root.endsWith(path.sep) ? task.root : task.root + path.sep;
  // A relative path without `..` (every path a valid state records) cannot leave the root: it is
  // joined as it is, without path.join's normalizing pass (~0.8 µs an output, as much as its JSON).
  if (task.path !== '' && !task.path.includes('..') && !path.isAbsolute(task.path)) return `${inside}${task.path}`;
  const absolute = path.join(task.root, task.path);
  // The path is clean by schema; this keeps a bug elsewhere from reading outside the destination.
  if (!absolute.startsWith(inside) || path.isAbsolute(task.path))
    return { kind: 'error', message: `${task.path} is not inside ${task.root}; not read` };
  return absolute;
}

/**
 * Examines and hashes one output. With `readAhead` (and `hasher.spare`), a file bigger than the
 * buffer is read ahead as it is hashed and the outcome is a promise: wait for it before the next call.
 */
export function examineAndHash(task: HashTask, hasher: Hasher): HashOutcome;
export function examineAndHash(task: HashTask, hasher: Hasher, readAhead: boolean): HashResult;
export function examineAndHash(task: HashTask, hasher: Hasher, readAhead = false): HashResult {
  const absolute = absoluteOf(task);
  if (typeof absolute !== 'string') return absolute;
  const parent = parentProblem(task.root, task.path, hasher.checkedDirs);
  if (parent === 'missing') return { kind: 'missing' };
  if (parent === 'link_in_path') return { kind: 'link_in_path' };

  let stat: Stats;
  try {
    stat = lstatSync(absolute);
  } catch (cause) {
    const code = errnoCode(cause);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', message: `cannot be examined (${code ?? String(cause)})` };
  }
  if (!stat.isFile()) return notAFileOutcome(kindOf(stat) as Exclude<FileKind, 'file'>, absolute, stat.size);
  if (task.expectedSize !== undefined && stat.size !== task.expectedSize) return { kind: 'file', size: stat.size };
  return openAndHash(absolute, task.expectedSize, hasher, readAhead);
}

/**
 * For a path that the destination's own listing (a walk that never follows links) has just shown
 * to be a regular file: its parents are real directories and it is no link, so the lstat calls of
 * examineAndHash are skipped. The open still refuses a link and the fstat anything else.
 */
export function hashListedFile(task: HashTask, hasher: Hasher): HashOutcome;
export function hashListedFile(task: HashTask, hasher: Hasher, readAhead: boolean): HashResult;
export function hashListedFile(task: HashTask, hasher: Hasher, readAhead = false): HashResult {
  const absolute = absoluteOf(task);
  return typeof absolute === 'string' ? openAndHash(absolute, task.expectedSize, hasher, readAhead) : absolute;
}

function readError(cause: unknown): HashOutcome {
  return { kind: 'error', message: `cannot be read (${errnoCode(cause) ?? String(cause)})` };
}

/**
 * A small output hashed without an fstat, when one positional read proves it is a regular file of
 * its recorded size: asked for one byte more than recorded, it returned exactly the recorded count.
 * A positional read fails on a FIFO or a pipe (ESPIPE) and on a directory (EISDIR); a device, the
 * one other thing an open can meet, cannot be put in a destination without root (mknod; a hard link
 * does not cross into /dev's file system). Anything else (a read error, more bytes or fewer) is
 * undefined: the caller's fstat then says what the file is, as if this read had not happened (a
 * positional read leaves the file offset where it was). Reads at most the buffer, never more.
 */
function hashIfSizeProven(fd: number, expectedSize: number, hasher: Hasher): HashOutcome | undefined {
  const buffer = hasher.buffer;
  if (expectedSize >= buffer.length) return undefined;
  let read: number;
  try {
    read = readSync(fd, buffer, 0, expectedSize + 1, 0);
  } catch {
    return undefined;
  }
  if (read !== expectedSize) return undefined;
  hasher.onBytes(read);
  return { kind: 'file', size: read, sha256: `sha256:${oneShotHash('sha256', buffer.subarray(0, read), 'hex')}` };
}

function openAndHash(absolute: string, expectedSize: number | undefined, hasher: Hasher, readAhead: boolean): HashResult {
  let fd: number;
  try {
    fd = openSync(absolute, OPEN_FLAGS);
  } catch (cause) {
    const code = errnoCode(cause);
    if (code === 'ELOOP') return notAFileOutcome('symlink', absolute);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', message: `cannot be read (${code ?? String(cause)})` };
  }
  // Set when the file is handed to hashRestReadingAhead, which closes it after its last read.
  let handedOver = false;
  try {
    const proven = expectedSize === undefined ? undefined : hashIfSizeProven(fd, expectedSize, hasher);
    if (proven) return proven;
    const opened = fstatSync(fd);
    // Replaced since it was seen: report what was opened, read nothing else.
    if (!opened.isFile()) return { kind: kindOf(opened) as Exclude<FileKind, 'file'>, size: opened.size };
    if (expectedSize !== undefined && opened.size !== expectedSize) return { kind: 'file', size: opened.size };
    const buffer = hasher.buffer;
    // Most outputs fit in one read: hash those in one shot, without a Hash object.
    const first = readSync(fd, buffer, 0, buffer.length, null);
    hasher.onBytes(first);
    // A short read of a regular file is its end: no second read to see 0.
    if (first < buffer.length)
      return { kind: 'file', size: first, sha256: `sha256:${oneShotHash('sha256', buffer.subarray(0, first), 'hex')}` };
    const spare = hasher.spare;
    if (readAhead && spare?.length === buffer.length) {
      handedOver = true;
      return hashRestReadingAhead(fd, { buffer, spare, onBytes: (bytes) => hasher.onBytes(bytes) }, createHash('sha256'), first).then(
        ({ size, hex }): HashOutcome => ({ kind: 'file', size, sha256: `sha256:${hex}` }),
        readError,
      );
    }
    return streamRest(fd, hasher, createHash('sha256').update(buffer), first);
  } catch (cause) {
    return readError(cause);
  } finally {
    if (!handedOver) closeSync(fd);
  }
}
