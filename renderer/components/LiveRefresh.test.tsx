// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DestinationEntry, EventOf, ScanEntry, Workspace } from '../../shared/api';
import { LIVE_REFRESH_OFF, type LiveRefreshStatus } from '../../shared/liveRefresh';
import { applyWorkspaceReload, followLiveRefresh, showWorkspace } from '../state/actions';
import { initialState, store } from '../state/store';
import { StatusBar } from './StatusBar';
import { installFakeBridge } from '../testing/fakeBridge';

// A bridge whose events the test sends, as the engine would over IPC or SSE.
let statusAnswer: LiveRefreshStatus = LIVE_REFRESH_OFF;
const { emit } = installFakeBridge((method) => {
  if (method === 'liveRefreshStatus') return { ok: true, value: statusAnswer };
  return undefined;
});
const send = (data: EventOf<'liveRefresh'>) => act(() => emit('liveRefresh', data));

beforeAll(() => {
  followLiveRefresh();
});
afterEach(() => {
  cleanup();
  store.set(initialState());
  statusAnswer = LIVE_REFRESH_OFF;
});

const ROOT = '/w';
const destination = (id: string): DestinationEntry => ({ id, path: `/w/destinations/${id}`, replacePolicy: 'allow' });
const workspace = (ids: string[]): Workspace => ({
  path: '/w/distributor-inspector.json',
  kind: 'file',
  root: ROOT,
  destinations: ids.map(destination),
  issues: [],
  listReadAt: '2026-12-04T06:00:00.000Z',
});
const FINGERPRINT = { stateSha256: `sha256:${'a'.repeat(64)}`, listingDigest: 'listing-1' };
const row = (id: string, status: 'managed' | 'empty' | 'invalid'): ScanEntry => ({
  destination: id,
  inspection: { path: `/w/destinations/${id}`, status, issues: [], hasContent: status !== 'empty', ...FINGERPRINT },
  summary: { status, outputCount: 0, errorCount: status === 'invalid' ? 1 : 0, warningCount: 0 },
});
const watching = (watching: number, extra: Partial<LiveRefreshStatus> = {}): LiveRefreshStatus => ({
  active: true,
  watching,
  polling: 0,
  pollingReasons: [],
  pollIntervalMs: 2000,
  ...extra,
});

/** The workspace shown, scanned and verified intact, as after Verify all. */
function shownAndVerified(ids: string[]): void {
  showWorkspace(workspace(ids));
  store.set((state) => ({
    destinationTable: state.destinationTable.withScan(ids.map((id) => row(id, 'managed'))).withVerify(
      ids.map((id) => ({
        destination: id,
        report: { status: 'intact', outputs: [], extra: [] },
        stamp: {
          verifiedAt: '2026-12-04T05:00:00.000Z',
          basis: { stateSha256: FINGERPRINT.stateSha256, listing: FINGERPRINT.listingDigest },
        },
      })),
    ),
  }));
}

describe('live refresh in the page', () => {
  it('says in the status bar how many destinations are watched, as soon as the workspace is shown', async () => {
    statusAnswer = watching(12);
    render(<StatusBar />);
    await act(async () => showWorkspace(workspace(['a'])));
    expect((await screen.findByTestId('live-refresh')).textContent).toBe('watching 12 destinations');
  });

  it('says which destinations are polled and why, when watching is unavailable', async () => {
    shownAndVerified(['a']);
    render(<StatusBar />);
    send({
      kind: 'status',
      status: watching(8, { polling: 2, pollingReasons: [{ reason: 'the folder is on a network file system (nfs)', count: 2 }] }),
    });
    expect(screen.getByTestId('live-refresh').textContent).toBe(
      'watching 8 destinations; 2 checked every 2 s instead, because the folder is on a network file system (nfs)',
    );
    send({
      kind: 'status',
      status: watching(0, {
        polling: 3,
        pollIntervalMs: 30_000,
        pollingReasons: [
          { reason: 'the folder is missing', count: 2 },
          { reason: 'permission to watch is denied', count: 1 },
        ],
      }),
    });
    expect(screen.getByTestId('live-refresh').textContent).toBe(
      '3 destinations checked every 30 s (2: the folder is missing; 1: permission to watch is denied)',
    );
  });

  it('updates the row, the counts and the open views of a destination changed on disk, its verify stale, without a click', () => {
    shownAndVerified(['a', 'b']);
    render(<StatusBar />);
    expect(screen.getByTestId('status-line').textContent).toContain('2 intact');
    send({ kind: 'destinations', changes: [{ entry: row('a', 'invalid'), changedAt: '2026-12-04T06:01:00.000Z' }] });
    const table = store.get().destinationTable;
    expect(table.rows.map((r) => [r.id, r.status])).toEqual([
      ['a', 'invalid'],
      ['b', 'managed'],
    ]);
    expect(table.verifyFreshness('a')).toMatchObject({ fresh: false, reason: 'changed_on_disk' });
    expect(table.statusCounts).toMatchObject({ managed: 1, invalid: 1 });
    // The detail pane and its tabs reload a destination whose revision moved.
    expect(store.get().revisions.get('a')).toBe(1);
    expect(store.get().revisions.get('b')).toBeUndefined();
    expect(screen.getByTestId('status-line').textContent).toContain('1 intact');
  });

  it('shows a destination the workspace file gained, with its row, and drops one it lost', () => {
    shownAndVerified(['a', 'b']);
    store.set({ selectedId: 'b' });
    send({
      kind: 'workspace',
      changedAt: '2026-12-04T06:02:00.000Z',
      reload: { workspace: workspace(['a', 'c']), changes: { added: ['c'], removed: ['b'], changed: [] } },
      entries: [row('c', 'empty')],
    });
    const state = store.get();
    expect(state.workspace?.destinations.map((d) => d.id)).toEqual(['a', 'c']);
    expect(state.destinationTable.rows.map((r) => [r.id, r.status])).toEqual([
      ['a', 'managed'],
      ['c', 'empty'],
    ]);
    expect(state.selectedId).toBeUndefined();
    expect(state.lastReload?.changes).toEqual({ added: ['c'], removed: ['b'], changed: [] });
  });

  it('keeps saying what the last re-read changed when a later one (Rescan after live refresh) finds nothing new', () => {
    shownAndVerified(['a', 'b']);
    render(<StatusBar />);
    const reload = { workspace: workspace(['a', 'c']), changes: { added: ['c'], removed: ['b'], changed: [] } };
    send({ kind: 'workspace', changedAt: '2026-12-04T06:02:00.000Z', reload, entries: [row('c', 'empty')] });
    expect(screen.getByTestId('status-line').textContent).toContain('workspace read again: 1 added (c), 1 removed (b)');
    act(() => applyWorkspaceReload({ workspace: workspace(['a', 'c']), changes: { added: [], removed: [], changed: [] } }));
    expect(store.get().workspace?.destinations.map((d) => d.id)).toEqual(['a', 'c']);
    expect(screen.getByTestId('status-line').textContent).toContain('workspace read again: 1 added (c), 1 removed (b)');
  });

  it('ignores a re-read of a workspace no longer shown', () => {
    shownAndVerified(['a']);
    send({
      kind: 'workspace',
      changedAt: '2026-12-04T06:02:00.000Z',
      reload: { workspace: { ...workspace(['x']), root: '/elsewhere' }, changes: { added: ['x'], removed: ['a'], changed: [] } },
      entries: [],
    });
    expect(store.get().workspace?.destinations.map((d) => d.id)).toEqual(['a']);
  });
});
