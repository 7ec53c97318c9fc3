// @vitest-environment happy-dom
// The bulk panel over a stand-in for the preload bridge: planReplace answers per destination (planned,
// nothing to do, refused), applyPlan starts a job whose result the test releases, and every call is
// recorded, so the tests see what is asked of the engine, in which order, and what each row says.
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiResult, DestinationEntry } from '../../shared/api';
import type { ApplyResult, ReplacePlan } from '../../shared/plan';
import { initialState, store } from '../state/store';
import { installFakeBridge } from '../testing/fakeBridge';
import { samplePlan } from '../testing/samplePlan';
import { DestinationTable } from '../view/destinationTable';
import { BulkPanel } from './BulkPanel';

/** Per destination: the result its apply ends with; absent: it waits until `release` is called. */
let applyResults: Record<string, ApplyResult> = {};
const waiting: { job: string; destination: string }[] = [];

const appliedResult = (ok: boolean, code?: string): ApplyResult => ({
  ok,
  mode: 'replace',
  destinationPath: '/w/d',
  changed: ok,
  oldTouched: ok,
  stateWritten: ok,
  stagingLeft: false,
  deleted: ok ? ['.distributor.json', 'page-1.html'] : [],
  written: ok ? ['index.html'] : [],
  mutations: ok ? 5 : 0,
  durationMs: 7,
  ...(code ? { error: { code, message: `refused: ${code}` } } : {}),
});

function planFor(destination: string): ApiResult<unknown> {
  if (destination === 'docs-eu') {
    const plan: ReplacePlan = { ...samplePlan({ decision: 'skip' }), action: 'nothing', deletes: [], writes: [] };
    return { ok: true, value: { planId: 'plan-docs-eu', confirmation: 'explicit', plan } };
  }
  if (destination === 'docs-mirror')
    return { ok: true, value: { planId: 'plan-docs-mirror', confirmation: 'explicit', plan: samplePlan({ decision: 'conflict' }) } };
  if (destination === 'docs-latam')
    return { ok: false, error: { code: 'refused', message: 'a staging folder of an interrupted replace is there' } };
  return {
    ok: true,
    value: {
      planId: `plan-${destination}`,
      confirmation: 'explicit',
      plan: samplePlan({ extraDeletes: destination === 'status-new' ? 0 : 2 }),
    },
  };
}

const { calls, emit } = installFakeBridge((method, request) => {
  if (method === 'planReplace') return planFor((request as { destination: string }).destination);
  if (method === 'applyPlan') {
    const destination = (request as { planId: string }).planId.replace(/^plan-/, '');
    const job = `job-${destination}`;
    const result = applyResults[destination];
    if (result) setTimeout(() => emit('result', { job, result }), 0);
    else waiting.push({ job, destination });
    return { ok: true, value: { job } };
  }
  if (method === 'verify') {
    setTimeout(() => emit('result', { job: 'job-verify', result: { intact: 2, drifted: 1, skipped: 1 } }), 0);
    return { ok: true, value: { job: 'job-verify' } };
  }
  return undefined;
});

const entry = (id: string, source: string | null = '/w/sources/handbook-2026-06'): DestinationEntry => ({
  id,
  path: `/w/destinations/${id}`,
  ...(source ? { source } : {}),
  replacePolicy: 'allow',
});

function workspace(entries: DestinationEntry[]) {
  store.set({
    workspace: { path: '/w/distributor-inspector.json', root: '/w', destinations: entries } as never,
    destinationTable: DestinationTable.of('/w', entries),
  });
}

const rowOf = (id: string) => document.querySelector<HTMLElement>(`[data-bulk-row="${id}"]`)!;
const cell = (id: string, testId: 'bulk-plan' | 'bulk-outcome') => within(rowOf(id)).getByTestId(testId).textContent ?? '';
const applies = () => calls.filter((call) => call.method === 'applyPlan').map((call) => call.request);

beforeEach(() => store.set(initialState()));
afterEach(() => {
  cleanup();
  applyResults = {};
  waiting.length = 0;
});

describe('the bulk panel', () => {
  it('plans each destination against its configured source and says per row: planned with its counts, nothing to do, refused with the reason', async () => {
    const ids = ['docs-us', 'docs-eu', 'docs-mirror', 'docs-latam', 'adhoc'];
    workspace([...ids.slice(0, 4).map((id) => entry(id)), entry('adhoc', null)]);
    const user = userEvent.setup();
    render(<BulkPanel ids={ids} hidden={0} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('5 destinations selected');
    expect(screen.getByTestId('bulk-no-force-note').textContent).toContain('A forced replace is not offered for several destinations');
    await user.click(screen.getByRole('button', { name: 'Plan replace for 5' }));
    expect(await screen.findByTestId('bulk-plan-summary')).toHaveProperty(
      'textContent',
      'Plan: 1 planned, 1 with nothing to do, 3 refused (create 2 files, delete 3 files in all).',
    );
    // One planReplace per destination with a source, no source sent: each one's configured source.
    expect(calls.filter((call) => call.method === 'planReplace').map((call) => call.request)).toEqual(
      ids.slice(0, 4).map((destination) => ({ destination, mode: 'replace' })),
    );
    expect(cell('docs-us', 'bulk-plan')).toBe(' create 2 files, delete 3 files (the state file among them)');
    expect(cell('docs-eu', 'bulk-plan')).toContain('Nothing to do. Up to date');
    expect(cell('docs-mirror', 'bulk-plan')).toContain('Refused. Conflict');
    expect(cell('docs-latam', 'bulk-plan')).toBe('Refused. a staging folder of an interrupted replace is there');
    expect(cell('adhoc', 'bulk-plan')).toContain('configures no source for this destination');
    expect(applies()).toEqual([]);
  });

  it('confirms once in a dialog listing every destination and its counts, then applies one at a time: a refusal does not stop the next', async () => {
    const ids = ['docs-us', 'status-new', 'docs-eu'];
    workspace(ids.map((id) => entry(id)));
    applyResults = { 'docs-us': appliedResult(false, 'stale_plan'), 'status-new': appliedResult(true) };
    const user = userEvent.setup();
    render(<BulkPanel ids={ids} hidden={0} />);
    await user.click(screen.getByRole('button', { name: 'Plan replace for 3' }));
    await user.click(await screen.findByRole('button', { name: 'Review and replace 2 destinations…' }));
    const dialog = screen.getByRole('dialog', { name: 'Replace 2 destinations?' });
    expect(within(dialog).getByTestId('bulk-confirm-counts').textContent).toContain('create 4 files, delete 4 files in all');
    expect(within(dialog).getByTestId('bulk-no-force').textContent).toContain('A forced replace is not offered');
    const listed = [...dialog.querySelectorAll('[data-bulk-confirm]')].map((row) => row.textContent);
    expect(listed).toEqual([
      'docs-uscreate 2 files, delete 3 files (the state file among them)Paths',
      'status-newcreate 2 files, delete 1 file (the state file)Paths',
    ]);
    expect(within(dialog).getByTestId('bulk-confirm-left').textContent).toContain('docs-eu: nothing to do.');
    // Every path of one, a click away.
    await user.click(within(dialog).getAllByRole('button', { name: 'Paths' })[0]!);
    expect(within(dialog).getByRole('region', { name: 'Every path of docs-us' }).querySelectorAll('.plan-list li')).toHaveLength(5);
    within(dialog).getByRole('button', { name: 'Replace 2 destinations' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByTestId('bulk-outcome-summary')).toHaveProperty('textContent', 'Done: 1 replaced, 1 refused.');
    expect(applies()).toEqual([
      { planId: 'plan-docs-us', confirmed: true },
      { planId: 'plan-status-new', confirmed: true },
    ]);
    expect(cell('docs-us', 'bulk-outcome')).toBe(' Refused: The destination changed since this plan: nothing was changed; plan it again.');
    expect(cell('status-new', 'bulk-outcome')).toBe(' Replaced: deleted 2 paths, wrote 1 file in 7 ms');
    expect(cell('docs-eu', 'bulk-outcome')).toBe('');
  });

  it('has the confirm button focused, so Enter applies; Esc applies nothing', async () => {
    const ids = ['docs-us', 'status-new'];
    workspace(ids.map((id) => entry(id)));
    const user = userEvent.setup();
    render(<BulkPanel ids={ids} hidden={0} />);
    await user.click(screen.getByRole('button', { name: 'Plan replace for 2' }));
    await user.click(await screen.findByRole('button', { name: 'Review and replace 2 destinations…' }));
    expect(document.activeElement?.textContent).toBe('Replace 2 destinations');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(applies()).toEqual([]);
  });

  it('stops before the next destination on Cancel the rest, letting the one running finish', async () => {
    const ids = ['docs-us', 'status-new', 'status-missing'];
    workspace(ids.map((id) => entry(id)));
    const user = userEvent.setup();
    render(<BulkPanel ids={ids} hidden={0} />);
    await user.click(screen.getByRole('button', { name: 'Plan replace for 3' }));
    await user.click(await screen.findByRole('button', { name: 'Review and replace 3 destinations…' }));
    await user.keyboard('{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Cancel the rest' }));
    expect(screen.getByRole('button', { name: 'Stopping after this one…' })).toHaveProperty('disabled', true);
    expect(waiting.map((job) => job.destination)).toEqual(['docs-us']);
    await act(async () => emit('result', { job: waiting[0]!.job, result: appliedResult(true) }));
    expect(await screen.findByTestId('bulk-outcome-summary')).toHaveProperty('textContent', 'Done: 1 replaced, 2 not run.');
    expect(applies()).toEqual([{ planId: 'plan-docs-us', confirmed: true }]);
    expect(cell('status-new', 'bulk-outcome')).toBe('Not run. Not run: Cancel was pressed before its turn.');
  });

  it('verifies the selected destinations with one verify job and says what it found', async () => {
    const ids = ['docs-us', 'status-new'];
    workspace(ids.map((id) => entry(id)));
    store.set((state) => ({
      destinationTable: state.destinationTable.withScan(
        ids.map((id) => ({
          destination: id,
          inspection: { path: `/w/destinations/${id}`, status: 'managed', issues: [], hasContent: true, listingDigest: 'l' },
          summary: { status: 'managed', outputCount: 1, errorCount: 0, warningCount: 0 },
        })),
      ),
    }));
    const user = userEvent.setup();
    render(<BulkPanel ids={ids} hidden={0} />);
    await user.click(screen.getByRole('button', { name: 'Verify 2' }));
    expect(await screen.findByTestId('bulk-verified')).toHaveProperty(
      'textContent',
      'Verified: 2 intact, 1 drifted; 1 not verifiable destination skipped.',
    );
    expect(calls.filter((call) => call.method === 'verify').map((call) => call.request)).toEqual([{ destinations: ids }]);
  });
});
