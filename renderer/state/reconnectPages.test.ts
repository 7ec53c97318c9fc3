// @vitest-environment happy-dom
// A reconnection reads a large list as the start does (connectionActions.ts reinspect, pagedList.ts):
// appInfo's first destinations, then the rest a page at a time, never the whole list in one answer;
// the selection is kept, also one the first page does not list; every destination is scanned again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeBridge } from '../testing/fakeBridge';
import { destinationsPage, emptyScanRow as row, workspaceOf } from '../testing/sampleWorkspace';
import { reinspect } from './connectionActions';
import { DestinationTable } from '../view/destinationTable';
import { FIRST_DESTINATIONS } from './listPages';
import { selectOneDestination } from './selectionActions';
import { initialState, store } from './store';

const TOTAL = FIRST_DESTINATIONS + 3_000;
const whole = workspaceOf(TOTAL, '2026-12-06T06:00:00.000Z', (index) => `site-${String(index).padStart(6, '0')}`);
let jobs = 0;
const { calls, emit: send } = installFakeBridge((method, request) => {
  if (method === 'appInfo') {
    const { firstDestinations } = request as { firstDestinations?: number };
    const destinations = firstDestinations === undefined ? whole.destinations : whole.destinations.slice(0, firstDestinations);
    return {
      ok: true,
      value: { version: '1', transport: 'electron', command: 'x', workspace: { ...whole, destinations }, destinationCount: TOTAL },
    };
  }
  // The scan's second pass (the rows an event stream lost) is not this test's: refused at once.
  if (method === 'scan' && (request as { destinations?: string[] }).destinations)
    return { ok: false, error: { code: 'refused', message: 'not here' } };
  if (method === 'scan') return { ok: true, value: { job: `job-${++jobs}` } };
  if (method === 'workspaceDestinations') return destinationsPage(whole, request);
  return undefined;
});

afterEach(() => {
  store.set(initialState());
});

/** The page as it was before the link was lost: the whole list shown, one row selected. */
function shownBefore(selected: string): void {
  store.set({ workspace: whole, destinationTable: DestinationTable.of(whole.root, whole.destinations) });
  selectOneDestination(selected);
}

describe('reading a large list again after a reconnection', () => {
  it('asks for the first destinations and the rest in pages, never for the whole list at once, and scans them all', async () => {
    shownBefore('site-000001');
    const done = reinspect(true);
    await vi.waitUntil(() => calls.some((call) => call.method === 'scan'));
    const job = `job-${jobs}`;
    await vi.waitUntil(() => store.get().reconnected?.reinspecting === false);
    expect(store.get().destinationTable.destinationCount).toBe(FIRST_DESTINATIONS);
    send('items', { job, method: 'scan', items: [row('site-000001')] });
    // A row of a destination the first page does not list, sent before its page is in: held, not lost.
    send('items', { job, method: 'scan', items: [row(`site-${String(TOTAL - 1).padStart(6, '0')}`)] });
    await vi.waitUntil(() => store.get().destinationTable.destinationCount === TOTAL);
    send('result', { job, method: 'scan', result: { counts: { total: TOTAL, empty: 2, unmanaged: 0, managed: 0, invalid: 0 } } });
    await done;
    const infos = calls.filter((call) => call.method === 'appInfo');
    expect(infos).toEqual([{ method: 'appInfo', request: { firstDestinations: FIRST_DESTINATIONS } }]);
    expect(calls.filter((call) => call.method === 'workspaceDestinations').length).toBeGreaterThan(0);
    expect(store.get().destinationTable.scanEntry(`site-${String(TOTAL - 1).padStart(6, '0')}`)).toBeDefined();
    expect(store.get().selectedId).toBe('site-000001');
  });

  it('selects again a destination the first page does not list, once its page is in', async () => {
    const last = `site-${String(TOTAL - 1).padStart(6, '0')}`;
    shownBefore(last);
    const done = reinspect(true);
    await vi.waitUntil(() => store.get().destinationTable.destinationCount === TOTAL);
    await vi.waitUntil(() => store.get().selectedId === last);
    send('result', {
      job: `job-${jobs}`,
      method: 'scan',
      result: { counts: { total: TOTAL, empty: 0, unmanaged: 0, managed: 0, invalid: 0 } },
    });
    await done;
    expect(store.get().selectedId).toBe(last);
  });
});
