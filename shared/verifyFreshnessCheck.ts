// What a re-verify expects to find at a destination when nothing in it changed, as one string a
// worker compares stat by stat (electron/engine/statCheck.ts): the state file's signature, then each
// output's path and signature in the state's order. Made only when the stat cache can vouch for every
// one of them (shared/verifyFreshnessCache.ts): a state read and every output hashed, each settled
// (not racily clean). Anything else, and any difference the worker sees, takes the full verify. Pure,
// without zod (the worker reads it).

import type { CachedOutput, CachedState } from './verifyFreshnessCache';
import { isSettled, type StatSignature } from './verifyFreshnessStat';

/** Lines: a clean relative path holds no control character, so a newline never occurs inside one. */
const SEPARATOR = '\n';

export interface UnchangedExpectation {
  stateSignature: StatSignature;
  outputs: { path: string; signature: StatSignature }[];
}

/**
 * The expectation for a destination, or undefined when the cache cannot vouch for all of it: no state
 * entry, an output the last verify did not hash (missing, not a file, of another size), or an entry
 * read within the racy margin of its timestamps.
 */
export function unchangedExpectation(state: CachedState | undefined, known: Record<string, CachedOutput> | undefined): string | undefined {
  if (!state || !known || !isSettled(state.file)) return undefined;
  const lines = [state.file[0]];
  for (const [output] of state.outputs) {
    const entry = Object.hasOwn(known, output) ? known[output] : undefined;
    if (!entry || !isSettled(entry)) return undefined;
    lines.push(output, entry[0]);
  }
  return lines.join(SEPARATOR);
}

export function parseExpectation(text: string): UnchangedExpectation {
  const lines = text.split(SEPARATOR);
  const outputs: UnchangedExpectation['outputs'] = [];
  for (let i = 1; i + 1 < lines.length; i += 2) outputs.push({ path: lines[i]!, signature: lines[i + 1]! });
  return { stateSignature: lines[0]!, outputs };
}
