import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manifestFileSchema, manifestShell, outputRecordSchema, stateSchema, stateShell } from './documentSchemas';
import { isValidManifestFile, isValidManifestShell } from './manifestSchema';
import { isValidOutputRecord, isValidStateShell } from './stateSchema';
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
    // A fixed seed: this pins the generator's mix, not the predicates, so a rare draw must not fail it.
    const samples = fc.sample(record, { numRuns: 5000, seed: 27 });
    for (const isValid of [isValidOutputRecord, isValidManifestFile]) {
      const accepted = samples.filter(isValid).length;
      expect(accepted).toBeGreaterThan(200);
      expect(samples.length - accepted).toBeGreaterThan(200);
    }
  });
});

// The shells around the records: every field right, nearly right, of another type, or absent (no
// required keys), so that each of the predicate's conditions decides some of the verdicts.
const timestamp = field(['2026-06-04T12:00:00Z', '2026-06-04T12:00:00.5+02:00'], ['2026-06-04', '2026-13-04T12:00:00Z', '', 5]);
const anyValue = fc.constantFrom(null, 1, 'x', true, [], {});
// Keys are sometimes all present (fields still nearly right at times) and sometimes any may be
// absent: with only the latter, a whole valid shell is rare enough that a run may see none.
const shellOf = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) =>
  fc.oneof({ arbitrary: fc.record(fields), weight: 3 }, { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 1 }, anyValue);
const manifestShellValue = shellOf({
  schema_version: field([1], [2, '1', 1.5, null]),
  id: field(['reports.x'], ['', 7, null]),
  digest: field([sampleSha256(2)], [sampleSha256(2).toUpperCase(), 'sha256:', 3]),
  created: timestamp,
  files: field([[], [{ path: 'anything' }], ['not a record']], [{}, 'x', null]),
  extra: fc.constantFrom(undefined, 'kept'),
});
const stateShellValue = shellOf({
  schema_version: field([1], [2, '1', null]),
  distributor_version: field(['dev', ''], [3, null]),
  pipeline_id: field(['reports'], ['', 1, null]),
  destination_id: field(['archive'], ['', [], null]),
  published_at: timestamp,
  source: fc.oneof(shellOf({ manifest: manifestShellValue, extra: fc.constantFrom(undefined, 1) }), anyValue),
  links: shellOf({
    primary_url: field(['https://x.example/a', 'HTTP://x.org'], ['http:/x', 'ftp://x', '', 'http://a b', 7]),
    extra: anyValue,
  }),
  outputs: field([[], [{ path: 5 }]], [{}, 'x', null]),
  extra: fc.constantFrom(undefined, 'kept'),
});

describe('the fast shell predicates', () => {
  it('accept a state shell exactly when the state schema (records aside) does', () => {
    fc.assert(
      fc.property(stateShellValue, (value) => {
        expect(isValidStateShell(value)).toBe(stateShell.safeParse(value).success);
      }),
      { numRuns: 10000 },
    );
  });

  it('accept a manifest shell exactly when the manifest schema (files aside) does', () => {
    fc.assert(
      fc.property(manifestShellValue, (value) => {
        expect(isValidManifestShell(value)).toBe(manifestShell.safeParse(value).success);
      }),
      { numRuns: 10000 },
    );
  });

  it('accept the sample state and see both verdicts often, so the agreement above is not vacuous', () => {
    expect(isValidStateShell(sampleState())).toBe(true);
    for (const [arbitrary, isValid] of [
      [stateShellValue, isValidStateShell],
      [manifestShellValue, isValidManifestShell],
    ] as const) {
      const samples = fc.sample(arbitrary as fc.Arbitrary<unknown>, { numRuns: 20000, seed: 27 });
      const accepted = samples.filter(isValid).length;
      expect(accepted).toBeGreaterThan(100);
      expect(samples.length - accepted).toBeGreaterThan(1000);
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
