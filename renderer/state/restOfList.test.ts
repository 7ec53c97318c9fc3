// @vitest-environment happy-dom
// The start of a large workspace (App.tsx start, listPages.ts): the rest of the list is asked for
// once the scan's first rows are in, not beside them, so its pages do not queue ahead of those rows
// on the host's one thread; a scan that shows no rows holds it back no longer than the cap.
import { describe, expect, it, vi } from 'vitest';
import { startOnce } from '../App';
import { installFakeBridge } from '../testing/fakeBridge';
import { destinationsPage, emptyScanRow as row, workspaceOf } from '../testing/sampleWorkspace';
import { afterFirstRows, REST_WAITS_FOR_FIRST_ROWS_MS } from './listPages';
import { store } from './store';

const TOTAL = 3_000;
const FIRST = 1_000;
const whole = workspaceOf(TOTAL, '2026-12-06T06:00:00.000Z');
const { calls, emit: send } = installFakeBridge((method, request) => {
  if (method === 'appInfo') {
    const first = { ...whole, destinations: whole.destinations.slice(0, FIRST) };
    return { ok: true, value: { version: '1', transport: 'electron', command: 'x', workspace: first, destinationCount: TOTAL } };
  }
  if (method === 'scan') return { ok: true, value: { job: 'job-1' } };
  if (method === 'workspaceDestinations') return destinationsPage(whole, request);
  return undefined;
});
const asked = () => calls.map((call) => call.method);

describe('the rest of a large list at the start', () => {
  it('is asked for once the first scan rows are in, then listed whole', async () => {
    void startOnce();
    await vi.waitUntil(() => store.get().workspace !== undefined && store.get().destinationTable.destinationCount === FIRST);
    // The first destinations are on screen and the scan is running: no page asked for yet.
    expect(asked()).toContain('scan');
    expect(asked()).not.toContain('workspaceDestinations');
    send('items', { job: 'job-1', method: 'scan', items: [row('site-0')] });
    await vi.waitUntil(() => store.get().destinationTable.destinationCount === TOTAL);
    expect(asked().indexOf('workspaceDestinations')).toBeGreaterThan(asked().indexOf('scan'));
    expect(store.get().destinationTable.scanEntry('site-0')).toBeDefined();
  });

  it('waits no longer than the cap for rows that do not come', async () => {
    vi.useFakeTimers();
    try {
      let waited = false;
      void afterFirstRows(new Promise<void>(() => undefined)).then(() => (waited = true));
      await vi.advanceTimersByTimeAsync(REST_WAITS_FOR_FIRST_ROWS_MS - 1);
      expect(waited).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(waited).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
