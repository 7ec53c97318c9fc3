// One source file, checked against its manifest entry before its bytes are used: a regular file,
// inside the bundle, no symbolic link on the way, of the manifest's size and sha256. A FIFO or
// device is never opened (engine/regularFile.ts: lstat first, O_NONBLOCK, fstat again), so planning
// cannot hang on one. Read whole (readVerifiedSourceFile), or in chunks hashed as they are read
// (verifiedSourceChunks: a large file verified, or copied into staging, without being held), with
// the same refusals either way. Never writes.

import { realpathSync, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { createHash, type Hash } from 'node:crypto';
import path from 'node:path';
import type { ManifestFile } from '../../shared/manifestSchema';
import type { PlanRefusal } from '../../shared/plan';
import { outputRuleFor } from '../../shared/publishRules';
import { type Result, failed, type Failed } from '../../shared/result';
import { sha256Of } from '../engine/stateDigests';
import { hashedChunks } from './hashedChunks';
import { openRegularFile, readRegularFile, readRegularFileSync, type RegularFileOpen, type RegularFileRead } from '../engine/regularFile';

export { sha256Of };

const refusal = failed;

function errnoCode(cause: unknown): string {
  return (cause as NodeJS.ErrnoException | undefined)?.code ?? String(cause);
}

/** Errors that say the file cannot be read by us (a refusal naming it); others are I/O failures, thrown. */
const UNREADABLE = new Set(['EACCES', 'EPERM']);

/**
 * Source files up to this size are read with synchronous calls (no thread hop, a quarter of the CPU
 * of fs.promises: docs/performance.md); a larger one asynchronously, so one big read never holds the
 * event loop. Callers slice their loops (timeSlice.ts).
 */
const SYNC_READ_MAX_BYTES = 1024 * 1024;

function realpathOrUndefined(folder: string, sync: boolean): Promise<string | undefined> | string | undefined {
  if (!sync) return fs.realpath(folder).catch(() => undefined);
  try {
    return realpathSync.native(folder);
  } catch {
    return undefined;
  }
}

/**
 * The real paths of the bundle's folders, resolved once per pass over a manifest (a plan's): 10,000
 * files in ten folders resolve ten, not 10,000 realpaths of five components each. Each file is still
 * opened no-follow after an lstat and hashed against its manifest entry, so a folder swapped for a
 * link during the pass can only yield the manifest's own bytes, as a swap between a realpath and
 * its open always could.
 */
export type FolderRealPaths = Map<string, string>;

/** A source file's bytes, checked against its manifest entry, or why they cannot be used. */
export type BytesRead = Result<Buffer, PlanRefusal>;
type Refused = Failed<PlanRefusal>;

/** A manifest file's place in the bundle, and the details every refusal about it carries. */
type SourceDetails = { file: string; path: string };

function placeOf(bundleRealPath: string, file: ManifestFile): { full: string; details: SourceDetails } {
  const full = path.join(bundleRealPath, ...file.path.split('/'));
  return { full, details: { file: full, path: file.path } };
}

/**
 * `bundleRealPath` must be the bundle's realpath: the file's folder must resolve to exactly bundle +
 * its relative folder, so no symbolic link anywhere on the way is accepted.
 */
async function parentRefusal(full: string, details: SourceDetails, sync: boolean, folders?: FolderRealPaths): Promise<Refused | undefined> {
  const expectedParent = path.dirname(full);
  let parentReal = folders?.get(expectedParent);
  if (parentReal === undefined) {
    parentReal = await realpathOrUndefined(expectedParent, sync);
    if (parentReal !== undefined) folders?.set(expectedParent, parentReal);
  }
  if (parentReal === undefined) return refusal('source_missing_file', `source file ${full} is missing`, details);
  if (parentReal !== expectedParent) {
    return refusal(
      'source_outside_bundle',
      `source file ${full} is reached through a symbolic link and may lie outside the bundle`,
      details,
    );
  }
  return undefined;
}

/** Why what stands at the path cannot be read as the source file. */
function notReadRefusal(read: Exclude<RegularFileRead, { kind: 'bytes' | 'too_large' }>, full: string, details: SourceDetails): Refused {
  if (read.kind === 'missing') return refusal('source_missing_file', `source file ${full} is missing`, details);
  if (read.isSymlink)
    return refusal('source_is_symlink', `source file ${full} is a symbolic link; source files must be regular files`, details);
  return refusal('source_not_a_file', `source file ${full} is not a regular file (a folder, FIFO, socket or device)`, details);
}

function sizeRefusal(file: ManifestFile, full: string, details: SourceDetails, actualSize: number): Refused {
  return refusal('source_mismatch', `source file ${full} has ${actualSize} bytes, but its manifest says ${file.size}`, {
    ...details,
    expectedSize: file.size,
    actualSize,
  });
}

function digestRefusal(file: ManifestFile, full: string, details: SourceDetails, actual: string): Refused | undefined {
  if (actual === file.sha256) return undefined;
  return refusal(
    'source_mismatch',
    `source file ${full} does not match its manifest: sha256 is ${actual}, the manifest says ${file.sha256}`,
    {
      ...details,
      expectedSha256: file.sha256,
      actualSha256: actual,
    },
  );
}

/** A read that failed for want of permission is a refusal naming the file; any other error is an I/O failure, thrown. */
function unreadableRefusal(cause: unknown, full: string, details: SourceDetails): Refused {
  const code = errnoCode(cause);
  if (!UNREADABLE.has(code)) throw cause;
  return refusal('source_unreadable', `source file ${full} cannot be read (${code})`, details);
}

/** Reads one manifest file from the bundle (bundleRealPath: see parentRefusal) and checks it against its manifest entry. */
export async function readVerifiedSourceFile(bundleRealPath: string, file: ManifestFile, folders?: FolderRealPaths): Promise<BytesRead> {
  const { full, details } = placeOf(bundleRealPath, file);
  const sync = file.size <= SYNC_READ_MAX_BYTES;
  const parent = await parentRefusal(full, details, sync, folders);
  if (parent) return parent;
  // The one safe read (engine/regularFile.ts): lstat first, so a FIFO that would block a reading
  // open until a writer came is refused unopened; then a no-follow, non-blocking open and an fstat of
  // the same file. A file larger than its manifest says is refused before it is read.
  let read: RegularFileRead;
  try {
    read = sync ? readRegularFileSync(full, { maxBytes: file.size }) : await readRegularFile(full, { maxBytes: file.size });
  } catch (cause) {
    return unreadableRefusal(cause, full, details);
  }
  if (read.kind === 'too_large') return sizeRefusal(file, full, details, read.sizeBytes);
  if (read.kind !== 'bytes') return notReadRefusal(read, full, details);
  if (read.bytes.length !== file.size) return sizeRefusal(file, full, details, read.bytes.length);
  return digestRefusal(file, full, details, sha256Of(read.bytes)) ?? { ok: true, value: read.bytes };
}

/** Thrown from verifiedSourceChunks: why the file cannot be used, as readVerifiedSourceFile would have said it. */
export class SourceRefused extends Error {
  constructor(readonly refusal: PlanRefusal) {
    super(refusal.message);
  }
}

/**
 * The source file's bytes in chunks, hashed as they are read, with the checks and refusals of
 * readVerifiedSourceFile: a file too large to hold is verified (plan) or copied and verified in one
 * pass (apply, which stages it) without being kept in memory. Throws SourceRefused, once the last
 * chunk is read, if the bytes are not the manifest's: a caller that wrote them must discard them.
 */
export async function* verifiedSourceChunks(
  bundleRealPath: string,
  file: ManifestFile,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<Buffer, void> {
  const { handle, full, details } = await openCheckedSource(bundleRealPath, file);
  try {
    const hash = createHash('sha256');
    let sizeBytes = 0;
    try {
      sizeBytes = yield* hashedChunks(handle.fd, hash, { maxBytes: file.size, ...(onBytes ? { onBytes } : {}) });
    } catch (cause) {
      if (cause instanceof SourceRefused) throw cause;
      throw new SourceRefused(unreadableRefusal(cause, full, details).error);
    }
    throwUnlessManifestBytes(file, full, details, sizeBytes, hash);
  } finally {
    await handle.close();
  }
}

/** Opens a source file the safe way (lstat, no-follow, non-blocking, fstat) and checks it short of its bytes; throws SourceRefused. */
async function openCheckedSource(
  bundleRealPath: string,
  file: ManifestFile,
): Promise<{ handle: FileHandle; full: string; details: SourceDetails }> {
  const { full, details } = placeOf(bundleRealPath, file);
  const parent = await parentRefusal(full, details, false);
  if (parent) throw new SourceRefused(parent.error);
  let opened: RegularFileOpen;
  try {
    opened = await openRegularFile(full);
  } catch (cause) {
    throw new SourceRefused(unreadableRefusal(cause, full, details).error);
  }
  if (opened.kind === 'too_large') throw new SourceRefused(sizeRefusal(file, full, details, opened.sizeBytes).error);
  if (opened.kind !== 'open') throw new SourceRefused(notReadRefusal(opened, full, details).error);
  if (opened.sizeBytes !== file.size) {
    await opened.handle.close();
    throw new SourceRefused(sizeRefusal(file, full, details, opened.sizeBytes).error);
  }
  return { handle: opened.handle, full, details };
}

function throwUnlessManifestBytes(file: ManifestFile, full: string, details: SourceDetails, sizeBytes: number, hash: Hash): void {
  if (sizeBytes !== file.size) throw new SourceRefused(sizeRefusal(file, full, details, sizeBytes).error);
  const digest = digestRefusal(file, full, details, `sha256:${hash.digest('hex')}`);
  if (digest) throw new SourceRefused(digest.error);
}

/** A large source file opened for a copy made elsewhere (kernelCopy.ts), checked short of its bytes. */
export interface SourceForCopy {
  /** The open file, for reading from its start. */
  fd: number;
  /**
   * Reads the copy through `copyFd` from its start (at most one byte past the manifest's size) and
   * throws SourceRefused, as verifiedSourceChunks would of the source, unless it holds exactly the
   * manifest's bytes. `onChunk` runs after each chunk is hashed; a throw there ends the check.
   */
  checkCopy(copyFd: number, onChunk?: (bytes: number) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** Opens a source file for a copy by the kernel, with the refusals of verifiedSourceChunks; the copy's bytes are proven by checkCopy. */
export async function openSourceForCopy(bundleRealPath: string, file: ManifestFile): Promise<SourceForCopy> {
  const { handle, full, details } = await openCheckedSource(bundleRealPath, file);
  return {
    fd: handle.fd,
    async checkCopy(copyFd, onChunk) {
      const hash = createHash('sha256');
      const chunks = hashedChunks(copyFd, hash, { maxBytes: file.size });
      for (;;) {
        const next = await chunks.next();
        if (next.done) return throwUnlessManifestBytes(file, full, details, next.value, hash);
        await onChunk?.(next.value.length);
      }
    },
    close: () => handle.close(),
  };
}

/** Checks a source file against its manifest entry, streaming it: the refusal readVerifiedSourceFile would give, or ok. */
export async function verifySourceFile(bundleRealPath: string, file: ManifestFile): Promise<Result<void, PlanRefusal>> {
  try {
    for await (const _chunk of verifiedSourceChunks(bundleRealPath, file));
    return { ok: true, value: undefined };
  } catch (cause) {
    if (cause instanceof SourceRefused) return { ok: false, error: cause.refusal };
    throw cause;
  }
}

/**
 * A source file's checks short of its bytes: a regular file inside the bundle, no link on the way, of
 * its manifest's size; opened no-follow and non-blocking, never read. For a plan its caller applies at
 * once: the apply hashes a streamed file as it copies it (verifiedSourceChunks) and fails, before
 * anything old is touched, when its bytes are not the manifest's; hashing it here too would read it twice.
 */
export async function checkSourceFileUnread(bundleRealPath: string, file: ManifestFile): Promise<Result<void, PlanRefusal>> {
  const { full, details } = placeOf(bundleRealPath, file);
  const parent = await parentRefusal(full, details, false);
  if (parent) return parent;
  let opened: RegularFileOpen;
  try {
    opened = await openRegularFile(full);
  } catch (cause) {
    return unreadableRefusal(cause, full, details);
  }
  if (opened.kind === 'too_large') return sizeRefusal(file, full, details, opened.sizeBytes);
  if (opened.kind !== 'open') return notReadRefusal(opened, full, details);
  try {
    return opened.sizeBytes === file.size ? { ok: true, value: undefined } : sizeRefusal(file, full, details, opened.sizeBytes);
  } finally {
    await opened.handle.close();
  }
}

/**
 * A source file published as it is and larger than a synchronous read: verified (plan) and staged
 * (apply) in chunks by verifiedSourceChunks, never read whole into memory.
 */
export function isStreamedSource(file: Pick<ManifestFile, 'path' | 'size'>): boolean {
  return file.size > SYNC_READ_MAX_BYTES && outputRuleFor(file.path).kind === 'source';
}
