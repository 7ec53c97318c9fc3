import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { methodNames, type ApiEvent, type ApiResult, type MethodName } from '../../shared/api';
import { Session } from '../service/session';
import { jobItems, okValue } from '../testing/sessionCalls';
import { makeFixtureWorkspace } from '../testing/sessionFixtures';
import { unpackScanRows } from '../../shared/scanRowsWire';
import { registerIpc, type EventTarget, type IpcRegistrar } from './ipcBinding';
import { EVENT_CHANNEL, ipcChannel } from './ipcChannels';
import { APP_START_URL } from './windowOptions';

type Listener = (event: unknown, request: unknown) => Promise<ApiResult<unknown>>;

/** Stands in for ipcMain: keeps the handlers by channel, refuses a second one as Electron does. */
function recorder() {
  const handlers = new Map<string, Listener>();
  const registrar: IpcRegistrar = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, listener as Listener);
    },
    removeHandler: (channel) => void handlers.delete(channel),
  };
  return { registrar, handlers };
}

const frame = (url: string, parent: object | null = null) => ({ senderFrame: { url, parent, isDestroyed: () => false } });

/** A window's contents that records what it is sent. */
function contents(destroyed = false) {
  const sent: { channel: string; event: ApiEvent }[] = [];
  const target: EventTarget = {
    isDestroyed: () => destroyed,
    send: (channel: string, event: ApiEvent) => void sent.push({ channel, event }),
  };
  return { target, sent };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function bound(targets: EventTarget[] = []) {
  const fixture = await makeFixtureWorkspace();
  const session = new Session({ transport: 'electron', initialWorkspace: fixture.workspace, progressIntervalMs: 0 });
  const { registrar, handlers } = recorder();
  const unbind = registerIpc(registrar, session, {}, () => targets);
  cleanups.push(async () => {
    unbind();
    await session.close();
    await fixture.remove();
  });
  const invoke = (method: MethodName, event: unknown, request: unknown = {}) => handlers.get(ipcChannel(method))!(event, request);
  return { session, handlers, unbind, invoke, workspace: fixture.workspace };
}

describe('registerIpc', () => {
  it('registers one handler per API method, on the channel the preload invokes, and removes each one again', async () => {
    const { handlers, unbind } = await bound();
    expect([...handlers.keys()].sort()).toEqual(methodNames.map(ipcChannel).sort());
    unbind();
    expect(handlers.size).toBe(0);
  });

  it("answers a call from the app's own top frame through the session", async () => {
    const { invoke } = await bound();
    expect(await invoke('appInfo', frame(APP_START_URL))).toMatchObject({ ok: true, value: { transport: 'electron' } });
  });

  it.each([
    ['another origin', frame('https://example.com/index.html')],
    ['an iframe of the app', frame(APP_START_URL, {})],
    ['a destroyed frame', { senderFrame: { url: APP_START_URL, parent: null, isDestroyed: () => true } }],
    ['no frame at all', { senderFrame: null }],
  ])('refuses a call from %s as forbidden', async (_name, event) => {
    const { invoke } = await bound();
    expect(await invoke('appInfo', event)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('forwards session events on the event channel to live windows only, and stops when unbound', async () => {
    const live = contents();
    const closed = contents(true);
    const { session, invoke, unbind } = await bound([live.target, closed.target]);
    expect(await invoke('scan', frame(APP_START_URL))).toMatchObject({ ok: true });
    // A scan's worker may take seconds to start on a loaded machine: poll's default 1 s is too short.
    await expect.poll(() => live.sent.some(({ event }) => event.event === 'result'), { timeout: 15_000 }).toBe(true);
    expect(live.sent.every(({ channel }) => channel === EVENT_CHANNEL)).toBe(true);
    expect(closed.sent).toEqual([]);

    unbind();
    const before = live.sent.length;
    const quiet = new Promise<void>((resolve) => {
      const off = session.onEvent((event) => {
        if (event.event !== 'result') return;
        off();
        resolve();
      });
    });
    expect(await session.call('scan', {})).toMatchObject({ ok: true });
    await quiet;
    expect(live.sent.length).toBe(before);
  });

  it('sends a scan’s rows to the window packed, unpacked by the page to the rows the session made', async () => {
    const live = contents();
    const { session, invoke } = await bound([live.target]);
    const recorded: ApiEvent[] = [];
    const stop = session.onEvent((event) => recorded.push(event));
    const started = await invoke('scan', frame(APP_START_URL));
    await expect.poll(() => live.sent.some(({ event }) => event.event === 'result'), { timeout: 15_000 }).toBe(true);
    stop();
    const job = (started as { value: { job: string } }).value.job;
    const batches = live.sent.map(({ event }) => event as { event: string; data: { job: string; rows?: unknown } });
    const rows = batches
      .filter(({ event, data }) => event === 'items' && data.job === job)
      .flatMap(({ data }) => okValue(unpackScanRows(data.rows)));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(jobItems(recorded, job));
  });

  it('carries live refresh to the window: a destination changed on disk arrives as a liveRefresh event', async () => {
    const window = contents();
    const { invoke, workspace } = await bound([window.target]);
    expect(await invoke('liveRefreshStatus', frame(APP_START_URL))).toMatchObject({ ok: true, value: { active: true } });
    await fs.writeFile(path.join(workspace, 'loose', 'more.txt'), 'written while watched\n');
    await expect
      .poll(() => window.sent.some(({ event }) => event.event === 'liveRefresh' && event.data.kind === 'destinations'), { timeout: 10_000 })
      .toBe(true);
  });
});
