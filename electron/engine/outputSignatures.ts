// The outputs part of a destination's fingerprint (shared/verifyFreshness.ts): one digest of the lstat
// signatures of the outputs a verify hashed. At the verify, from what the stat cache recorded; at a
// re-read, from lstat now, over the same paths. Equal digests: every hashed output still has the size,
// times, device and inode it had when it was hashed. Never follows a link, never reads a file's bytes.

import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { CachedOutput } from '../../shared/verifyFreshnessCache';
import { statSignature } from '../../shared/verifyFreshnessStat';

/** What stands for an output that is not a regular file now (missing, a link, a folder). */
const NOT_A_FILE = '-';

function digestOf(paths: readonly string[], signatureOf: (output: string) => string): string {
  const hash = createHash('sha256');
  // Sorted: the cache's key order is whatever its last writer made it.
  for (const output of [...paths].sort()) hash.update(`${output}\0${signatureOf(output)}\n`);
  return `outputs:${hash.digest('hex')}`;
}

/** The digest of the signatures the stat cache recorded for a destination's hashed outputs. */
export function recordedOutputsDigest(known: Record<string, CachedOutput>): string {
  return digestOf(Object.keys(known), (output) => known[output]![0]);
}

/** The digest of the same outputs as lstat sees them now under `root`: equal to the recorded one only if none moved. */
export function currentOutputsDigest(root: string, known: Record<string, CachedOutput>): string {
  return digestOf(Object.keys(known), (output) => {
    const stats = lstatSync(path.join(root, ...output.split('/')), { bigint: true, throwIfNoEntry: false });
    return stats?.isFile() ? statSignature(stats) : NOT_A_FILE;
  });
}
