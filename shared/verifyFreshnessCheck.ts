// What a re-verify expects to find at a destination when nothing in it changed, in the form a worker
// compares stat by stat (electron/engine/statCheck.ts): each output's path in the state's order, and
// the state file's and every output's signature as five numbers in a non-bigint lstat's precision
// (verifyFreshnessStat.ts's writeSignatureNumbers says why that precision is enough). Made only when
// the stat cache can vouch for every one of them (shared/verifyFreshnessCache.ts): a state read and
// every output hashed, each settled (not racily clean), each field fitting a double. Anything else,
// and any difference the worker sees, takes the full verify. Pure, without zod (the worker reads it).

import type { CachedOutput, CachedState } from './verifyFreshnessCache';
import { isSettled, SIGNATURE_NUMBERS, writeSignatureNumbers } from './verifyFreshnessStat';

/** Lines: a clean relative path holds no control character, so a newline never occurs inside one. */
export const PATH_SEPARATOR = '\n';

/** Plain data (a string and a Float64Array): the cheapest to send to a worker and to read there. */
export interface UnchangedExpectation {
  /** The outputs' paths, one a line, in the state's order ('' for none). */
  paths: string;
  /** SIGNATURE_NUMBERS numbers an entry: the state file's, then each output's in `paths`' order. */
  signatures: Float64Array;
}

/**
 * The expectation for a destination, or undefined when the cache cannot vouch for all of it: no state
 * entry, an output the last verify did not hash (missing, not a file, of another size), an entry read
 * within the racy margin of its timestamps, or a field a double cannot hold exactly.
 */
export function unchangedExpectation(
  state: CachedState | undefined,
  known: Record<string, CachedOutput> | undefined,
): UnchangedExpectation | undefined {
  if (!state || !known || !isSettled(state.file)) return undefined;
  const signatures = new Float64Array((state.outputs.length + 1) * SIGNATURE_NUMBERS);
  if (!writeSignatureNumbers(state.file[0], signatures, 0)) return undefined;
  const paths: string[] = [];
  for (const [output] of state.outputs) {
    const entry = Object.hasOwn(known, output) ? known[output] : undefined;
    if (!entry || !isSettled(entry) || !writeSignatureNumbers(entry[0], signatures, (paths.length + 1) * SIGNATURE_NUMBERS))
      return undefined;
    paths.push(output);
  }
  return { paths: paths.join(PATH_SEPARATOR), signatures };
}

/** The outputs' paths of an expectation, in the state's order. */
export function expectedPaths(expectation: UnchangedExpectation): string[] {
  return expectation.paths === '' ? [] : expectation.paths.split(PATH_SEPARATOR);
}
