// A host's watch as the client Session follows it (issue 24, hostWatch.ts), through the stand-in host
// (a real agent Session here, on real folders): an output edited two folders down on the host turns
// its verify stale (changed_on_host) and, with auto-verify on, drifted, as the same liveRefresh events
// a local change makes; a reconnect turns every result of the host stale (host_unwatched) until
// verified again; ids the host never listed are never read.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, EventOf } from '../../shared/api';
import { hostStandIn } from '../testing/hostStandIn';
import { callOk } from '../testing/sessionCalls';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { MAX_CHANGES_PER_EVENT } from '../../shared/hostWatch';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

type LiveRefresh = EventOf<'liveRefresh'>;

async function watchedHost(autoVerify: boolean) {
  const cacheDir = await makeTempDir('host-watch-cache-');
  cleanups.push(() => removeTempDir(cacheDir));
  const standIn = await hostStandIn(cleanups, () => [], {
    client: { liveRefresh: { debounceMs: 50, maxWaitMs: 200 }, statCacheFile: false },
    agent: { changeFeed: { debounceMs: 50, maxWaitMs: 200 }, statCacheFile: path.join(cacheDir, 'cache.json') },
  });
  const { session, agent, events, ended } = standIn;
  await callOk(session, 'setAutoVerify', { enabled: autoVerify });
  // The client subscribed as the host connected; this answers once that watch is in place.
  expect(await callOk(agent, 'watchDestinations', {})).toMatchObject({ complete: true });
  // As the page does: the host's rows read when it connects, then verified.
  for (const method of ['scan', 'verify'] as const) {
    const { job } = await callOk(session, method, { destinations: ['web-1:archive'] });
    expect((await ended(job)).event).toBe('result');
  }
  /** The next liveRefresh event (after `from`) that `matches`. */
  const next = (matches: (event: LiveRefresh) => boolean, from = events.length) =>
    new Promise<LiveRefresh>((resolve) => {
      const seen = events
        .slice(from)
        .find((event): event is ApiEvent & { event: 'liveRefresh' } => event.event === 'liveRefresh' && matches(event.data));
      if (seen) return resolve(seen.data);
      const off = session.onEvent((event) => {
        if (event.event === 'liveRefresh' && matches(event.data)) {
          off();
          resolve(event.data);
        }
      });
    });
  const staleBy = (reason: string) => (event: LiveRefresh) =>
    event.kind === 'destinations' &&
    event.changes.some((change) => change.entry.destination === 'web-1:archive' && change.reason === reason);
  const verified = (event: LiveRefresh) =>
    event.kind === 'verified' && event.entries.some((read) => read.entry.destination === 'web-1:archive');
  const exported = async () =>
    JSON.parse((await callOk(session, 'exportReport', { format: 'json' })).content) as {
      destinations: { id: string; verify?: { health: string; freshness?: { reason?: string } } }[];
    };
  const verifyOf = async () => (await exported()).destinations.find((row) => row.id === 'web-1:archive')?.verify;
  return { ...standIn, next, staleBy, verified, verifyOf };
}

describe("a host's destinations watched by its agent", () => {
  it('turns a verify stale, changed on host, when an output two folders down is edited there, with auto-verify off', async () => {
    const { fixture, next, staleBy, verifyOf, events } = await watchedHost(false);
    expect(await verifyOf()).toMatchObject({ health: 'intact' });
    await fs.appendFile(path.join(fixture.dest, 'pages', 'deep', 'b.txt'), 'edited on the host\n');
    const event = await next(staleBy('changed_on_host'));
    expect(event.kind === 'destinations' && event.changes[0]!.entry.destination).toBe('web-1:archive');
    expect(await verifyOf()).toMatchObject({ health: 'stale', freshness: { reason: 'changed_on_host' } });
    expect(events.some((e) => e.event === 'liveRefresh' && e.data.kind === 'verified')).toBe(false);
  });

  it('verifies it again through the agent with auto-verify on: stale, then drifted', async () => {
    const { fixture, next, staleBy, verified, verifyOf, events } = await watchedHost(true);
    const from = events.length;
    await fs.appendFile(path.join(fixture.dest, 'pages', 'deep', 'b.txt'), 'edited on the host\n');
    await next(staleBy('changed_on_host'), from);
    const again = await next(verified, from);
    expect(again.kind === 'verified' && again.entries[0]!.verify?.report.status).toBe('drifted');
    expect(await verifyOf()).toMatchObject({ health: 'drifted' });
  });

  it('turns every result of a host stale when its connection is made again, until verified again', async () => {
    const { session, next, staleBy, verified, verifyOf, events } = await watchedHost(true);
    expect((await callOk(session, 'liveRefreshStatus', {})).hosts).toEqual({ watched: 2, unwatched: 0 });
    const from = events.length;
    await callOk(session, 'reconnectHost', { name: 'web-1' });
    await next(staleBy('host_unwatched'), from);
    const again = await next(verified, from);
    expect(again.kind === 'verified' && again.entries[0]!.verify?.report.status).toBe('intact');
    expect((await callOk(session, 'liveRefreshStatus', {})).hosts).toEqual({ watched: 2, unwatched: 0 });
    expect(await verifyOf()).toMatchObject({ health: 'intact' });
  });

  it('keeps a verify fresh when the agent saw the whole change before that verify began, and turns it stale when not', async () => {
    const { agent, session, next, staleBy, verifyOf, events } = await watchedHost(false);
    const held = session.workspace().verifies.get('web-1:archive')!;
    const verifiedAt = Date.parse(held.stamp.verifiedAt);
    const at = (offsetMs: number) => new Date(verifiedAt + offsetMs).toISOString();
    // As the agent reports an edit made just before the verify, after the verify's result: the agent's clock on both.
    const report = (lastEventAt: string) =>
      agent['emit']({ event: 'destinationChanges', data: { destinations: ['archive'], at: at(-50), lastEventAt, complete: true } });
    let from = events.length;
    report(at(-1));
    const kept = await next(staleBy('changed_on_host'), from);
    expect(kept.kind === 'destinations' && kept.changes[0]).toMatchObject({ changedAt: at(-50), lastEventAt: at(-1) });
    expect(await verifyOf()).toMatchObject({ health: 'intact' });
    from = events.length;
    report(at(0));
    await next(staleBy('changed_on_host'), from);
    expect(await verifyOf()).toMatchObject({ health: 'stale', freshness: { reason: 'changed_on_host' } });
  });

  it('reads again only the destinations the host listed, whatever ids its agent names', async () => {
    const { agent, sent, next, staleBy, events } = await watchedHost(false);
    const from = events.length;
    const before = sent.length;
    const ghosts = Array.from({ length: MAX_CHANGES_PER_EVENT - 1 }, (_, index) => `ghost-${index}`);
    // As a broken agent would: its Session's own event stream, with ids it never listed.
    agent['emit']({
      event: 'destinationChanges',
      data: { destinations: [...ghosts, 'archive'], at: new Date().toISOString(), complete: true },
    });
    await next(staleBy('changed_on_host'), from);
    expect(sent.slice(before)).toEqual([{ method: 'scan', request: { destinations: ['archive'] } }]);
  });
});
