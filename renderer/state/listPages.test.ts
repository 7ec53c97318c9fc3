// @vitest-environment happy-dom
// A large list a page at a time (listPages.ts): the first page on screen with its rows, the rest
// taking its place with every scan result that came meanwhile, those of destinations not listed yet
// included; a list that changed between pages is asked for whole; another workspace is never overwritten.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Workspace } from '../../shared/api';
import { installFakeBridge } from '../testing/fakeBridge';
import { destinationsPage, emptyScanRow as row, workspaceOf as sampleWorkspace } from '../testing/sampleWorkspace';
import { nextTask, scan, showWorkspace, showWorkspaceInSlices } from './actions';
import { DESTINATION_PAGE, expectRestOfList, resultsToCarry, showRestOfList } from './listPages';
import { initialState, store } from './store';

const TOTAL = DESTINATION_PAGE * 2 + 300;
const FIRST = 1_000;
let whole: Workspace;
let pageListReadAt: string | undefined;
const { calls, emit: send } = installFakeBridge((method, request) => {
  if (method === 'scan') return { ok: true, value: { job: 'job-1' } };
  if (method === 'workspaceDestinations') return destinationsPage(whole, request, pageListReadAt ?? whole.listReadAt);
  if (method === 'appInfo') return { ok: true, value: { version: '1', transport: 'electron', command: 'x', workspace: whole } };
  return undefined;
});
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

// Ids padded so that their order is the list's.
const workspaceOf = (count: number, listReadAt?: string) =>
  sampleWorkspace(count, listReadAt, (index) => `site-${String(index).padStart(6, '0')}`);
const firstOf = (workspace: Workspace): Workspace => ({ ...workspace, destinations: workspace.destinations.slice(0, FIRST) });

afterEach(() => {
  store.set(initialState());
  pageListReadAt = undefined;
});

/** The start's order (App.tsx): scan asked, first page shown, its rows let in. */
async function startWithFirstPage(): Promise<{ first: Workspace; done: ReturnType<typeof scan> }> {
  whole = workspaceOf(TOTAL);
  const first = firstOf(whole);
  let settle: (shown: boolean) => void = () => undefined;
  const done = scan(undefined, new Promise<boolean>((resolve) => (settle = resolve)));
  await tick();
  expectRestOfList();
  expect(await showWorkspaceInSlices(first, TOTAL - FIRST)).toBe(true);
  settle(true);
  return { first, done };
}

describe('a large list a page at a time', () => {
  it('shows the first page with its rows at once, counts the rest as scanning, then shows every destination with every result', async () => {
    const { first, done } = await startWithFirstPage();
    // Results in workspace order, before the rest of the list is here: most are of destinations not listed yet.
    for (const { id } of whole.destinations.slice(0, 4000)) send('items', { job: 'job-1', method: 'scan', items: [row(id)] });
    // Applied in batches (itemBatches.ts): the first page's rows, the rest held.
    await vi.waitFor(() => expect(store.get().destinationTable.scannedCount).toBe(FIRST));
    const partial = store.get();
    expect(partial.destinationTable.destinationCount).toBe(FIRST);
    expect(partial.unlisted).toBe(TOTAL - FIRST);
    const shown = showRestOfList(first, TOTAL, nextTask);
    // More results while the pages travel and the whole list is built.
    for (const { id } of whole.destinations.slice(4000, 6000)) send('items', { job: 'job-1', method: 'scan', items: [row(id)] });
    expect(await shown).toBe(true);
    const after = store.get();
    expect(after.workspace?.destinations).toHaveLength(TOTAL);
    expect(after.destinationTable.destinationCount).toBe(TOTAL);
    expect(after.unlisted).toBe(0);
    // The results sent while the pages travelled are applied in their batches, maybe after the swap: none lost.
    await vi.waitFor(() => expect(store.get().destinationTable.scannedCount).toBe(6000));
    // Pages of DESTINATION_PAGE from where the first page ended, the last one short.
    const pages = calls.filter((call) => call.method === 'workspaceDestinations').map((call) => call.request);
    expect(pages).toEqual([
      { from: FIRST, count: DESTINATION_PAGE },
      { from: FIRST + DESTINATION_PAGE, count: DESTINATION_PAGE },
    ]);
    for (const { id } of whole.destinations.slice(6000)) send('items', { job: 'job-1', method: 'scan', items: [row(id)] });
    send('result', {
      job: 'job-1',
      method: 'scan',
      result: { counts: { total: TOTAL, empty: TOTAL, unmanaged: 0, managed: 0, invalid: 0 } },
    });
    expect((await done).ok).toBe(true);
    expect(store.get().destinationTable.scannedCount).toBe(TOTAL);
    // Nothing was lost on the way, so nothing was asked for again.
    expect(calls.filter((call) => call.method === 'scan')).toHaveLength(1);
  });

  it('asks for the whole list at once when it was read again between pages', async () => {
    const { first } = await startWithFirstPage();
    pageListReadAt = '2026-12-04T06:00:05.000Z';
    expect(await showRestOfList(first, TOTAL, nextTask)).toBe(true);
    expect(calls.filter((call) => call.method === 'appInfo')).toEqual([{ method: 'appInfo', request: {} }]);
    expect(store.get().destinationTable.destinationCount).toBe(TOTAL);
  });

  it('leaves alone another workspace shown while the pages travelled', async () => {
    const { first } = await startWithFirstPage();
    const shown = showRestOfList(first, TOTAL, nextTask);
    const other = { ...workspaceOf(3), path: '/other' };
    showWorkspace(other);
    expect(await shown).toBe(false);
    expect(store.get().workspace).toBe(other);
    expect(store.get().destinationTable.destinationCount).toBe(3);
    expect(store.get().unlisted).toBe(0);
  });
});

describe('resultsToCarry', () => {
  it('takes the held and the waiting results not applied yet, a newer result of an applied destination included', () => {
    const [a, b, c] = [row('a'), row('b'), row('c')];
    const newerA = row('a');
    expect(resultsToCarry([a, b], [c, newerA], new Set([a, c]))).toEqual([b, newerA]);
    expect(resultsToCarry([a], [], new Set([a]))).toEqual([]);
  });
});
