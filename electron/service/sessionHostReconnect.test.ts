// A lost host reconnects by itself (issue 28): tried again after 1 s, 2 s, 4 s … at most 60 s, its
// countdown and when it last connected in its state, "Reconnect now" at once; a host that never
// connected is not retried. Fake links and a fake clock: nothing waits.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, HostState } from '../../shared/api';
import { FakeClock } from '../testing/fakeClock';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { callOk } from '../testing/sessionCalls';
import type { HostConnector, HostLink } from './hostLink';
import { Session } from './session';

const UNREACHABLE = { code: 'host_unreachable', message: 'cannot reach web-1: Connection refused.' };

/** A host whose connections can be lost and which can be down; counts its connects. */
function fakeHost() {
  const host = { down: false, connects: 0, loseCurrent: () => {} };
  const connector: HostConnector = async () => {
    host.connects++;
    if (host.down) throw UNREACHABLE;
    let end: () => void = () => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    const link: HostLink & { lost: HostLink['lost'] } = {
      hello: { version: 'test', host: 'web-1', platform: 'linux' },
      lost: undefined,
      ended,
      call: (async () => ({ ok: true, value: { destinations: [{ id: 'docs', path: '/srv/docs', replacePolicy: 'allow' }] } })) as never,
      job: (async () => ({ ok: false, error: { code: 'internal', message: 'not in this test' } })) as never,
      close: async () => end(),
    };
    host.loseCurrent = () => {
      link.lost = { code: 'connection_lost', message: 'the connection to web-1 was lost.' };
      end();
    };
    return link;
  };
  return { host, connector };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function opened(hosts: { name: string; url: string }[], options: { down?: boolean } = {}) {
  const dir = await makeTempDir('host-reconnect-');
  const file = path.join(dir, 'distributor-inspector.json');
  await fs.writeFile(file, JSON.stringify({ hosts }));
  const clock = new FakeClock();
  const fake = fakeHost();
  fake.host.down = options.down ?? false;
  const session = new Session({ transport: 'http', connectHost: fake.connector, reconnectClock: clock, liveRefresh: false });
  const events: ApiEvent[] = [];
  session.onEvent((event) => events.push(event));
  cleanups.push(async () => {
    await session.close();
    await removeTempDir(dir);
  });
  await callOk(session, 'openWorkspace', { path: file });
  const state = async (name = 'web-1'): Promise<HostState> =>
    (await callOk(session, 'hosts', {})).hosts.find((host) => host.name === name)!;
  /** Lets the connects and their events settle (no time passes on the fake clock). */
  const settle = async () => {
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
  };
  await settle();
  return { session, clock, events, state, settle, ...fake };
}

describe('a lost host reconnects by itself', () => {
  it('waits 1 s, 2 s, 4 s … up to 60 s between tries while it is down, says when it last connected and when it tries next, and connects when it is back', async () => {
    const { host, clock, state, settle, events } = await opened([{ name: 'web-1', url: 'ssh://web-1/srv' }]);
    const first = await state();
    expect(first).toMatchObject({ state: 'connected', lastConnected: first.since });
    host.down = true;
    host.loseCurrent();
    await settle();
    const lost = await state();
    expect(lost).toMatchObject({ state: 'lost', lastConnected: first.since, retries: 0, failure: { code: 'connection_lost' } });
    expect(Date.parse(lost.retryAt!) - clock.now()).toBe(1000);
    const waits: number[] = [];
    for (let tries = 0; tries < 9; tries++) {
      const wait = Date.parse((await state()).retryAt!) - clock.now();
      waits.push(wait);
      clock.advance(wait - 1);
      await settle();
      expect(host.connects).toBe(1 + tries);
      clock.advance(1);
      await settle();
      expect(host.connects).toBe(2 + tries);
      // A try that failed leaves it lost (not "failed": its settings were right), with the try's reason.
      expect(await state()).toMatchObject({ state: 'lost', retries: tries + 1, failure: UNREACHABLE, lastConnected: first.since });
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    // The page heard each countdown in the hostState events.
    expect(events.filter((event) => event.event === 'hostState' && event.data.host.retryAt !== undefined).length).toBeGreaterThanOrEqual(
      10,
    );

    host.down = false;
    clock.advance(60_000);
    await settle();
    const back = await state();
    expect(back).toMatchObject({ state: 'connected', lastConnected: back.since });
    expect(back.retryAt).toBeUndefined();
    expect(clock.pending()).toEqual([]);
  });

  it('tries at once on Reconnect now, and keeps counting when the host is still down', async () => {
    const { session, host, clock, state, settle } = await opened([{ name: 'web-1', url: 'ssh://web-1/srv' }]);
    host.down = true;
    host.loseCurrent();
    await settle();
    clock.advance(1000);
    await settle();
    expect((await state()).retries).toBe(1);
    await callOk(session, 'reconnectHost', { name: 'web-1' });
    await settle();
    expect(host.connects).toBe(3);
    expect(await state()).toMatchObject({ state: 'lost', retries: 2 });
    expect(clock.pending()).toEqual([4000]);
  });

  it('jitters each wait by up to 20 % off, never more than the step', async () => {
    const { host, clock, state, settle } = await opened([{ name: 'web-1', url: 'ssh://web-1/srv' }]);
    clock.randomValue = 0.5;
    host.down = true;
    host.loseCurrent();
    await settle();
    expect(Date.parse((await state()).retryAt!) - clock.now()).toBe(900);
  });

  it('never retries a host that has not connected yet: its settings are what is wrong', async () => {
    const { host, clock, state, settle } = await opened([{ name: 'web-1', url: 'ssh://web-1/srv' }], { down: true });
    expect(await state()).toMatchObject({ state: 'failed', failure: UNREACHABLE });
    expect((await state()).retryAt).toBeUndefined();
    expect(clock.pending()).toEqual([]);
    clock.advance(120_000);
    await settle();
    expect(host.connects).toBe(1);
  });

  it('stops trying a host removed from the workspace file', async () => {
    const { session, host, clock, settle } = await opened([{ name: 'web-1', url: 'ssh://web-1/srv' }]);
    host.down = true;
    host.loseCurrent();
    await settle();
    expect(clock.pending()).toEqual([1000]);
    await callOk(session, 'removeHost', { name: 'web-1' });
    expect(clock.pending()).toEqual([]);
    clock.advance(60_000);
    await settle();
    expect(host.connects).toBe(1);
    expect((await callOk(session, 'hosts', {})).hosts).toEqual([]);
  });
});
