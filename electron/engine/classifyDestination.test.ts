import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sampleState } from '../../shared/sampleDocuments';
import { STAGING_DIR_NAME, STAGING_MARKER_KIND, stagingMarkerText, type StagingCandidate } from '../../shared/staging';
import { classifyDestination, type DestinationFacts, type StateFileFacts } from './classifyDestination';

const DIR = '/w/destinations/docs';
const SHA = `sha256:${'a'.repeat(64)}`;
const bytesOf = (text: string): StateFileFacts => ({ kind: 'bytes', bytes: new TextEncoder().encode(text), sha256: SHA });
const MARKED: StagingCandidate = {
  name: STAGING_DIR_NAME,
  markerText: stagingMarkerText({
    kind: STAGING_MARKER_KIND,
    version: 1,
    created: '2026-05-04T03:00:00Z',
    mode: 'replace',
    source: { id: 'src', digest: SHA },
    plannedAt: '2026-05-04T03:00:00Z',
    pipeline_id: 'p',
    destination_id: 'd',
  }),
};
const directory = (stateFile: StateFileFacts, hasContent = false, hasStaging = false): DestinationFacts => ({
  kind: 'directory',
  stateFile,
  hasContent,
  staging: hasStaging ? [MARKED] : [],
});
const codes = (facts: DestinationFacts) => classifyDestination(DIR, facts).inspection.issues.map((issue) => issue.code);

describe('the one classifier of a destination', () => {
  it('follows the contract table: empty, unmanaged, managed, invalid', () => {
    const status = (facts: DestinationFacts) => classifyDestination(DIR, facts).inspection.status;
    expect(status({ kind: 'missing' })).toBe('empty');
    expect(status(directory({ kind: 'missing' }))).toBe('empty');
    expect(status(directory({ kind: 'missing' }, true))).toBe('unmanaged');
    expect(status(directory(bytesOf(JSON.stringify(sampleState()))))).toBe('managed');
    expect(status(directory(bytesOf('{"schema_version": 1,')))).toBe('invalid');
    expect(status(directory({ kind: 'not_a_file', what: 'a directory' }))).toBe('invalid');
  });

  it('names a linked destination, a file in its place, and a state file that is not a file, as errors', () => {
    expect(classifyDestination(DIR, { kind: 'symlink' }).inspection).toMatchObject({ status: 'unmanaged', hasContent: true });
    expect(codes({ kind: 'symlink' })).toEqual(['destination_is_symlink']);
    expect(codes({ kind: 'not_directory' })).toEqual(['destination_not_directory']);
    const notAFile = classifyDestination(DIR, directory({ kind: 'not_a_file', what: 'a symbolic link' }));
    expect(notAFile.inspection.issues[0]?.message).toBe(`${DIR}/.distributor.json is a symbolic link, not a state file`);
  });

  it('never calls a folder with the staging name but no marker an interrupted replace', () => {
    const unmarked: DestinationFacts = {
      kind: 'directory',
      stateFile: { kind: 'missing' },
      hasContent: true,
      staging: [{ name: STAGING_DIR_NAME, markerText: undefined }],
    };
    expect(codes(unmarked)).toEqual([]);
  });

  it('reports a marked staging folder as an interrupted replace first, whatever the state says', () => {
    expect(codes(directory({ kind: 'missing' }, true, true))).toEqual(['interrupted']);
    expect(codes(directory(bytesOf(JSON.stringify(sampleState())), true, true))).toEqual(['interrupted']);
    expect(codes(directory({ kind: 'not_a_file', what: 'a directory' }, false, true))).toEqual(['interrupted', 'state_not_a_file']);
  });

  it('hands over the text, the JSON (also of an invalid state) and the validated state only when managed', () => {
    const managed = classifyDestination(DIR, directory(bytesOf(JSON.stringify(sampleState()))));
    expect(managed.state).toBeDefined();
    expect(managed.json).toEqual(managed.state);
    expect(managed.inspection.stateSha256).toBe(SHA);
    const invalid = classifyDestination(DIR, directory(bytesOf(JSON.stringify({ ...sampleState(), schema_version: '1' }))));
    expect(invalid.inspection.status).toBe('invalid');
    expect(invalid.json).toBeDefined();
    expect(invalid.state).toBeUndefined();
    const notUtf8 = classifyDestination(DIR, directory({ kind: 'bytes', bytes: new Uint8Array([0x7b, 0xff, 0x7d]), sha256: SHA }));
    expect(notUtf8.text).toBeUndefined();
    expect(notUtf8.inspection.issues.map((issue) => issue.code)).toContain('not_utf8');
  });

  it('never throws, and a status is managed exactly when a state comes with it (any bytes, any facts)', () => {
    const stateFile = fc.oneof(
      fc.constant<StateFileFacts>({ kind: 'missing' }),
      fc.constant<StateFileFacts>({ kind: 'not_a_file', what: 'a directory' }),
      fc.uint8Array({ maxLength: 64 }).map((bytes): StateFileFacts => ({ kind: 'bytes', bytes, sha256: SHA })),
      fc.constantFrom(JSON.stringify(sampleState()), '{}', '[]', 'null').map(bytesOf),
    );
    const facts = fc.oneof(
      fc.constantFrom<DestinationFacts>({ kind: 'missing' }, { kind: 'symlink' }, { kind: 'not_directory' }),
      fc
        .record({ stateFile, hasContent: fc.boolean(), hasStaging: fc.boolean() })
        .map(({ hasStaging, ...f }): DestinationFacts => ({ kind: 'directory', ...f, staging: hasStaging ? [MARKED] : [] })),
    );
    fc.assert(
      fc.property(facts, (f) => {
        const { inspection, state } = classifyDestination(DIR, f);
        expect(inspection.status === 'managed').toBe(state !== undefined);
        expect(inspection.path).toBe(DIR);
        if (inspection.status === 'empty') expect(inspection.hasContent).toBe(false);
      }),
    );
  });
});
