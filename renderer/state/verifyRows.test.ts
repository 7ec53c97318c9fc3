// @vitest-environment happy-dom
// Verify from the page (scanActions.ts verify): each of the job's items is a destination's row and
// its verify from one read, so the list's row takes the read's status with the report beside it; so
// does each entry of an auto-verify (liveRefreshActions.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { DestinationRead, ScanEntry } from '../../shared/api';
import { fingerprintOf } from '../../shared/verifyFreshness';
import { installFakeBridge } from '../testing/fakeBridge';
import { emptyScanRow, workspaceOf } from '../testing/sampleWorkspace';
import { applyLiveRefresh, showWorkspaceInSlices, verify } from './actions';
import { initialState, store } from './store';

const { emit: send } = installFakeBridge((method) => (method === 'verify' ? { ok: true, value: { job: 'job-1' } } : undefined));
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => store.set(initialState()));

/** site-0 as a publish left it: managed, `publishedAt`, its state's bytes named by `stateSha256`. */
function managedRow(publishedAt: string, stateSha256: string): ScanEntry {
  return {
    destination: 'site-0',
    inspection: {
      path: '/w/destinations/site-0',
      status: 'managed',
      issues: [],
      hasContent: true,
      stateSha256,
      listingDigest: 'listing-1',
    },
    summary: { status: 'managed', outputCount: 2, errorCount: 0, warningCount: 0, published_at: publishedAt },
  };
}

/** What the engine sends for a destination it read and verified in one pass. */
function readAndVerified(entry: ScanEntry): DestinationRead {
  return {
    entry,
    verify: {
      destination: entry.destination,
      report: { status: 'intact', outputs: [], extra: [] },
      stamp: { verifiedAt: '2026-12-06T18:00:01.000Z', basis: fingerprintOf(entry.inspection) },
    },
  };
}

describe('verify from the page', () => {
  it("puts each item's row in with its report: a destination published again since the scan shows the new publish, verified fresh", async () => {
    expect(await showWorkspaceInSlices(workspaceOf(2))).toBe(true);
    const before = managedRow('2026-06-04T12:00:00Z', `sha256:${'a'.repeat(64)}`);
    store.set((state) => ({ destinationTable: state.destinationTable.withScan([before, emptyScanRow('site-1')]) }));
    const again = managedRow('2026-12-06T18:00:00Z', `sha256:${'b'.repeat(64)}`);
    const done = verify();
    await tick();
    // site-1 has nothing to verify: its row comes alone, read in the same pass.
    send('items', { job: 'job-1', method: 'verify', items: [readAndVerified(again), { entry: emptyScanRow('site-1') }] });
    send('result', { job: 'job-1', method: 'verify', result: { intact: 1, drifted: 0, skipped: 1 } });
    expect((await done).ok).toBe(true);
    const table = store.get().destinationTable;
    expect(table.scanEntry('site-0')).toEqual(again);
    expect(table.row('site-0')).toMatchObject({ status: 'managed', publishedAt: '2026-12-06T18:00:00Z', verify: 'intact' });
    expect(table.verifyFreshness('site-0')).toMatchObject({ fresh: true });
    expect(table.verifyEntry('site-1')).toBeUndefined();
    // The views open on site-0 read it again; site-1 read as it was shown leaves its views alone.
    expect(store.get().revisions.get('site-0')).toBe(1);
    expect(store.get().revisions.get('site-1')).toBeUndefined();
  });

  it('turns a result held for a destination stale when the pass finds it changed and has nothing to verify there now', async () => {
    expect(await showWorkspaceInSlices(workspaceOf(1))).toBe(true);
    const before = managedRow('2026-06-04T12:00:00Z', `sha256:${'a'.repeat(64)}`);
    store.set((state) => ({ destinationTable: state.destinationTable.withScan([before]).withVerify([readAndVerified(before).verify!]) }));
    const done = verify(['site-0']);
    await tick();
    // Emptied since: the row says so, and the old report no longer passes for the disk.
    send('items', { job: 'job-1', method: 'verify', items: [{ entry: emptyScanRow('site-0') }] });
    send('result', { job: 'job-1', method: 'verify', result: { intact: 0, drifted: 0, skipped: 1 } });
    expect((await done).ok).toBe(true);
    const table = store.get().destinationTable;
    expect(table.row('site-0')?.status).toBe('empty');
    expect(table.verifyFreshness('site-0')).toMatchObject({ fresh: false });
  });

  it("puts an auto-verify's rows in with their results: the row is the one the result was taken from", async () => {
    expect(await showWorkspaceInSlices(workspaceOf(1))).toBe(true);
    const before = managedRow('2026-06-04T12:00:00Z', `sha256:${'a'.repeat(64)}`);
    store.set((state) => ({ destinationTable: state.destinationTable.withScan([before]).withVerify([readAndVerified(before).verify!]) }));
    const again = managedRow('2026-12-06T18:00:00Z', `sha256:${'b'.repeat(64)}`);
    applyLiveRefresh({ kind: 'verified', entries: [readAndVerified(again)], skipped: [] });
    const table = store.get().destinationTable;
    expect(table.row('site-0')).toMatchObject({ publishedAt: '2026-12-06T18:00:00Z', verify: 'intact' });
    expect(table.verifyFreshness('site-0')).toMatchObject({ fresh: true });
  });
});
