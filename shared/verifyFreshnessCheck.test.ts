import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCleanRelativePath } from './cleanPath';
import type { CachedOutput, CachedState } from './verifyFreshnessCache';
import { parseExpectation, unchangedExpectation } from './verifyFreshnessCheck';
import { RACY_MARGIN_NS } from './verifyFreshnessStat';

const SHA = `sha256:${'a'.repeat(64)}`;
const signature = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    fc.nat(),
    fc.bigInt({ min: 0n, max: 10n ** 19n }),
  )
  .map(([dev, ino, size, timeNs]) => `${dev}:${ino}:${size}:${timeNs}:${timeNs}`);
const cleanPath = fc
  .array(fc.string({ minLength: 1, maxLength: 6, unit: 'binary' }), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join('/'))
  .filter(isCleanRelativePath);

/** An entry read long enough after its timestamps to be settled, or within the margin (racy). */
const entry = (sig: string, settled: boolean): CachedOutput => {
  const timeNs = BigInt(sig.split(':')[3]!);
  return [sig, SHA, String(timeNs + RACY_MARGIN_NS + (settled ? 1n : 0n))];
};

const destination = fc.record({
  state: signature,
  outputs: fc.uniqueArray(fc.tuple(cleanPath, signature), { selector: ([output]) => output, maxLength: 6 }),
});

function cacheOf(d: { state: string; outputs: [string, string][] }, settled = (_output?: string) => true) {
  const state: CachedState = { file: entry(d.state, settled()), issues: [], outputs: d.outputs.map(([output]) => [output, 1, SHA]) };
  const known = Object.fromEntries(d.outputs.map(([output, sig]) => [output, entry(sig, settled(output))]));
  return { state, known };
}

describe('the re-verify expectation', () => {
  it('gives back the state file’s and every output’s signature, in the state’s order, for any clean paths (property)', () => {
    fc.assert(
      fc.property(destination, (d) => {
        const { state, known } = cacheOf(d);
        expect(parseExpectation(unchangedExpectation(state, known)!)).toEqual({
          stateSignature: d.state,
          outputs: d.outputs.map(([output, sig]) => ({ path: output, signature: sig })),
        });
      }),
    );
  });

  it('is not made when the state file or any output was read within the racy margin, or has no entry (property)', () => {
    fc.assert(
      fc.property(destination, fc.nat(), fc.constantFrom('racy_state', 'racy_output', 'missing_output', 'no_state'), (d, pick, how) => {
        fc.pre(how === 'racy_state' || how === 'no_state' || d.outputs.length > 0);
        const chosen = d.outputs.length > 0 ? d.outputs[pick % d.outputs.length]![0] : undefined;
        const { state, known } = cacheOf(d, (output) =>
          how === 'racy_state' ? output !== undefined : how !== 'racy_output' || output !== chosen,
        );
        if (how === 'missing_output') delete known[chosen!];
        expect(unchangedExpectation(how === 'no_state' ? undefined : state, known)).toBeUndefined();
      }),
    );
  });
});
