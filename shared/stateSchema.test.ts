import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidManifestFile, manifestFileSchema } from './manifestSchema';
import { isValidOutputRecord, outputRecordSchema, stateSchema } from './stateSchema';
import { sampleSha256, sampleState } from './sampleDocuments';

// Each field mostly right, sometimes nearly right or left out (undefined), so that both verdicts occur often.
const field = <T>(right: T[], wrong: unknown[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...right), weight: 5 }, { arbitrary: fc.constantFrom(undefined, ...wrong), weight: 1 });
const pathValue = field(['a.html', 'a/b.md', '.a', 'é/😀'], ['../a', '', 'a\\b', '...', 'C:x', 'a/', 5, null]);
const record = fc.record({
  path: pathValue,
  kind: field(['source', 'generated'], ['Source', '', 1]),
  source_path: pathValue,
  transform: fc.constantFrom(undefined, 'markdown_to_html', '', 3, null),
  url: fc.constantFrom(undefined, 'https://example.com/a', 'HTTP://x.org', 'http:/x', 'ftp://x', '', 'http://a b', 7),
  sha256: field([sampleSha256(1)], [sampleSha256(1).toUpperCase(), 'sha256:', 42]),
  size: field([0, 12, Number.MAX_SAFE_INTEGER], [1.5, -1, 2 ** 53, '3', Number.NaN, Number.POSITIVE_INFINITY]),
  extra: fc.constantFrom(undefined, 'kept', 1),
});
const notARecord = fc.oneof(fc.constantFrom(null, 5, 'a', true), fc.array(fc.nat(), { maxLength: 2 }));

describe('the fast record predicates', () => {
  it('accept an output record exactly when outputRecordSchema does', () => {
    fc.assert(
      fc.property(fc.oneof(record, notARecord), (value) => {
        expect(isValidOutputRecord(value)).toBe(outputRecordSchema.safeParse(value).success);
      }),
      { numRuns: 5000 },
    );
  });

  it('accept a manifest file exactly when manifestFileSchema does', () => {
    fc.assert(
      fc.property(fc.oneof(record, notARecord), (value) => {
        expect(isValidManifestFile(value)).toBe(manifestFileSchema.safeParse(value).success);
      }),
      { numRuns: 5000 },
    );
  });

  it('see both verdicts often among the generated records, so the agreement above is not vacuous', () => {
    const samples = fc.sample(record, 2000);
    for (const isValid of [isValidOutputRecord, isValidManifestFile]) {
      const accepted = samples.filter(isValid).length;
      expect(accepted).toBeGreaterThan(100);
      expect(samples.length - accepted).toBeGreaterThan(100);
    }
  });
});

describe('stateSchema', () => {
  it('infers a State type whose sample parses', () => {
    const parsed = stateSchema.safeParse(sampleState());
    expect(parsed.success).toBe(true);
    expect(parsed.data?.outputs[0]?.kind).toBe('generated');
  });
});
