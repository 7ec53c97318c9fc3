import { describe, expect, it } from 'vitest';
import type { DestinationEntry, ScanEntry, VerifyEntry } from '../../shared/api';
import { buildRows, countStatuses, filterRows, sortRows } from './destinationRows';

const destination = (name: string, pipelineId = 'handbook'): DestinationEntry => ({
  id: name,
  path: `/w/destinations/${name}`,
  pipelineId,
  replacePolicy: 'allow',
});
const scanned = (name: string, status: ScanEntry['summary']['status'], publishedAt?: string): ScanEntry => {
  const issues: ScanEntry['inspection']['issues'] =
    status === 'invalid' ? [{ path: ['outputs', 0, 'sha256'], code: 'invalid_sha256', message: 'bad', severity: 'error' }] : [];
  return {
    destination: name,
    inspection: { path: `/w/destinations/${name}`, status, issues, hasContent: status !== 'empty' },
    summary: { status, outputCount: 0, errorCount: issues.length, warningCount: 0, ...(publishedAt ? { published_at: publishedAt } : {}) },
  };
};

const destinations = [
  destination('docs-eu'),
  destination('docs-us'),
  destination('legacy', 'status'),
  destination('broken'),
  destination('pending-one'),
];
const scan = new Map<string, ScanEntry>([
  ['docs-eu', scanned('docs-eu', 'managed', '2026-06-01T10:00:00.000000002Z')],
  ['docs-us', scanned('docs-us', 'managed', '2026-06-01T10:00:00.000000001Z')],
  ['legacy', scanned('legacy', 'unmanaged')],
  ['broken', scanned('broken', 'invalid', 'not a time')],
]);
const verify = new Map<string, VerifyEntry>([
  [
    'docs-us',
    {
      destination: 'docs-us',
      report: { status: 'drifted', outputs: [], extra: [] },
      stamp: { verifiedAt: '2026-12-04T05:00:00.000Z', basis: {} },
    },
  ],
]);
const rows = buildRows('/w', destinations, scan, verify);

describe('the destination list', () => {
  it('keeps every destination, showing those not yet scanned as pending', () => {
    expect(rows.map((row) => row.status)).toEqual(['managed', 'managed', 'unmanaged', 'invalid', undefined]);
    expect(countStatuses(rows)).toEqual({ managed: 2, unmanaged: 1, empty: 0, invalid: 1, pending: 1 });
    expect(rows[1]!.verify).toBe('drifted');
    expect(rows[0]!.verify).toBe('unverified');
    expect(rows[3]!.errorCount).toBe(1);
    expect(rows[0]!.relativePath).toBe('destinations/docs-eu');
  });

  it('ORs the status chips and ANDs the search terms over id, pipeline id and path', () => {
    const names = (filtered: typeof rows) => filtered.map((row) => row.name);
    expect(names(filterRows(rows, { statuses: new Set(['unmanaged', 'invalid']), query: '' }))).toEqual(['legacy', 'broken']);
    expect(names(filterRows(rows, { statuses: new Set(), query: 'STATUS' }))).toEqual(['legacy']);
    expect(names(filterRows(rows, { statuses: new Set(), query: 'docs handbook' }))).toEqual(['docs-eu', 'docs-us']);
    expect(names(filterRows(rows, { statuses: new Set(), query: 'destinations/broken' }))).toEqual(['broken']);
    expect(names(filterRows(rows, { statuses: new Set(['managed']), query: 'us' }))).toEqual(['docs-us']);
    expect(filterRows(rows, { statuses: new Set(), query: '  ' })).toHaveLength(5);
  });

  it('sorts by published time as instants at full precision, newest first, timeless rows last', () => {
    expect(sortRows(rows, 'published').map((row) => row.name)).toEqual(['docs-eu', 'docs-us', 'broken', 'legacy', 'pending-one']);
  });

  it('sorts by status with the destinations that need attention first', () => {
    expect(sortRows(rows, 'status').map((row) => row.name)).toEqual(['broken', 'legacy', 'docs-us', 'docs-eu', 'pending-one']);
    expect(sortRows(rows, 'id').map((row) => row.name)).toEqual(['broken', 'docs-eu', 'docs-us', 'legacy', 'pending-one']);
  });

  it('filters 10,000 rows well within a frame budget', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => destination(`site-${i}`));
    const manyScan = new Map(many.map((d, i) => [d.id, scanned(d.id, i % 7 === 0 ? 'invalid' : 'managed', '2026-06-01T10:00:00Z')]));
    const built = buildRows('/w', many, manyScan, new Map());
    const started = performance.now();
    const filtered = sortRows(filterRows(built, { statuses: new Set(['invalid']), query: 'site-1' }), 'status');
    expect(performance.now() - started).toBeLessThan(100);
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((row) => row.status === 'invalid' && row.name.includes('site-1'))).toBe(true);
  });
});
