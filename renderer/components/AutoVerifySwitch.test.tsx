// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DestinationEntry, EventOf, ScanEntry, Workspace } from '../../shared/api';
import type { AutoVerifySetting } from '../../shared/autoVerifySetting';
import { followLiveRefresh, showWorkspace } from '../state/actions';
import { initialState, store } from '../state/store';
import { StatusBar } from './StatusBar';
import { SyncAndHealth } from './SyncAndHealth';
import { installFakeBridge } from '../testing/fakeBridge';

// A bridge standing for the engine: it keeps the setting as the Session does, and records each call.
let setting: AutoVerifySetting = { enabled: true };
let refuse = false;
const { calls, emit } = installFakeBridge((method, request) => {
  if (method === 'autoVerifySetting') return { ok: true, value: setting };
  if (method === 'setAutoVerify' && refuse) return { ok: false, error: { code: 'internal', message: 'the engine went away' } };
  if (method === 'setAutoVerify') {
    if (setting.fixedBy === undefined) setting = { enabled: (request as { enabled: boolean }).enabled };
    return { ok: true, value: setting };
  }
  return undefined;
});
const send = (data: EventOf<'liveRefresh'>) => act(() => emit('liveRefresh', data));

beforeAll(() => {
  followLiveRefresh();
});
afterEach(() => {
  cleanup();
  store.set(initialState());
  setting = { enabled: true };
  refuse = false;
});

const destination = (id: string): DestinationEntry => ({ id, path: `/w/destinations/${id}`, replacePolicy: 'allow' });
const workspace = (ids: string[]): Workspace => ({
  path: '/w/distributor-inspector.json',
  kind: 'file',
  root: '/w',
  destinations: ids.map(destination),
  issues: [],
  listReadAt: '2026-12-04T06:00:00.000Z',
});
const FINGERPRINT = { stateSha256: `sha256:${'a'.repeat(64)}`, listingDigest: 'listing-1' };
const row = (id: string): ScanEntry => ({
  destination: id,
  inspection: { path: `/w/destinations/${id}`, status: 'managed', issues: [], hasContent: true, ...FINGERPRINT },
  summary: { status: 'managed', outputCount: 0, errorCount: 0, warningCount: 0 },
});

function shownAndVerified(ids: string[]): void {
  showWorkspace(workspace(ids));
  store.set((state) => ({
    destinationTable: state.destinationTable.withScan(ids.map(row)).withVerify(
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

describe('the auto-verify switch', () => {
  it('shows the engine’s setting in the status bar and turns it off and on again', async () => {
    render(<StatusBar />);
    await act(async () => showWorkspace(workspace(['a'])));
    const box = await screen.findByRole('checkbox', { name: 'auto-verify' });
    expect((box as HTMLInputElement).checked).toBe(true);
    expect(box.closest('label')?.title).toMatch(/^Auto-verify is on/);
    await act(async () => void fireEvent.click(box));
    expect(calls.filter((call) => call.method === 'setAutoVerify').map((call) => call.request)).toEqual([{ enabled: false }]);
    expect((screen.getByRole('checkbox', { name: 'auto-verify' }) as HTMLInputElement).checked).toBe(false);
    expect(store.get().autoVerify).toEqual({ enabled: false });
    await act(async () => void fireEvent.click(screen.getByRole('checkbox', { name: 'auto-verify' })));
    expect(store.get().autoVerify).toEqual({ enabled: true });
  });

  it('goes back, and says so, when the engine does not take the change', async () => {
    refuse = true;
    render(<StatusBar />);
    await act(async () => showWorkspace(workspace(['a'])));
    const box = await screen.findByRole('checkbox', { name: 'auto-verify' });
    await act(async () => void fireEvent.click(box));
    expect((screen.getByRole('checkbox', { name: 'auto-verify' }) as HTMLInputElement).checked).toBe(true);
    expect(store.get().lastError).toMatchObject({ title: 'Auto-verify was not changed', error: { message: 'the engine went away' } });
  });

  it('is disabled, with the reason in its title, where the environment turned auto-verify off', async () => {
    setting = { enabled: false, fixedBy: 'auto-verify is off for this run: DISTRIBUTOR_INSPECTOR_AUTO_VERIFY=off' };
    render(<StatusBar />);
    await act(async () => showWorkspace(workspace(['a'])));
    const box = (await screen.findByRole('checkbox', { name: 'auto-verify' })) as HTMLInputElement;
    expect(box.disabled).toBe(true);
    expect(box.closest('label')?.title).toContain('DISTRIBUTOR_INSPECTOR_AUTO_VERIFY=off');
  });
});

describe('a destination auto-verify left stale', () => {
  it('says why in the Overview while it is stale, and no more once a verify of it arrives', () => {
    shownAndVerified(['big']);
    render(<SyncAndHealth entry={destination('big')} managed />);
    send({ kind: 'destinations', changes: [{ entry: row('big'), changedAt: '2026-12-04T06:01:00.000Z' }] });
    const reason = 'its outputs are 3.2 GiB, over the 1 GiB auto-verify limit: verify it to check';
    send({ kind: 'verified', entries: [], skipped: [{ destination: 'big', reason }] });
    expect(screen.getByTestId('overview-health').textContent).toContain('stale');
    expect(screen.getByTestId('overview-held-back').textContent).toBe(`. Not verified by itself: ${reason}.`);
    expect(screen.getByTestId('overview-health').querySelector('[data-verify-mark]')?.getAttribute('title')).toContain(reason);
    send({
      kind: 'verified',
      entries: [
        {
          entry: row('big'),
          verify: {
            destination: 'big',
            report: { status: 'intact', outputs: [], extra: [] },
            stamp: {
              verifiedAt: '2026-12-04T06:02:00.000Z',
              basis: { stateSha256: FINGERPRINT.stateSha256, listing: FINGERPRINT.listingDigest },
            },
          },
        },
      ],
      skipped: [],
    });
    expect(screen.queryByTestId('overview-held-back')).toBeNull();
    expect(store.get().autoVerifySkipped?.has('big')).toBe(false);
  });
});
