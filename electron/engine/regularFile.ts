// Reads a file a user controls (a state file, a manifest, a workspace file, a demo marker) only when it
// is a regular file: lstat first (a FIFO, a device or a socket is reported, never opened), then a
// non-blocking, no-follow open, then fstat of the descriptor, which must be the very file lstat saw.
// The scan's reader may hand in the folder listing's entry as the first look instead of an lstat (the
// same file type, without its inode): the descriptor must then be a regular file, and a file swapped
// for another regular file between the listing and the open is read as it is then.
// Must never open anything blocking: a FIFO would hold one of libuv's four threads until a writer
// came, and four of them would stop every later file call of the process.

import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  promises as fs,
  readFileSync,
  readSync,
  statSync,
  type Dirent,
  type Stats,
} from 'node:fs';

export type RegularFileRead =
  | { kind: 'missing' }
  /** `what` completes "… is": "a FIFO (named pipe)", "a directory", "a symbolic link", … */
  | { kind: 'not_a_file'; what: string; isSymlink?: true }
  | { kind: 'too_large'; sizeBytes: number }
  | { kind: 'bytes'; bytes: Buffer };

export interface RegularFileOptions {
  /** Follow a symbolic link at the path itself (a workspace file named on the command line). Default: no. */
  followLinks?: boolean;
  /** Refuse a file larger than this, before reading it. */
  maxBytes?: number;
  /**
   * Sync only: read a file of up to REUSED_BUFFER_MAX_BYTES into one buffer this thread reuses, so
   * the bytes stay valid only until the next such read: for a caller that is done with them before
   * (the scan's reader, which decodes and drops them). Spares a buffer of its own per file, and the
   * collections that freeing thousands of them costs.
   */
  reuseBuffer?: boolean;
}

const REUSED_BUFFER_MAX_BYTES = 1024 * 1024;
let reused = Buffer.allocUnsafe(64 * 1024);

function bufferFor(sizeBytes: number, reuse: boolean | undefined): Buffer {
  if (!reuse || sizeBytes > REUSED_BUFFER_MAX_BYTES) return Buffer.allocUnsafe(sizeBytes);
  if (reused.length < sizeBytes) reused = Buffer.allocUnsafe(sizeBytes);
  return reused.subarray(0, sizeBytes);
}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

/** A file's type, as an lstat or a listing's entry (Dirent) tells it. */
export type FileKind = Pick<
  Stats,
  'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'
>;

/** What stands at a path, in words, for a message ("… is a FIFO (named pipe), not a state file"). */
export function describeFileKind(stat: FileKind): string {
  if (stat.isFile()) return 'a regular file';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** A link at the path itself (lstat saw one, or a no-follow open met one): reported, never followed. */
const LINK: RegularFileRead = { kind: 'not_a_file', what: 'a symbolic link', isSymlink: true };

/** Nothing there: no entry, or a parent that is not a folder. */
const GONE = new Set(['ENOENT', 'ENOTDIR']);

function errnoCode(cause: unknown): string | undefined {
  return (cause as NodeJS.ErrnoException | undefined)?.code;
}

function openFlags(options: RegularFileOptions): number {
  return constants.O_RDONLY | NON_BLOCK | (options.followLinks ? 0 : NO_FOLLOW);
}

/** The verdict of the first look, or undefined when the path holds a regular file worth opening. */
function judgeStat(stat: Stats | Dirent | undefined, options: RegularFileOptions): RegularFileRead | undefined {
  if (!stat) return { kind: 'missing' };
  if (stat.isSymbolicLink()) return LINK;
  if (!stat.isFile()) return { kind: 'not_a_file', what: describeFileKind(stat) };
  // A listing's entry has no size: the limit is then applied to the descriptor's fstat (judgeOpened).
  if ('size' in stat && options.maxBytes !== undefined && stat.size > options.maxBytes) return { kind: 'too_large', sizeBytes: stat.size };
  return undefined;
}

/**
 * After open: the descriptor must be a regular file, and the one the first look saw (not swapped
 * since), when that look was an lstat; a listing's entry has no inode to compare.
 */
function judgeOpened(seen: Stats | Dirent, opened: Stats, options: RegularFileOptions): RegularFileRead | undefined {
  if (!opened.isFile()) return { kind: 'not_a_file', what: describeFileKind(opened) };
  if ('ino' in seen && (opened.dev !== seen.dev || opened.ino !== seen.ino))
    return { kind: 'not_a_file', what: 'replaced by another file while it was being opened' };
  if (options.maxBytes !== undefined && opened.size > options.maxBytes) return { kind: 'too_large', sizeBytes: opened.size };
  return undefined;
}

function openFailure(cause: unknown): RegularFileRead {
  const code = errnoCode(cause);
  if (GONE.has(code ?? '')) return { kind: 'missing' };
  if (code === 'ELOOP') return LINK;
  throw cause;
}

export async function readRegularFile(file: string, options: RegularFileOptions = {}): Promise<RegularFileRead> {
  const look = options.followLinks ? fs.stat : fs.lstat;
  const seen = await look(file).catch((cause) =>
    ['ENOENT', 'ENOTDIR'].includes(errnoCode(cause) ?? '') ? undefined : Promise.reject(cause),
  );
  const early = judgeStat(seen, options);
  if (early) return early;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, openFlags(options));
  } catch (cause) {
    return openFailure(cause);
  }
  try {
    const refused = judgeOpened(seen!, await handle.stat(), options);
    if (refused) return refused;
    return { kind: 'bytes', bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

export type RegularFileOpen = Exclude<RegularFileRead, { kind: 'bytes' }> | { kind: 'open'; handle: fs.FileHandle; sizeBytes: number };

/**
 * The same checks as readRegularFile, but hands over the open descriptor instead of the bytes, for a
 * caller that streams a file too large to hold (the content diff hashes a 1 GiB output in chunks).
 * The caller closes the handle. `maxBytes` is not applied: the caller decides what to read.
 */
export async function openRegularFile(file: string, options: Omit<RegularFileOptions, 'maxBytes'> = {}): Promise<RegularFileOpen> {
  const look = options.followLinks ? fs.stat : fs.lstat;
  const seen = await look(file).catch((cause) => (GONE.has(errnoCode(cause) ?? '') ? undefined : Promise.reject(cause)));
  const early = judgeStat(seen, options);
  if (early) return early as RegularFileOpen;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, openFlags(options));
  } catch (cause) {
    return openFailure(cause) as RegularFileOpen;
  }
  try {
    const opened = await handle.stat();
    const refused = judgeOpened(seen!, opened, options);
    if (refused) {
      await handle.close();
      return refused as RegularFileOpen;
    }
    return { kind: 'open', handle, sizeBytes: opened.size };
  } catch (cause) {
    await handle.close();
    throw cause;
  }
}

/**
 * The same, synchronously: for the worker threads that read thousands of small state files.
 * `listed`: the file's entry in its folder's listing (readdir with file types), which the caller just
 * read: it stands for the first look and saves an lstat per file. Not with followLinks.
 */
export function readRegularFileSync(file: string, options: RegularFileOptions = {}, listed?: Dirent): RegularFileRead {
  let seen: Stats | Dirent | undefined = listed && !options.followLinks ? listed : undefined;
  if (!seen) {
    try {
      seen = (options.followLinks ? statSync : lstatSync)(file);
    } catch (cause) {
      if (!GONE.has(errnoCode(cause) ?? '')) throw cause;
    }
  }
  const early = judgeStat(seen, options);
  if (early) return early;
  let fd: number;
  try {
    fd = openSync(file, openFlags(options));
  } catch (cause) {
    return openFailure(cause);
  }
  try {
    const opened = fstatSync(fd);
    const refused = judgeOpened(seen!, opened, options);
    if (refused) return refused;
    return { kind: 'bytes', bytes: readOpenedSync(fd, opened.size, options.reuseBuffer) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of an open regular file of `sizeBytes` (its fstat): what readFileSync(fd) reads, without
 * the second fstat it makes (a scan reads 10,000 state files this way). Like readFileSync, a file
 * that shrank gives what is there and one that grew gives the size fstat saw; a size of 0 (an empty
 * file, or one whose size the file system does not report) is read to its end by readFileSync.
 */
function readOpenedSync(fd: number, sizeBytes: number, reuse?: boolean): Buffer {
  if (sizeBytes === 0) return readFileSync(fd);
  const bytes = bufferFor(sizeBytes, reuse);
  let filled = 0;
  while (filled < sizeBytes) {
    const read = readSync(fd, bytes, filled, sizeBytes - filled, null);
    if (read === 0) break;
    filled += read;
  }
  return filled === sizeBytes ? bytes : bytes.subarray(0, filled);
}

/** Whether an error is the system refusing access (mode bits, ACLs, a security module), not a fault. */
export function isPermissionDenied(cause: unknown): boolean {
  const code = errnoCode(cause);
  return code === 'EACCES' || code === 'EPERM';
}

/** Who owns a file that could not be opened, and who asked: what an operator needs to grant access. */
export function permissionDeniedWhy(file: string): string {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  const asker = typeof process.getuid === 'function' ? `; the inspector runs as uid ${process.getuid()}` : '';
  if (!stat) return `its folder cannot be searched${asker}`;
  return `owned by uid ${stat.uid}, gid ${stat.gid}, mode ${(stat.mode & 0o7777).toString(8).padStart(4, '0')}${asker}`;
}
