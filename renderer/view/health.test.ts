import { describe, expect, it } from 'vitest';
import type { DestinationEntry, ScanEntry, VerifyEntry } from '../../shared/api';
import type { DestinationStatus } from '../../shared/inspection';
import type { SyncKind } from '../../shared/syncStatus';
import { buildRows, countStatuses, filterRows, sortRows } from './destinationRows';
import { countHealth, healthSummary } from './health';

const destination = (id: string): DestinationEntry => ({ id, path: `/w/${id}`, replacePolicy: 'allow' });
function scanned(id: string, status: DestinationStatus, warnings = 0, interrupted = false): ScanEntry {
  return {
    destination: id,
    inspection: {
      path: `/w/${id}`,
      status,
      issues: interrupted ? [{ path: [], code: 'interrupted_replace', message: 'staging left', severity: 'warning' }] : [],
      hasContent: status !== 'empty',
    },
    summary: { status, outputCount: 1, errorCount: status === 'invalid' ? 1 : 0, warningCount: warnings },
  };
}
const verified = (id: string, status: 'intact' | 'drifted'): VerifyEntry => ({
  destination: id,
  report: { status, outputs: [], extra: [] },
  stamp: { verifiedAt: '2026-12-04T05:00:00.000Z', basis: {} },
});

const ids = ['a-intact', 'b-drifted', 'c-unverified', 'd-warned', 'e-interrupted', 'f-unmanaged', 'g-invalid', 'h-pending'];
const scan = new Map(
  [
    scanned('a-intact', 'managed'),
    scanned('b-drifted', 'managed'),
    scanned('c-unverified', 'managed'),
    scanned('d-warned', 'managed', 2),
    scanned('e-interrupted', 'managed', 1, true),
    scanned('f-unmanaged', 'unmanaged'),
    scanned('g-invalid', 'invalid', 3),
  ].map((entry) => [entry.destination, entry]),
);
const verify = new Map(
  [
    verified('a-intact', 'intact'),
    verified('b-drifted', 'drifted'),
    verified('d-warned', 'intact'),
    verified('e-interrupted', 'intact'),
  ].map((entry) => [entry.destination, entry]),
);
const rows = buildRows('/w', ids.map(destination), scan, verify);
const names = (list: { id: string }[]) => list.map((row) => row.id);
const none = new Set<never>();

describe('health at a glance', () => {
  it('counts each mark; the verify marks only on managed rows (an invalid or unmanaged one is not verifiable, not "not verified")', () => {
    expect(countHealth(rows)).toEqual({ drifted: 1, intact: 3, unverified: 1, stale: 0, interrupted: 1, warnings: 3 });
  });

  it('ORs the health chips with each other', () => {
    expect(names(filterRows(rows, { statuses: none, health: new Set(['drifted', 'interrupted']), query: '' }))).toEqual([
      'b-drifted',
      'e-interrupted',
    ]);
    expect(names(filterRows(rows, { statuses: none, health: new Set(['unverified']), query: '' }))).toEqual(['c-unverified']);
  });

  it('ANDs the health group with the status group and with the search', () => {
    const warned = new Set(['warnings'] as const);
    expect(names(filterRows(rows, { statuses: none, health: warned, query: '' }))).toEqual(['d-warned', 'e-interrupted', 'g-invalid']);
    expect(names(filterRows(rows, { statuses: new Set(['invalid']), health: warned, query: '' }))).toEqual(['g-invalid']);
    expect(names(filterRows(rows, { statuses: new Set(['managed']), health: warned, query: 'inter' }))).toEqual(['e-interrupted']);
    expect(filterRows(rows, { statuses: new Set(['unmanaged']), health: warned, query: '' })).toEqual([]);
  });

  it('sorts by health, serious first: invalid, interrupted, drifted, not verified, intact, the unverifiable, and rows still scanning last', () => {
    expect(names(sortRows(rows, 'health'))).toEqual([
      'g-invalid',
      'e-interrupted',
      'b-drifted',
      'c-unverified',
      'a-intact',
      'd-warned',
      'f-unmanaged',
      'h-pending',
    ]);
  });

  it('sorts both axes in the one order: invalid, interrupted, conflict, drifted, stale, publish waiting, not verified, intact', () => {
    const withSync = (entry: ScanEntry, kind: SyncKind): ScanEntry => ({ ...entry, sync: { kind, title: kind, sentence: kind } });
    const order = ['1-invalid', '2-interrupted', '3-conflict', '4-drifted', '5-stale', '6-publish', '7-unverified', '8-intact'];
    const entries = [
      withSync(scanned('1-invalid', 'invalid'), 'conflict'),
      withSync(scanned('2-interrupted', 'managed', 0, true), 'up_to_date'),
      withSync(scanned('3-conflict', 'managed'), 'conflict'),
      withSync(scanned('4-drifted', 'managed'), 'up_to_date'),
      withSync(scanned('5-stale', 'managed'), 'up_to_date'),
      withSync(scanned('6-publish', 'empty'), 'publish_waiting'),
      withSync(scanned('7-unverified', 'managed'), 'destination_newer'),
      withSync(scanned('8-intact', 'managed'), 'up_to_date'),
    ];
    const verifies = [
      verified('3-conflict', 'intact'),
      verified('4-drifted', 'drifted'),
      verified('5-stale', 'intact'),
      verified('8-intact', 'intact'),
    ];
    const stale = new Map([['5-stale', { fresh: false as const, reason: 'changed_on_disk' as const, since: '2026-12-04T06:00:00.000Z' }]]);
    const built = buildRows(
      '/w',
      [...order].reverse().map(destination),
      new Map(entries.map((entry) => [entry.destination, entry])),
      new Map(verifies.map((entry) => [entry.destination, entry])),
      stale,
    );
    expect(names(sortRows(built, 'health'))).toEqual(order);
  });

  it('sums up verify health for the status bar, and says nothing before any verify', () => {
    expect(healthSummary(countStatuses(rows), countHealth(rows))).toBe(
      '3 intact, 1 drifted, 1 not verified, 2 not verifiable, 1 still scanning',
    );
    const unverifiedRows = buildRows('/w', ids.map(destination), scan, new Map());
    expect(healthSummary(countStatuses(unverifiedRows), countHealth(unverifiedRows))).toBeUndefined();
  });
});
