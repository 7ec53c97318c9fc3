// The sync axis through the Session, on the demo: every row carries Compare's decision against its
// configured source without opening Compare, and a source bundle changed on disk decides it again.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, EventOf, ScanEntry } from '../../shared/api';
import { makeDemoFixture } from '../testing/demoFixture';
import { callOk, jobEnd, jobItems } from '../testing/sessionCalls';
import { Session } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function openDemo(liveRefresh: boolean | { debounceMs: number; maxWaitMs: number } = false) {
  const demo = await makeDemoFixture('session-sync-');
  const session = new Session({ transport: 'http', progressIntervalMs: 0, liveRefresh });
  const events: ApiEvent[] = [];
  session.onEvent((event) => events.push(event));
  cleanups.push(async () => {
    await session.close();
    await demo.remove();
  });
  await callOk(session, 'openWorkspace', { path: demo.workspaceFile });
  return { demo, session, events };
}

async function scanned(session: Session, events: ApiEvent[]): Promise<Map<string, ScanEntry>> {
  const { job } = await callOk(session, 'scan', {});
  await jobEnd(session, job, events);
  const entries = new Map<string, ScanEntry>();
  for (const entry of jobItems(events, job) as ScanEntry[]) entries.set(entry.destination, entry);
  return entries;
}

describe('the sync axis', () => {
  it('gives every scanned destination Compare’s decision against its configured source, with the reason of a conflict', async () => {
    const { session, events } = await openDemo();
    const entries = await scanned(session, events);
    const sync = (id: string) => entries.get(id)?.sync;
    expect(sync('docs-eu')).toMatchObject({ kind: 'up_to_date', decision: 'skip', title: 'Up to date' });
    expect(sync('docs-us')).toMatchObject({ kind: 'publish_waiting', decision: 'replace', title: 'Replace' });
    expect(sync('docs-apac')).toMatchObject({ kind: 'destination_newer', decision: 'skip_newer' });
    expect(sync('docs-mirror')).toMatchObject({ kind: 'conflict', reason: 'identity_mismatch' });
    expect(sync('docs-rebuilt')).toMatchObject({ kind: 'conflict', reason: 'digest_mismatch', title: 'Conflict: digest mismatch' });
    expect(sync('docs-edited')).toMatchObject({ kind: 'conflict', reason: 'manifest_mismatch' });
    expect(sync('broken-json')).toMatchObject({ kind: 'conflict', reason: 'invalid_state' });
    expect(sync('legacy-site')).toMatchObject({ kind: 'unmanaged', decision: 'unmanaged' });
    expect(sync('status-new')).toMatchObject({ kind: 'publish_waiting', decision: 'publish' });
    expect(sync('status-missing')).toMatchObject({ kind: 'publish_waiting', decision: 'publish' });
    // The same decision Compare makes, for every destination that has a source.
    for (const [id, entry] of entries) {
      const compared = await session.call('compare', { destination: id });
      if (!compared.ok) continue;
      const value = compared.value as { comparison: { decision: string; reason?: string } };
      expect([id, entry.sync?.decision, entry.sync?.reason]).toEqual([id, value.comparison.decision, value.comparison.reason]);
    }
    // A scan row carries no state: the sync read it, and let it go.
    expect(entries.get('docs-eu')?.inspection.stateJson).toBeUndefined();
  });

  it('carries the sync in an inspect’s row and the export, and says when no source is configured or it cannot be read', async () => {
    const { demo, session, events } = await openDemo();
    await scanned(session, events);
    const manifest = path.join(demo.root, 'sources', 'runbook', 'manifest.json');
    await fs.rm(manifest);
    await callOk(session, 'reloadWorkspace', {});
    await callOk(session, 'inspectDestination', { destination: 'runbook-prod' });
    const json = JSON.parse((await callOk(session, 'exportReport', { format: 'json' })).content);
    const row = json.destinations.find((each: { id: string }) => each.id === 'runbook-prod');
    expect(row.sync).toMatchObject({ kind: 'source_unreadable', title: 'Source unreadable' });
    expect(row.sync.sentence).toContain(manifest);
    const csv = (await callOk(session, 'exportReport', { format: 'csv' })).content.split('\r\n');
    const header = csv[0]!.split(',');
    const cells = csv.find((line) => line.startsWith('docs-rebuilt,'))!.split(',');
    expect(cells[header.indexOf('sync')]).toBe('conflict');
    expect(cells[header.indexOf('sync_decision')]).toBe('conflict');
    expect(cells[header.indexOf('sync_reason')]).toBe('digest_mismatch');
  });

  it('decides the sync again when a configured source bundle changes on disk, leaving the verify results as they were', async () => {
    const { demo, session, events } = await openDemo({ debounceMs: 80, maxWaitMs: 300 });
    await scanned(session, events);
    await session.sourcesWatched();
    const { job } = await callOk(session, 'verify', { destinations: ['docs-eu'] });
    await jobEnd(session, job, events);
    // The bundle docs-eu is published from, rebuilt in place with another manifest: no longer the one it holds.
    const manifestFile = path.join(demo.root, 'sources', 'handbook-2026-06', 'manifest.json');
    const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8'));
    manifest.created = '2030-01-01T00:00:00Z';
    await fs.writeFile(manifestFile, JSON.stringify(manifest));
    const deadline = Date.now() + 5000;
    let change: (EventOf<'liveRefresh'> & { kind: 'sync' }) | undefined;
    while (!change && Date.now() < deadline) {
      change = events
        .map((event) => (event.event === 'liveRefresh' && event.data.kind === 'sync' ? event.data : undefined))
        .find((data) => data?.entries.some((entry) => entry.destination === 'docs-eu'));
      if (!change) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(change?.entries.find((entry) => entry.destination === 'docs-eu')?.sync).toMatchObject({ kind: 'publish_waiting' });
    const json = JSON.parse((await callOk(session, 'exportReport', { format: 'json' })).content);
    const row = json.destinations.find((each: { id: string }) => each.id === 'docs-eu');
    expect(row.sync.kind).toBe('publish_waiting');
    expect(row.verify.freshness).toEqual({ fresh: true });
  });
});
