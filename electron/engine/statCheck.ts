// A re-verify's stat check, in a worker of HashPool: proves a destination unchanged since its last
// verify by stats alone, against the expectation the stat cache made (shared/verifyFreshnessCheck.ts):
// the state file and every output must still be regular files with the signatures recorded when they
// were read. The walk for extra files (the same as a verify's, from the one listing) runs too, and
// what the inspection needs of the folder (listing digest, staging folders) is read here, so the main
// thread can build the row from the cache (reverify.ts). Any difference, or anything that cannot be
// read, answers `changed`: the destination is then read and verified in full.
// Never follows a symbolic link, never opens a file, never writes.

import { lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { StagingCandidate } from '../../shared/staging';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { expectedPaths, type UnchangedExpectation } from '../../shared/verifyFreshnessCheck';
import { sameNumbers, SIGNATURE_NUMBERS } from '../../shared/verifyFreshnessStat';
import type { FileKind } from '../../shared/verifyReport';
import { listingForPaths } from './judgeOutputs';
import { listFiles } from './listFiles';
import { listingDigest } from './listingDigest';
import { stagingCandidates } from './stagingReader';

export type CheckOutcome =
  | {
      kind: 'unchanged';
      /** What the verify's walk found besides the outputs, the state file and the staging folder. */
      extra: string[];
      hasContent: boolean;
      staging: StagingCandidate[];
      listingDigest?: string;
    }
  | { kind: 'changed' };

const CHANGED: CheckOutcome = { kind: 'changed' };

const NO_THROW = { throwIfNoEntry: false } as const;

/**
 * Whether `absolute` is a regular file (no link followed) with the signature expected at `at`. A
 * non-bigint lstat: no BigInt or signature string made per file, the comparison in the precision the
 * expectation was written in (writeSignatureNumbers says why it is enough).
 */
function matchesAt(absolute: string, expected: Float64Array, at: number): boolean {
  const stats: Stats | undefined = lstatSync(absolute, NO_THROW);
  return stats !== undefined && stats.isFile() && sameNumbers(stats, expected, at);
}

export function checkUnchanged(destination: string, expectation: UnchangedExpectation, digests: boolean): CheckOutcome {
  const dir = path.resolve(destination);
  const stat = lstatSync(dir, NO_THROW);
  if (!stat?.isDirectory()) return CHANGED;
  const entries = readdirSync(dir, { withFileTypes: true });
  // Joined by hand: the paths are clean and relative (path.join's normalising is a tenth of the check).
  const inside = dir.endsWith(path.sep) ? dir : dir + path.sep;
  const expected = expectation.signatures;
  if (!matchesAt(inside + STATE_FILE_NAME, expected, 0)) return CHANGED;
  const outputs = expectedPaths(expectation);
  // The listing says what stands at each output path without following a link; only a regular file
  // reached through real folders is lstat'ed (the full verify's hashThroughCache does the same).
  const kinds = new Map<string, FileKind>();
  const extra = listFiles(dir, { ...listingForPaths(outputs), excludedKinds: kinds }, entries);
  for (let i = 0; i < outputs.length; i += 1) {
    const output = outputs[i]!;
    if (kinds.get(output) !== 'file' || !matchesAt(inside + output, expected, (i + 1) * SIGNATURE_NUMBERS)) return CHANGED;
  }
  const names = entries.map((entry) => entry.name);
  const outcome: CheckOutcome = {
    kind: 'unchanged',
    extra,
    hasContent: names.some((name) => name !== STATE_FILE_NAME),
    staging: stagingCandidates(dir, names),
  };
  if (digests) outcome.listingDigest = listingDigest(names, stat.mtimeMs);
  return outcome;
}
