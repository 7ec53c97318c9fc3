import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanEntrySchema, type ScanEntry } from './apiEntries';
import { clientFromBridge, runJob } from './apiClient';
import type { ApiEvent, InspectorBridge } from './api';
import { eventForPage, packScanRows, PACKED_FIELDS, unpackScanRows, type PackedScanRows } from './scanRowsWire';
import { SYNC_KINDS } from './syncKinds';

const onWire = (batch: PackedScanRows): unknown => JSON.parse(JSON.stringify(batch));

const managed = (id: string, published: string): ScanEntry => ({
  destination: id,
  inspection: {
    path: `/srv/ws/destinations/${id}`,
    status: 'managed',
    issues: [],
    stateSha256: `sha256:${id.padEnd(64, '0')}`,
    hasContent: true,
    listingDigest: 'sha256:b7970b18c5133c33aca87237d48768798b9491895b7c3cd816830e181fbe9cad',
  },
  summary: {
    status: 'managed',
    outputCount: 2,
    errorCount: 0,
    warningCount: 0,
    pipeline_id: 'status',
    destination_id: id,
    published_at: published,
  },
  sync: {
    kind: 'up_to_date',
    decision: 'skip',
    title: 'Up to date',
    sentence: 'The destination already holds exactly this source manifest: nothing to do.',
  },
});

const invalid: ScanEntry = {
  destination: 'broken',
  inspection: {
    path: 'relative-name',
    status: 'invalid',
    issues: [{ path: ['outputs', 0, 'sha256'], code: 'invalid_digest', message: 'not a digest', severity: 'error' }],
    stateJson: { pipeline_id: 'p', outputs: [{ sha256: 'nope' }] },
    stateWithheld: { sizeBytes: 12 },
    stateSha256: 'sha256:abc',
    hasContent: false,
    outputsDigest: 'sha256:def',
  },
  summary: { status: 'invalid', outputCount: 1, errorCount: 1, warningCount: 0 },
};

const text = fc.string({ maxLength: 12 });
const optional = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });
const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

/** Any row the schema accepts, with the optional fields present or not. */
const anyEntry: fc.Arbitrary<ScanEntry> = fc
  .record({
    destination: fc.string({ minLength: 1, maxLength: 12 }),
    path: fc.oneof(
      text,
      fc.array(text, { maxLength: 4 }).map((parts) => parts.join('/')),
    ),
    status: fc.constantFrom('empty', 'unmanaged', 'managed', 'invalid' as const),
    issues: fc.array(
      fc.record({
        path: fc.array(fc.oneof(text, fc.nat())),
        code: text,
        message: text,
        severity: fc.constantFrom('error', 'warning' as const),
      }),
      { maxLength: 2 },
    ),
    stateJson: optional(fc.dictionary(text, fc.jsonValue())),
    stateSha256: optional(text),
    stateWithheld: optional(fc.record({ sizeBytes: fc.nat() })),
    hasContent: fc.boolean(),
    listingDigest: optional(text),
    outputsDigest: optional(text),
    counts: fc.tuple(fc.nat(), fc.nat(), fc.nat()),
    pipeline_id: optional(text),
    destination_id: optional(text),
    published_at: optional(text),
    sync: optional(fc.record({ kind: fc.constantFrom(...SYNC_KINDS), title: text, sentence: text })),
  })
  .map((row) => {
    const entry: ScanEntry = {
      destination: row.destination,
      inspection: withoutUndefined({
        path: row.path,
        status: row.status,
        issues: row.issues,
        stateJson: row.stateJson,
        stateSha256: row.stateSha256,
        stateWithheld: row.stateWithheld,
        hasContent: row.hasContent,
        listingDigest: row.listingDigest,
        outputsDigest: row.outputsDigest,
      }),
      summary: withoutUndefined({
        status: row.status,
        outputCount: row.counts[0],
        errorCount: row.counts[1],
        warningCount: row.counts[2],
        pipeline_id: row.pipeline_id,
        destination_id: row.destination_id,
        published_at: row.published_at,
      }),
    };
    if (row.sync) entry.sync = row.sync;
    // What the host sends is what its zod check let through; JSON's own round trip (e.g. -0) is not the packer's.
    return JSON.parse(JSON.stringify(scanEntrySchema.parse(entry))) as ScanEntry;
  });

describe('a scan’s rows on the wire to a page', () => {
  it('carries every field the scan row’s schema declares, so a field added there fails here until the packer carries it', () => {
    const inspectionShape = scanEntrySchema.shape.inspection.shape;
    expect([...PACKED_FIELDS.entry].sort()).toEqual(Object.keys(scanEntrySchema.shape).sort());
    expect([...PACKED_FIELDS.inspection].sort()).toEqual(Object.keys(inspectionShape).sort());
    expect([...PACKED_FIELDS.summary].sort()).toEqual(Object.keys(scanEntrySchema.shape.summary.shape).sort());
  });

  it('unpacks a batch to rows equal to the ones packed, field for field, through JSON', () => {
    const rows = [managed('site-00048', '2026-05-01T05:29:00Z'), invalid, managed('site-00049', '2026-05-01T05:36:00Z')];
    expect(unpackScanRows(onWire(packScanRows(rows)))).toEqual({ ok: true, value: rows });
  });

  it('round-trips any batch of rows the schema accepts', () => {
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 6 }), (rows) => {
        expect(unpackScanRows(onWire(packScanRows(rows)))).toEqual({ ok: true, value: rows });
      }),
    );
  });

  it('sends the words rows share once a batch, so a row of the demo is under a third of its JSON', () => {
    const rows = Array.from({ length: 1000 }, (_, n) => managed(`site-${String(n).padStart(5, '0')}`, `2026-05-01T0${n % 10}:00:00Z`));
    const packed = packScanRows(rows);
    expect(packed.syncs).toHaveLength(1);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(rows).length / 3);
    const [first, second] = okRows(unpackScanRows(onWire(packed)));
    expect(first!.sync).toBe(second!.sync);
  });

  it.each([
    ['a batch of another layout', (batch: Record<string, unknown>) => (batch.layout = 2), 'rows.layout: expected layout 1'],
    ['words that are not strings', (batch: Record<string, unknown>) => (batch.words = [1]), 'rows.words'],
    [
      'a sync without its sentence',
      (batch: Record<string, unknown>) => delete (batch.syncs as Record<string, unknown>[])[0]!.sentence,
      'rows.syncs[0].sentence',
    ],
    ['a row cut short', (batch: Record<string, unknown>) => (batch.rows as unknown[][])[1]!.pop(), 'rows[1]: expected an array of 18'],
    [
      'a word index past the words',
      (batch: Record<string, unknown>) => ((batch.rows as unknown[][])[1]![1] = 99),
      'rows[1].inspection.path',
    ],
    [
      'a digest of the wrong type',
      (batch: Record<string, unknown>) => ((batch.rows as unknown[][])[0]![5] = true),
      'rows[0].inspection.stateSha256',
    ],
    ['a count that is text', (batch: Record<string, unknown>) => ((batch.rows as unknown[][])[1]![11] = '1'), 'rows[1].summary.errorCount'],
    ['a sync index past the syncs', (batch: Record<string, unknown>) => ((batch.rows as unknown[][])[0]![16] = 5), 'rows[0].sync'],
    [
      'a destination that is not a string',
      (batch: Record<string, unknown>) => ((batch.rows as unknown[][])[0]![0] = null),
      'rows[0].destination',
    ],
  ])('refuses %s, naming the field', (_, spoil, field) => {
    const batch = onWire(packScanRows([managed('site-1', 't'), invalid])) as Record<string, unknown>;
    spoil(batch);
    const unpacked = unpackScanRows(batch);
    expect(unpacked.ok).toBe(false);
    if (!unpacked.ok) {
      expect(unpacked.error.code).toBe('internal');
      expect(unpacked.error.message).toContain(`is malformed at ${field}`);
    }
  });

  it('never throws on any input', () => {
    fc.assert(fc.property(fc.jsonValue(), (raw) => void unpackScanRows(raw)));
  });

  it('packs only a scan’s items: verify reports and other events leave as they are', () => {
    const verify: ApiEvent = { event: 'items', data: { job: 'j', method: 'verify', items: [] } };
    expect(eventForPage(verify)).toBe(verify);
    const scan = eventForPage({ event: 'items', data: { job: 'j', method: 'scan', items: [invalid] } });
    expect(scan).toEqual({ event: 'items', data: { job: 'j', method: 'scan', rows: packScanRows([invalid]) } });
  });

  it('hands a job’s client each unpacked row, and ends the job naming the field of a malformed batch', async () => {
    const listeners = new Map<string, (data: unknown) => void>();
    const calls: [string, unknown][] = [];
    const bridge: InspectorBridge = {
      invoke: async (method, request) => {
        calls.push([method, request]);
        return { ok: true, value: method === 'scan' ? { job: 'job-1' } : { cancelled: true } };
      },
      on: (event, listener) => {
        listeners.set(event, listener);
        return () => void listeners.delete(event);
      },
    };
    const seen: ScanEntry[] = [];
    const outcome = runJob(clientFromBridge(bridge, 'http'), 'scan', {}, { onItem: (entry) => seen.push(entry) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const rows = [managed('site-1', 't1'), invalid];
    listeners.get('items')!({ job: 'job-1', method: 'scan', rows: onWire(packScanRows(rows)) });
    expect(seen).toEqual(rows);
    const spoiled = onWire(packScanRows(rows)) as { rows: unknown[][] };
    spoiled.rows[1]![9] = 42;
    listeners.get('items')!({ job: 'job-1', method: 'scan', rows: spoiled });
    expect(await outcome).toMatchObject({
      ok: false,
      error: { code: 'internal', message: expect.stringContaining('rows[1].summary.status') },
    });
    expect(seen).toHaveLength(2);
    expect(calls).toContainEqual(['cancelJob', { job: 'job-1' }]);
  });
});

function okRows(result: ReturnType<typeof unpackScanRows>): ScanEntry[] {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}
