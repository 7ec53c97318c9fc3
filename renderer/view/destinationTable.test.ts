import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DestinationEntry, ScanEntry, VerifyEntry } from '../../shared/api';
import type { DestinationStatus } from '../../shared/inspection';
import { buildRows, countStatuses, filterRows, sortRows, type SortKey } from './destinationRows';
import { DestinationTable } from './destinationTable';
import { countHealth, HEALTH_MARKS } from './health';
import { FRESH, fingerprintOf, nextVerifyFreshness, type VerifyFreshness } from '../../shared/verifyFreshness';

const ROOT = '/w';
const STATUSES: DestinationStatus[] = ['managed', 'unmanaged', 'empty', 'invalid'];

const destination = (id: string, path = `/w/destinations/${id}`, pipelineId?: string): DestinationEntry => ({
  id,
  path,
  ...(pipelineId ? { pipelineId } : {}),
  replacePolicy: 'allow',
});

// Two fingerprints a read can find: the one every verify below is taken with, and another.
const SAME = { stateSha256: `sha256:${'a'.repeat(64)}`, listingDigest: 'listing-1' };
const CHANGED = { stateSha256: `sha256:${'a'.repeat(64)}`, listingDigest: 'listing-2' };
const AT = '2026-12-04T06:00:00.000Z';

function scanned(id: string, status: DestinationStatus, publishedAt?: string, interrupted = false, changed = false): ScanEntry {
  const issues: ScanEntry['inspection']['issues'] = interrupted
    ? [{ path: [], code: 'interrupted_replace', message: 'a staging folder is left', severity: 'warning' }]
    : status === 'invalid'
      ? [{ path: ['outputs', 0, 'sha256'], code: 'invalid_sha256', message: 'bad', severity: 'error' }]
      : [];
  return {
    destination: id,
    inspection: { path: `/w/destinations/${id}`, status, issues, hasContent: status !== 'empty', ...(changed ? CHANGED : SAME) },
    summary: {
      status,
      outputCount: 0,
      errorCount: status === 'invalid' ? 1 : 0,
      warningCount: interrupted ? 1 : 0,
      ...(publishedAt !== undefined ? { published_at: publishedAt } : {}),
      ...(status === 'managed' ? { pipeline_id: 'handbook', destination_id: `${id}-state` } : {}),
    },
  };
}

const verified = (id: string, status: 'intact' | 'drifted'): VerifyEntry => ({
  destination: id,
  report: { status, outputs: [], extra: [] },
  stamp: { verifiedAt: '2026-12-04T05:00:00.000Z', basis: fingerprintOf(SAME) },
});

// Times that tie, differ only in the fraction or the offset, or do not parse at all.
const TIMES = [
  '2026-06-01T10:00:00Z',
  '2026-06-01T10:00:00.5Z',
  '2026-06-01T10:00:00.500000001Z',
  '2026-06-01T12:00:00+02:00',
  '2026-06-01T09:59:59.999999999Z',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2026-02-30T12:00:00Z',
  'not a time',
];

const ids = fc.constantFrom('a', 'b', 'c', 'docs-eu', 'docs-us', 'legacy', 'site-1', 'site-10', 'B', 'z');
const destinationArb = fc.record({
  id: ids,
  path: fc.oneof(
    ids.map((id) => `/w/destinations/${id}`),
    ids.map((id) => `C:\\w\\${id}`),
    fc.constant('/elsewhere/x'),
    fc.constant('/w'),
  ),
  pipelineId: fc.option(fc.constantFrom('handbook', 'status'), { nil: undefined }),
});
const scanArb = fc.record({
  id: fc.oneof(ids, fc.constant('not-in-workspace')),
  status: fc.constantFrom(...STATUSES),
  time: fc.option(fc.constantFrom(...TIMES), { nil: undefined }),
  interrupted: fc.boolean(),
  changed: fc.boolean(),
});
const verifyArb = fc.record({ id: ids, status: fc.constantFrom('intact' as const, 'drifted' as const) });
const batchArb = fc.oneof(
  fc.array(scanArb, { maxLength: 6 }).map((items) => ({ kind: 'scan' as const, items })),
  fc.array(verifyArb, { maxLength: 4 }).map((items) => ({ kind: 'verify' as const, items })),
  fc.array(ids, { maxLength: 3 }).map((items) => ({ kind: 'forget' as const, items })),
);
const filterArb = fc.record({
  statuses: fc.subarray(STATUSES).map((statuses) => new Set(statuses)),
  health: fc.subarray([...HEALTH_MARKS]).map((marks) => new Set(marks)),
  query: fc.constantFrom('', 'docs', 'DOCS eu', 'site-1', 'handbook', 'destinations/', '  ', 'zzz', 'state'),
  sort: fc.constantFrom<SortKey>('id', 'status', 'health', 'published'),
});

describe('the incremental destination table', () => {
  it('lists, counts (status and health, stale included), filters and sorts exactly as rebuilding every row with the freshness rule does, after any sequence of scans, verifies and dropped verifies', () => {
    fc.assert(
      fc.property(
        fc.array(destinationArb, { maxLength: 12 }),
        fc.array(batchArb, { maxLength: 8 }),
        filterArb,
        fc.constantFrom(ROOT, '/w/', 'C:\\w'),
        (entries, batches, filter, root) => {
          const destinations = entries.map((entry) => destination(entry.id, entry.path, entry.pipelineId));
          let table = DestinationTable.of(root, destinations);
          const scan = new Map<string, ScanEntry>();
          const verify = new Map<string, VerifyEntry>();
          // The reference's freshness: every read of a verified destination folded through the one rule.
          const freshness = new Map<string, VerifyFreshness>();
          for (const batch of batches) {
            if (batch.kind === 'scan') {
              const items = batch.items.map((item) => scanned(item.id, item.status, item.time, item.interrupted, item.changed));
              for (const item of items) {
                scan.set(item.destination, item);
                const held = verify.get(item.destination);
                if (held) {
                  const reread = { kind: 'reread' as const, fingerprint: fingerprintOf(item.inspection), at: AT };
                  freshness.set(item.destination, nextVerifyFreshness(held.stamp, freshness.get(item.destination) ?? FRESH, reread));
                }
              }
              table = table.withScan(items, AT);
            } else if (batch.kind === 'forget') {
              for (const id of batch.items) {
                verify.delete(id);
                freshness.delete(id);
              }
              table = table.withoutVerify(batch.items);
            } else {
              const items = batch.items.map((item) => verified(item.id, item.status));
              for (const item of items) {
                verify.set(item.destination, item);
                freshness.set(item.destination, FRESH);
              }
              table = table.withVerify(items);
            }
            const reference = buildRows(root, destinations, scan, verify, freshness);
            expect(table.rows).toEqual(reference);
            expect(table.statusCounts).toEqual(countStatuses(reference));
            expect(table.healthCounts).toEqual(countHealth(reference));
            expect(table.view(filter, filter.sort)).toEqual(sortRows(filterRows(reference, filter), filter.sort));
            for (const { id } of destinations) {
              expect(table.scanEntry(id)).toBe(scan.get(id));
              expect(table.verifyEntry(id)).toBe(verify.get(id));
              expect(table.verifyFreshness(id)).toEqual(verify.has(id) ? freshness.get(id) : undefined);
            }
            expect(table.scannedCount).toBe(reference.filter((row) => row.status !== undefined).length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('builds in slices (ofInSlices, a pause between each) the very table `of` builds at once, past many slices, with repeated ids and out of name order', async () => {
    // A deterministic shuffle of 20,000 ids (some listed twice), so the by-name sort has work to do.
    const order = Array.from({ length: 20_000 }, (_, i) => (i * 7_919) % 20_000);
    const destinations = order.map((n) => destination(n % 997 === 0 ? 'site-repeated' : `site-${n}`, `/w/destinations/d${n}`));
    let pauses = 0;
    const sliced = await DestinationTable.ofInSlices(ROOT, destinations, async () => {
      pauses += 1;
    });
    const whole = DestinationTable.of(ROOT, destinations);
    expect(pauses).toBeGreaterThan(2);
    expect(sliced.rows).toEqual(whole.rows);
    expect(sliced.rows).toEqual(buildRows(ROOT, destinations, new Map(), new Map()));
    expect(sliced.statusCounts).toEqual(whole.statusCounts);
    expect(sliced.healthCounts).toEqual(whole.healthCounts);
    const batch = [scanned('site-5', 'managed', TIMES[0]), scanned('site-repeated', 'invalid'), scanned('site-19999', 'empty')];
    const [a, b] = [sliced.withScan(batch, AT), whole.withScan(batch, AT)];
    for (const sort of ['id', 'status', 'health', 'published'] as const) {
      const filter = { statuses: new Set<DestinationStatus>(), health: new Set<never>(), query: '', sort };
      expect(a.view(filter, sort)).toEqual(b.view(filter, sort));
    }
    expect(a.view({ statuses: new Set(), query: 'repeated' }, 'id')).toHaveLength(order.filter((n) => n % 997 === 0).length);
    expect(a.scanEntry('site-19999')).toBe(batch[2]);
  });

  it('derives only the rows a batch brings and keeps every other row object as it was', () => {
    const destinations = Array.from({ length: 1000 }, (_, i) => destination(`site-${i}`));
    const before = DestinationTable.of(ROOT, destinations).withScan([scanned('site-1', 'managed', TIMES[0])]);
    const after = before.withScan([scanned('site-2', 'invalid'), scanned('site-3', 'managed', TIMES[1])]);
    const changed = after.rows.flatMap((row, i) => (row === before.rows[i] ? [] : [row.id]));
    expect(changed).toEqual(['site-2', 'site-3']);
    // The older snapshot is untouched: React may still be rendering it.
    expect(before.rows[2]!.status).toBeUndefined();
    expect(after.rows[2]!.status).toBe('invalid');
    expect(after.withScan([scanned('not-listed', 'managed')])).toBe(after);
  });

  it('streams 100,000 results in 120-ms-sized batches with a view per batch in a few seconds, not minutes', () => {
    const count = 100_000;
    const destinations = Array.from({ length: count }, (_, i) => destination(`site-${String(i).padStart(6, '0')}`));
    let table = DestinationTable.of(ROOT, destinations);
    const batch = 2_000;
    let shown = 0;
    for (let start = 0; start < count; start += batch) {
      const items = destinations
        .slice(start, start + batch)
        .map((d, i) => scanned(d.id, STATUSES[(start + i) % 4]!, TIMES[(start + i) % TIMES.length]));
      table = table.withScan(items);
      shown = table.view({ statuses: new Set(), query: '' }, 'id').length;
    }
    expect(shown).toBe(count);
    expect(table.statusCounts.pending).toBe(0);
    expect(table.scannedCount).toBe(count);
  });
});

describe('a verify result in the table', () => {
  const two = () =>
    DestinationTable.of(ROOT, [destination('a'), destination('b')]).withScan([scanned('a', 'managed'), scanned('b', 'managed')]);

  it('stays intact when a rescan reads the same fingerprint, and turns stale (never intact) when it reads another', () => {
    const table = two().withVerify([verified('a', 'intact'), verified('b', 'intact')]);
    const rescanned = table.withScan([scanned('a', 'managed'), scanned('b', 'managed', undefined, false, true)], AT);
    expect(rescanned.rows.map((row) => row.verify)).toEqual(['intact', 'stale']);
    expect(rescanned.verifyFreshness('b')).toEqual({ fresh: false, reason: 'listing_changed', since: AT });
    expect(rescanned.healthCounts).toMatchObject({ intact: 1, stale: 1 });
    // Stale is final until the next verify, even when a later read finds the first fingerprint again.
    expect(rescanned.withScan([scanned('b', 'managed')], AT).rows[1]!.verify).toBe('stale');
    expect(rescanned.withVerify([verified('b', 'drifted')]).rows[1]!.verify).toBe('drifted');
  });

  it('turns stale at once when live refresh saw its destination change, even when the read finds the same fingerprint', () => {
    const table = two().withVerify([verified('a', 'intact'), verified('b', 'drifted')]);
    const changed = table.withChangedOnDisk([{ entry: scanned('a', 'managed', '2026-12-04T05:30:00Z'), changedAt: AT }]);
    expect(changed.rows.map((row) => [row.status, row.verify])).toEqual([
      ['managed', 'stale'],
      ['managed', 'drifted'],
    ]);
    expect(changed.rows[0]!.publishedAt).toBe('2026-12-04T05:30:00Z');
    expect(changed.verifyFreshness('a')).toEqual({ fresh: false, reason: 'changed_on_disk', since: AT });
    expect(changed.healthCounts).toMatchObject({ stale: 1, drifted: 1, intact: 0 });
    // A destination without a verify result just takes its new row.
    const unverified = two().withChangedOnDisk([{ entry: scanned('b', 'empty'), changedAt: AT }]);
    expect(unverified.rows[1]).toMatchObject({ status: 'empty', verify: 'unverified' });
  });

  it('keeps a result fresh when live refresh saw the whole change before its verify began reading, and turns it stale when not', () => {
    const table = two().withVerify([verified('a', 'drifted'), verified('b', 'intact')]);
    const changed = table.withChangedOnDisk([
      { entry: scanned('a', 'managed'), changedAt: '2026-12-04T04:59:59.000Z', lastEventAt: '2026-12-04T04:59:59.999Z' },
      { entry: scanned('b', 'managed'), changedAt: '2026-12-04T04:59:59.000Z', lastEventAt: '2026-12-04T05:00:00.000Z' },
    ]);
    expect(changed.rows.map((row) => row.verify)).toEqual(['drifted', 'stale']);
    expect(changed.healthCounts).toMatchObject({ drifted: 1, stale: 1 });
  });

  it('keeps its staleness across a re-read of the workspace file', () => {
    const stale = two()
      .withVerify([verified('a', 'intact')])
      .withScan([scanned('a', 'managed', undefined, false, true)], AT);
    expect(stale.reconciled(ROOT, [destination('a'), destination('b')], new Set()).rows[0]!.verify).toBe('stale');
  });
});

describe('DestinationTable.reconciled', () => {
  it('keeps the results of destinations a re-read kept, and drops the added, removed and reconfigured ones', () => {
    const before = DestinationTable.of(ROOT, [destination('a'), destination('b'), destination('c')])
      .withScan([scanned('a', 'managed'), scanned('b', 'managed'), scanned('c', 'invalid')])
      .withVerify([verified('a', 'intact'), verified('b', 'drifted')]);
    const after = before.reconciled(ROOT, [destination('a'), destination('b', '/w/moved/b'), destination('d')], new Set(['b']));
    expect(after.rows.map((row) => row.id)).toEqual(['a', 'b', 'd']);
    expect(after.scanEntry('a')?.summary.status).toBe('managed');
    expect(after.verifyEntry('a')?.report.status).toBe('intact');
    expect(after.scanEntry('b')).toBeUndefined();
    expect(after.verifyEntry('b')).toBeUndefined();
    expect(after.scanEntry('c')).toBeUndefined();
    expect(after.scannedCount).toBe(1);
    expect(after.statusCounts.pending).toBe(2);
  });
});
