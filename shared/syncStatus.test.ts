import { describe, expect, it } from 'vitest';
import { compare, decisionSchema } from './compare';
import { sampleManifest, sampleState } from './sampleDocuments';
import type { Manifest } from './manifestSchema';
import type { State } from './stateSchema';
import { SYNC_KINDS, syncKindOf, syncOf, syncOfInspection } from './syncStatus';

const manifest = sampleManifest() as unknown as Manifest;
const state = sampleState() as unknown as State;

describe('the sync of one destination', () => {
  it('names every decision of the contract with one sync kind, and every kind is a chip', () => {
    const kinds = decisionSchema.options.map(syncKindOf);
    expect(kinds).toEqual(['publish_waiting', 'unmanaged', 'conflict', 'up_to_date', 'publish_waiting', 'destination_newer']);
    for (const kind of kinds) expect(SYNC_KINDS).toContain(kind);
  });

  it('is the decision compare makes, in the words Compare shows', () => {
    const managed = { status: 'managed' as const, state };
    const synced = syncOf({ destination: managed, hasContent: true, source: { ok: true, manifest } });
    const decided = compare({ destination: managed, hasContent: true, source: manifest });
    expect(synced).toMatchObject({ kind: syncKindOf(decided.decision), decision: decided.decision });
    expect(syncOf({ destination: { status: 'invalid' }, hasContent: true, source: { ok: true, manifest } })).toMatchObject({
      kind: 'conflict',
      reason: 'invalid_state',
      title: 'Conflict: invalid state',
    });
    expect(syncOf({ destination: { status: 'none' }, hasContent: false, source: { ok: true, manifest } })).toMatchObject({
      kind: 'publish_waiting',
      decision: 'publish',
    });
  });

  it('says when no source is configured, and why a configured one cannot be read', () => {
    expect(syncOf({ destination: { status: 'none' }, hasContent: false, source: undefined })).toMatchObject({
      kind: 'no_source',
      title: 'No source configured',
    });
    const unreadable = syncOf({
      destination: { status: 'none' },
      hasContent: false,
      source: { ok: false, problem: '/s/manifest.json does not exist' },
    });
    expect(unreadable).toMatchObject({ kind: 'source_unreadable' });
    expect(unreadable.sentence).toContain('/s/manifest.json does not exist');
  });

  it('takes the configured ids and the replace policy from the workspace entry', () => {
    const inspection = { status: 'managed', state, hasContent: true };
    const other = syncOfInspection({ destinationId: 'somewhere-else' }, inspection, { ok: true, manifest });
    expect(other).toMatchObject({ kind: 'conflict', reason: 'identity_mismatch' });
    const older = {
      ...state,
      source: { ...state.source, manifest: { ...state.source.manifest, created: '2000-01-01T00:00:00Z' } },
    } as State;
    const denied = syncOfInspection({ replacePolicy: 'deny' }, { ...inspection, state: older }, { ok: true, manifest });
    expect(denied).toMatchObject({ kind: 'publish_waiting', decision: 'replace', title: 'Replace (denied by policy)' });
  });
});
