// Turns what was found on disk (hash outcomes, a listing) into a verify report (CONTRACT.md:
// verification), and verifies one whole destination synchronously inside a worker thread.
// Never follows a symbolic link (hashTask.ts and listFiles.ts see to it), never writes.

import { lstatSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { isCleanRelativePath } from '../../shared/cleanPath';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { STATE_FILE_NAME, type OutputRecord } from '../../shared/stateSchema';
import type { FileKind, OutputVerification, VerifyReport } from '../../shared/verifyReport';
import { hashThroughCache, type HashCache } from './cachedHash';
import { examineAndHash, hashListedFile, notAFileOutcome, type Hasher, type HashOutcome, type HashResult } from './hashTask';
import { listFiles, parentDirectories } from './listFiles';

/** What verify needs of each output record. */
export type RecordedOutput = Pick<OutputRecord, 'path' | 'sha256' | 'size'>;

/** `actual` is given when it says something `expected` does not: never for an ok output. */
export function judge(output: RecordedOutput, outcome: HashOutcome): OutputVerification {
  // Object literals, not spreads: this runs for every output of every destination.
  const path = output.path;
  const expected = { sha256: output.sha256, size: output.size };
  switch (outcome.kind) {
    case 'missing':
      return { path, status: 'missing', expected };
    case 'error':
      // Unreadable (permissions, I/O): its bytes cannot be confirmed, so it counts as not matching.
      return { path, status: 'hash_mismatch', expected, error: outcome.message };
    case 'file':
      if (outcome.size !== output.size) return { path, status: 'size_mismatch', expected, actual: { size: outcome.size } };
      if (outcome.sha256 !== output.sha256)
        return { path, status: 'hash_mismatch', expected, actual: { size: outcome.size, sha256: outcome.sha256 } };
      return { path, status: 'ok', expected };
    default:
      // The size of a directory, link or device says nothing about the output: only what it is.
      return {
        path,
        status: 'not_a_file',
        expected,
        actual: outcome.linkTarget === undefined ? { kind: outcome.kind } : { kind: outcome.kind, linkTarget: outcome.linkTarget },
      };
  }
}

export function summarize(outputs: OutputVerification[], extra: string[]): VerifyReport {
  return { status: outputs.every((output) => output.status === 'ok') ? 'intact' : 'drifted', outputs, extra };
}

/** Unclean paths cannot pass the state schema; one from an unvalidated caller is refused, unread. */
export function uncleanOutcome(output: RecordedOutput): HashOutcome | undefined {
  return isCleanRelativePath(output.path)
    ? undefined
    : { kind: 'error', message: `${JSON.stringify(output.path)} is not a clean relative path; not read` };
}

/** The listing options of a destination: its outputs, the state file and the staging folder left out. */
export function listingFor(outputs: readonly Pick<RecordedOutput, 'path'>[]): { exclude: Set<string>; expectedDirs: Set<string> } {
  const outputPaths = outputs.map((output) => output.path);
  return { exclude: new Set([...outputPaths, STATE_FILE_NAME, STAGING_DIR_NAME]), expectedDirs: parentDirectories(outputPaths) };
}

/** Lists a destination's extra entries; nothing when it is not a real directory (never listed through a link). */
export function listExtra(root: string, outputs: readonly RecordedOutput[]): string[] {
  if (!lstatSync(root, { throwIfNoEntry: false })?.isDirectory()) return [];
  return listFiles(root, listingFor(outputs));
}

/**
 * One destination verified in the calling thread: for a worker, where blocking is free. The walk
 * for extra files comes first and says what stands at each output path; a regular file is then
 * opened without an lstat of its own, anything else is reported from the walk, and a path the
 * walk did not reach (a missing or linked parent) gets the full examination. `rootEntries`: the
 * root's listing the inspection just read, from a root it found to be a real directory (lstat):
 * the walk starts from it, so a scan lists each destination once. `cache`: the verify stat cache's
 * entries for this destination; a listed file whose signature is unchanged is not read again.
 * `readAhead` (hashTask.ts): a file bigger than the hasher's buffer is read ahead as it is hashed,
 * and the report is then a promise; outputs are still read one at a time, in order.
 */
export function verifyHere(
  root: string,
  outputs: readonly RecordedOutput[],
  hasher: Hasher,
  rootEntries?: readonly Dirent[],
  cache?: HashCache,
): VerifyReport;
export function verifyHere(
  root: string,
  outputs: readonly RecordedOutput[],
  hasher: Hasher,
  rootEntries: readonly Dirent[] | undefined,
  cache: HashCache | undefined,
  readAhead: boolean,
): VerifyReport | Promise<VerifyReport>;
export function verifyHere(
  root: string,
  outputs: readonly RecordedOutput[],
  hasher: Hasher,
  rootEntries?: readonly Dirent[],
  cache?: HashCache,
  readAhead = false,
): VerifyReport | Promise<VerifyReport> {
  const kinds = new Map<string, FileKind>();
  let extra: string[] = [];
  let listed = false;
  try {
    if (rootEntries !== undefined || lstatSync(root, { throwIfNoEntry: false })?.isDirectory()) {
      extra = listFiles(root, { ...listingFor(outputs), excludedKinds: kinds }, rootEntries);
      listed = true;
    }
  } catch {
    extra = [];
  }
  const outcomeOf = (output: RecordedOutput): HashResult => {
    const refused = uncleanOutcome(output);
    if (refused) return refused;
    const task = { root, path: output.path, expectedSize: output.size };
    const kind = listed ? kinds.get(output.path) : undefined;
    if (kind === 'file') return cache ? hashThroughCache(task, hasher, cache, readAhead) : hashListedFile(task, hasher, readAhead);
    if (kind !== undefined) return notAFileOutcome(kind as Exclude<FileKind, 'file'>, join(root, output.path));
    return examineAndHash(task, hasher, readAhead);
  };
  const judged: OutputVerification[] = [];
  // Synchronous until an outcome is a promise; the outputs after it wait for it (one buffer pair).
  const judgeFrom = (start: number): VerifyReport | Promise<VerifyReport> => {
    for (let index = start; index < outputs.length; index += 1) {
      const output = outputs[index]!;
      const outcome = outcomeOf(output);
      if (outcome instanceof Promise)
        return outcome.then((settled) => {
          judged.push(judge(output, settled));
          return judgeFrom(index + 1);
        });
      judged.push(judge(output, outcome));
    }
    return summarize(judged, extra);
  };
  return judgeFrom(0);
}
