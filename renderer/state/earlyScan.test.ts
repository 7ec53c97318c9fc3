// @vitest-environment happy-dom
// The start's scan, asked for beside appInfo before the list exists (App.tsx start): its rows wait
// for the list and then all go in; with no workspace shown it leaves no trace and is cancelled.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../shared/api';
import { installFakeBridge } from '../testing/fakeBridge';
import { emptyScanRow as row, workspaceOf as workspace } from '../testing/sampleWorkspace';
import { scan, showWorkspaceInSlices } from './actions';
import { initialState, store } from './store';

let answerScan: ApiResult<unknown> = { ok: true, value: { job: 'job-1' } };
const { calls, emit: send } = installFakeBridge((method) => {
  if (method === 'scan') return answerScan;
  if (method === 'cancelJob') return { ok: true, value: { cancelled: true } };
  return undefined;
});
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  store.set(initialState());
  answerScan = { ok: true, value: { job: 'job-1' } };
});

function deferred(): { promise: Promise<boolean>; settle: (value: boolean) => void } {
  let settle: (value: boolean) => void = () => undefined;
  const promise = new Promise<boolean>((resolve) => (settle = resolve));
  return { promise, settle };
}

describe('the scan asked for before the list is shown', () => {
  it('keeps every row that arrives before the list, shows its job only with the list, and puts all rows in (in slices) before it resolves', async () => {
    const shown = deferred();
    const done = scan(undefined, shown.promise);
    await tick();
    expect(calls.map((call) => call.method)).toEqual(['scan']);
    // 5,000 rows before the list exists: more than one slice.
    for (let i = 0; i < 5000; i += 1) send('items', { job: 'job-1', method: 'scan', items: [row(`site-${i}`)] });
    await tick();
    expect(store.get().jobs).toEqual([]);
    expect(await showWorkspaceInSlices(workspace(6000))).toBe(true);
    shown.settle(true);
    await tick();
    expect(store.get().jobs.map((job) => job.label)).toEqual(['Scan workspace']);
    for (let i = 5000; i < 6000; i += 1) send('items', { job: 'job-1', method: 'scan', items: [row(`site-${i}`)] });
    send('result', {
      job: 'job-1',
      method: 'scan',
      result: { counts: { total: 6000, empty: 6000, unmanaged: 0, managed: 0, invalid: 0 } },
    });
    const outcome = await done;
    expect(outcome.ok).toBe(true);
    expect(store.get().destinationTable.scannedCount).toBe(6000);
    expect(store.get().jobs).toEqual([]);
    // Nothing was missing, so nothing was asked for again.
    expect(calls.filter((call) => call.method === 'scan')).toHaveLength(1);
  });

  it('asks again, once, for the rows whose results were lost on the way', async () => {
    const shown = deferred();
    const done = scan(undefined, shown.promise);
    expect(await showWorkspaceInSlices(workspace(3))).toBe(true);
    shown.settle(true);
    await tick();
    send('items', { job: 'job-1', method: 'scan', items: [row('site-0')] });
    send('items', { job: 'job-1', method: 'scan', items: [row('site-2')] });
    const counts = { total: 3, empty: 3, unmanaged: 0, managed: 0, invalid: 0 };
    send('result', { job: 'job-1', method: 'scan', result: { counts } });
    await vi.waitUntil(() => calls.filter((call) => call.method === 'scan').length === 2);
    expect(calls.filter((call) => call.method === 'scan')[1]!.request).toEqual({ destinations: ['site-1'] });
    send('items', { job: 'job-1', method: 'scan', items: [row('site-1')] });
    send('result', { job: 'job-1', method: 'scan', result: { counts: { ...counts, total: 1, empty: 1 } } });
    expect((await done).ok).toBe(true);
    expect(store.get().destinationTable.scannedCount).toBe(3);
  });

  it('with no workspace shown after all: no job row, no error, its rows dropped and the job cancelled', async () => {
    const shown = deferred();
    const done = scan(undefined, shown.promise);
    await tick();
    send('items', { job: 'job-1', method: 'scan', items: [row('site-0')] });
    shown.settle(false);
    await tick();
    expect(calls.map((call) => call.method)).toEqual(['scan', 'cancelJob']);
    send('error', { job: 'job-1', method: 'scan', error: { code: 'cancelled', message: 'cancelled' } });
    await done;
    expect(store.get().jobs).toEqual([]);
    expect(store.get().lastError).toBeUndefined();
    expect(store.get().destinationTable.scannedCount).toBe(0);
  });

  it('refused at once (no workspace open on the engine) says nothing', async () => {
    answerScan = { ok: false, error: { code: 'no_workspace', message: 'no workspace is open' } };
    const shown = deferred();
    const done = scan(undefined, shown.promise);
    shown.settle(false);
    const outcome = await done;
    expect(outcome.ok).toBe(false);
    expect(store.get().jobs).toEqual([]);
    expect(store.get().lastError).toBeUndefined();
  });
});
