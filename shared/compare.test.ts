import { describe, expect, it } from 'vitest';
import { compare, type CompareInput, type Comparison } from './compare';
import { manifestSchema, stateSchema } from './documentSchemas';
import type { Manifest } from './manifestSchema';
import { sampleManifest, sampleSha256, sampleState, type SampleManifestOptions } from './sampleDocuments';

const manifest = (options: SampleManifestOptions = {}, change: (m: Manifest) => void = () => {}): Manifest => {
  const value = manifestSchema.parse(sampleManifest({ extraFiles: 2, ...options }));
  change(value);
  return value;
};
const managed = (recorded: Manifest, ids: { pipelineId?: string; destinationId?: string } = {}): CompareInput['destination'] => {
  const state = stateSchema.parse({ ...sampleState(ids), source: { manifest: recorded } });
  return { status: 'managed', state };
};
const configured = { pipelineId: 'reports', destinationId: 'archive' };
const decide = (input: Partial<CompareInput> & Pick<CompareInput, 'source'>): Comparison =>
  compare({ destination: { status: 'none' }, hasContent: false, configured, ...input });

describe('compare: the nine ordered rules', () => {
  it('1: publishes when there is no state and no content', () => {
    expect(decide({ source: manifest() })).toEqual({ decision: 'publish', rule: 1 });
  });

  it('2: calls a destination with content but no state unmanaged', () => {
    expect(decide({ source: manifest(), hasContent: true })).toEqual({ decision: 'unmanaged', rule: 2 });
  });

  it('3: is a conflict with reason invalid_state when the state is invalid, content or not', () => {
    for (const hasContent of [true, false]) {
      expect(decide({ source: manifest(), destination: { status: 'invalid' }, hasContent })).toEqual({
        decision: 'conflict',
        reason: 'invalid_state',
        rule: 3,
      });
    }
  });

  it.each([
    ['pipeline_id', { pipelineId: 'other' }, { field: 'pipeline_id', expected: 'reports', actual: 'other' }],
    ['destination_id', { destinationId: 'mirror' }, { field: 'destination_id', expected: 'archive', actual: 'mirror' }],
  ] as const)("4: is an identity_mismatch conflict when the state's %s differs from the configured one", (_, ids, mismatch) => {
    const recorded = manifest();
    expect(decide({ source: manifest(), destination: managed(recorded, ids) })).toEqual({
      decision: 'conflict',
      reason: 'identity_mismatch',
      rule: 4,
      mismatches: [mismatch],
    });
  });

  it('4: is an identity_mismatch conflict when the embedded manifest id differs from the source id', () => {
    const result = decide({ source: manifest({ id: 'reports.example.2026-06-05' }), destination: managed(manifest()) });
    expect(result).toMatchObject({ decision: 'conflict', reason: 'identity_mismatch', rule: 4 });
    expect(result.mismatches).toEqual([
      { field: 'source.manifest.id', expected: 'reports.example.2026-06-05', actual: 'reports.example.2026-06-04' },
    ]);
  });

  it('4: lists every mismatch at once', () => {
    const result = decide({ source: manifest({ id: 'x' }), destination: managed(manifest(), { pipelineId: 'p', destinationId: 'd' }) });
    expect(result.mismatches?.map((m) => m.field)).toEqual(['pipeline_id', 'destination_id', 'source.manifest.id']);
  });

  it("4: takes the state's own ids as configured when none are given", () => {
    const result = compare({
      destination: managed(manifest(), { pipelineId: 'p', destinationId: 'd' }),
      hasContent: true,
      source: manifest(),
    });
    expect(result).toEqual({ decision: 'skip', rule: 5 });
  });

  it('5: skips when the embedded manifest matches the source manifest', () => {
    expect(decide({ source: manifest(), destination: managed(manifest()) })).toEqual({ decision: 'skip', rule: 5 });
  });

  it('5: matches the created instant, not its spelling, and files whatever their order', () => {
    const source = manifest({ created: '2026-06-04T13:55:00.000+02:00' }, (m) => m.files.reverse());
    expect(decide({ source, destination: managed(manifest()) })).toEqual({ decision: 'skip', rule: 5 });
  });

  it('6: replaces when the source was created later, even by one nanosecond', () => {
    const recorded = manifest({ created: '2026-06-04T11:55:00.123456789Z' });
    expect(decide({ source: manifest({ created: '2026-06-04T11:55:00.12345679Z' }), destination: managed(recorded) })).toEqual({
      decision: 'replace',
      rule: 6,
    });
  });

  it('7: skips as newer when the source was created earlier', () => {
    expect(decide({ source: manifest({ created: '2026-06-04T11:54:59Z' }), destination: managed(manifest()) })).toEqual({
      decision: 'skip_newer',
      rule: 7,
    });
  });

  it('8: is a digest_mismatch conflict at the same created instant with another digest', () => {
    expect(decide({ source: manifest({ digest: sampleSha256(0xd2) }), destination: managed(manifest()) })).toEqual({
      decision: 'conflict',
      reason: 'digest_mismatch',
      rule: 8,
    });
  });

  it('9: is a manifest_mismatch conflict at the same instant and digest with other files', () => {
    const source = manifest({}, (m) => (m.files[1] = { ...m.files[1]!, size: 999 }));
    expect(decide({ source, destination: managed(manifest()) })).toEqual({ decision: 'conflict', reason: 'manifest_mismatch', rule: 9 });
  });
});

describe('compare: the order of the rules decides', () => {
  it('an invalid state is a conflict even where an empty destination would publish', () => {
    expect(decide({ source: manifest(), destination: { status: 'invalid' }, hasContent: false }).rule).toBe(3);
  });

  it('an identity mismatch beats a newer source (rule 4 before rule 6)', () => {
    const result = decide({
      source: manifest({ created: '2027-01-01T00:00:00Z' }),
      destination: managed(manifest(), { destinationId: 'mirror' }),
    });
    expect(result).toMatchObject({ decision: 'conflict', reason: 'identity_mismatch', rule: 4 });
  });

  it('an identity mismatch beats an identical manifest (rule 4 before rule 5)', () => {
    expect(decide({ source: manifest(), destination: managed(manifest(), { pipelineId: 'other' }) }).rule).toBe(4);
  });

  it('a newer source replaces although its digest and files differ (rule 6 before rules 8 and 9)', () => {
    const source = manifest({ created: '2026-06-04T12:00:00Z', digest: sampleSha256(7) }, (m) => m.files.pop());
    expect(decide({ source, destination: managed(manifest()) })).toEqual({ decision: 'replace', rule: 6 });
  });

  it('an older source is skipped although its digest differs (rule 7 before rule 8)', () => {
    expect(
      decide({ source: manifest({ created: '2026-06-04T11:00:00Z', digest: sampleSha256(7) }), destination: managed(manifest()) }).rule,
    ).toBe(7);
  });

  it('a different digest beats different files (rule 8 before rule 9)', () => {
    const source = manifest({ digest: sampleSha256(7) }, (m) => m.files.pop());
    expect(decide({ source, destination: managed(manifest()) }).rule).toBe(8);
  });
});
