import { beforeEach, describe, expect, it } from 'vitest';
import type { DestinationEntry, ScanEntry, VerifyEntry } from '../../shared/api';
import { fingerprintOf } from '../../shared/verifyFreshness';
import { DestinationTable } from '../view/destinationTable';
import { bulkSelection, collapseSelection, selectAllDrifted, selectAllShown, selectDestination } from './selectionActions';
import { initialState, store } from './store';

const ids = ['docs-apac', 'docs-eu', 'docs-us', 'runbook-prod', 'status-new'];
const entry = (id: string): DestinationEntry => ({ id, path: `/w/destinations/${id}`, replacePolicy: 'allow' });
const FINGERPRINT = { listingDigest: 'l' };
const scanned = (id: string): ScanEntry => ({
  destination: id,
  inspection: { path: `/w/destinations/${id}`, status: 'managed', issues: [], hasContent: true, ...FINGERPRINT },
  summary: { status: 'managed', outputCount: 1, errorCount: 0, warningCount: 0 },
});
const verified = (id: string, status: 'intact' | 'drifted'): VerifyEntry => ({
  destination: id,
  report: { status, outputs: [], extra: [] },
  stamp: { verifiedAt: '2026-12-04T05:00:00.000Z', basis: fingerprintOf(FINGERPRINT) },
});

beforeEach(() => {
  const destinations = ids.map(entry);
  store.set({
    ...initialState(),
    workspace: { path: '/w/distributor-inspector.json', root: '/w', destinations } as never,
    destinationTable: DestinationTable.of('/w', destinations)
      .withScan(ids.map(scanned))
      .withVerify([verified('docs-us', 'drifted'), verified('runbook-prod', 'drifted'), verified('docs-eu', 'intact')]),
  });
});

const setQuery = (query: string) => store.set((state) => ({ filter: { ...state.filter, query } }));

describe('the selection in the store', () => {
  it('selects a range of the rows shown, never a row the search hides', () => {
    selectDestination('docs-apac');
    setQuery('docs');
    selectDestination('docs-us', 'range');
    expect([...store.get().selectedIds]).toEqual(['docs-apac', 'docs-eu', 'docs-us']);
    expect(bulkSelection(store.get())).toEqual({ ids: ['docs-apac', 'docs-eu', 'docs-us'], hidden: 0 });
  });

  it('selects every drifted destination, shown or not, and counts those the filter hides', () => {
    setQuery('runbook');
    selectAllDrifted();
    expect(store.get().selectedIds).toEqual(new Set(['docs-us', 'runbook-prod']));
    expect(bulkSelection(store.get())).toEqual({ ids: ['runbook-prod', 'docs-us'], hidden: 1 });
  });

  it('selects every row shown, and Escape goes back to the one last clicked', () => {
    selectDestination('status-new');
    selectAllShown();
    expect(bulkSelection(store.get()).ids).toEqual(ids);
    collapseSelection();
    expect(store.get().selectedId).toBe('status-new');
    expect(bulkSelection(store.get())).toEqual({ ids: [], hidden: 0 });
  });

  it('toggles on ctrl-click, a single selection becoming a bulk one of two', () => {
    selectDestination('docs-eu');
    selectDestination('status-new', 'toggle');
    expect(bulkSelection(store.get()).ids).toEqual(['docs-eu', 'status-new']);
    selectDestination('docs-eu', 'toggle');
    expect(bulkSelection(store.get()).ids).toEqual([]);
    expect(store.get().selectedId).toBe('status-new');
  });
});
