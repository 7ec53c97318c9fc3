// A re-verify's stat check, in a worker of HashPool: proves a destination unchanged since its last
// verify by stats alone, against the expectation the stat cache made (shared/verifyFreshnessCheck.ts):
// the state file and every output must still be regular files with the signatures recorded when they
// were read. The walk for extra files (the same as a verify's, from the one listing) runs too, and
// what the inspection needs of the folder (listing digest, staging folders) is read here, so the main
// thread can build the row from the cache (reverify.ts). Any difference, or anything that cannot be
// read, answers `changed`: the destination is then read and verified in full.
// Never follows a symbolic link, never opens a file, never writes.

import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { StagingCandidate } from '../../shared/staging';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { parseExpectation } from '../../shared/verifyFreshnessCheck';
import { statSignature } from '../../shared/verifyFreshnessStat';
import type { FileKind } from '../../shared/verifyReport';
import { listingFor } from './judgeOutputs';
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

/** The signature of a regular file at `absolute`, or undefined for anything else (a link is not followed). */
function signatureAt(absolute: string): string | undefined {
  const stats = lstatSync(absolute, { bigint: true, throwIfNoEntry: false });
  return stats?.isFile() ? statSignature(stats) : undefined;
}

export function checkUnchanged(destination: string, expectation: string, digests: boolean): CheckOutcome {
  const dir = path.resolve(destination);
  const expected = parseExpectation(expectation);
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return CHANGED;
  const entries = readdirSync(dir, { withFileTypes: true });
  // Joined by hand: the paths are clean and relative (path.join's normalising is a tenth of the check).
  const inside = dir.endsWith(path.sep) ? dir : dir + path.sep;
  if (signatureAt(inside + STATE_FILE_NAME) !== expected.stateSignature) return CHANGED;
  // The listing says what stands at each output path without following a link; only a regular file
  // reached through real folders is lstat'ed (the full verify's hashThroughCache does the same).
  const kinds = new Map<string, FileKind>();
  const extra = listFiles(dir, { ...listingFor(expected.outputs), excludedKinds: kinds }, entries);
  for (const output of expected.outputs) {
    if (kinds.get(output.path) !== 'file') return CHANGED;
    if (signatureAt(inside + output.path) !== output.signature) return CHANGED;
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
