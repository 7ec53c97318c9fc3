// The event stream's heartbeat, end to end in Node: the host sends it, the page's own bridge
// (renderer/api/httpBridge.ts) notices when it stops, and when a host is back on the same port.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSseChunk } from '../../renderer/api/sse';
import { http, type ApiResult, type ConnectionState, type InspectorBridge } from '../../shared/api';
import { Session } from '../service/session';
import { makeFixtureWorkspace } from '../testing/sessionFixtures';
import { startHost, type Host } from './httpHost';

// The page's own modules are browser code (DOM types): loaded by path, so this Node project runs them
// without type-checking them as its own (tsconfig.web.json checks them).
const renderer = '../../renderer/api';
const { createHttpBridge } = (await import(/* @vite-ignore */ `${renderer}/httpBridge`)) as {
  createHttpBridge: (options: { baseUrl: string; token: string; heartbeatTimeoutMs: number; retryMs: number }) => InspectorBridge;
};
const { clientFromBridge } = (await import(/* @vite-ignore */ `${renderer}/client`)) as {
  clientFromBridge: (bridge: InspectorBridge, transport: 'http') => unknown;
};
const { runJob } = (await import(/* @vite-ignore */ `${renderer}/jobs`)) as {
  runJob: (
    client: unknown,
    method: 'verify',
    request: object,
    handlers: { onStart?: (job: string) => void },
  ) => Promise<ApiResult<unknown>>;
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hostOn(port: number, token: string, options: { bigOutputBytes?: number } = {}): Promise<{ host: Host; session: Session }> {
  const fixture = await makeFixtureWorkspace(options);
  const rendererDir = await fs.mkdtemp(path.join(os.tmpdir(), 'inspector-heartbeat-'));
  await fs.writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  const session = new Session({ transport: 'http', initialWorkspace: fixture.workspace, progressIntervalMs: 0 });
  const host = await startHost({ session, rendererDir, port, token, heartbeatIntervalMs: 100 });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await host.close();
    await session.close();
  };
  cleanups.push(async () => {
    await close();
    await fixture.remove();
    await fs.rm(rendererDir, { recursive: true, force: true });
  });
  return { host: { ...host, close }, session };
}

function watch(bridge: InspectorBridge) {
  const states: ConnectionState[] = [];
  bridge.onConnection!((state) => states.push(state));
  const reaches = (status: ConnectionState['status'], timeout = 3000) =>
    expect.poll(() => states.at(-1)?.status, { timeout, interval: 20 }).toBe(status);
  return { states, reaches };
}

describe('the event stream heartbeat', () => {
  it('says the connection is lost within the heartbeat timeout when the host goes, and connected when one is back on the same port', async () => {
    const first = await hostOn(0, 'token-1');
    const bridge = createHttpBridge({
      baseUrl: `http://127.0.0.1:${first.host.port}`,
      token: 'token-1',
      heartbeatTimeoutMs: 400,
      retryMs: 50,
    });
    const { states, reaches } = watch(bridge);
    await reaches('connected');
    const instance = states.at(-1)!.instance;
    expect(instance).toMatch(/\S/);

    const closedAt = Date.now();
    await first.host.close();
    await reaches('lost', 2000);
    expect(Date.now() - closedAt).toBeLessThan(2000);

    await hostOn(first.host.port, 'token-1');
    await reaches('connected', 5000);
    // Another run of the host: the page can tell it did not come back to the same one.
    expect(states.at(-1)!.instance).not.toBe(instance);
  });

  it('says refused when the host on that port answers, but not to this token', async () => {
    const first = await hostOn(0, 'token-1');
    const bridge = createHttpBridge({
      baseUrl: `http://127.0.0.1:${first.host.port}`,
      token: 'token-1',
      heartbeatTimeoutMs: 400,
      retryMs: 50,
    });
    const { reaches } = watch(bridge);
    await reaches('connected');
    await first.host.close();
    await reaches('lost');
    await hostOn(first.host.port, 'another-token');
    await reaches('refused', 5000);
  });

  it('notices a host that stops sending, with its connection still open', async () => {
    // A page that expects a heartbeat within 400 ms and hears none calls the host lost.
    const quiet = await quietHost();
    const bridge = createHttpBridge({ baseUrl: quiet.url, token: 'token-1', heartbeatTimeoutMs: 400, retryMs: 1000 });
    const { states, reaches } = watch(bridge);
    await reaches('lost', 2000);
    expect(states.map((state) => state.status)).not.toContain('connected');
  });

  it('does not call the host lost when the page itself was blocked longer than the timeout (a long task)', async () => {
    const { host } = await hostOn(0, 'token-1');
    const bridge = createHttpBridge({ baseUrl: `http://127.0.0.1:${host.port}`, token: 'token-1', heartbeatTimeoutMs: 400, retryMs: 50 });
    const { states, reaches } = watch(bridge);
    await reaches('connected');
    // The page's thread busy for three timeouts (axe, a big render on a loaded machine): the heartbeats
    // sent meanwhile are queued behind the watchdog's own late tick.
    const busyUntil = Date.now() + 1200;
    while (Date.now() < busyUntil);
    const heardAfter = states.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(states.slice(heardAfter).map((state) => state.status)).not.toContain('lost');
    expect(states.at(-1)?.status).toBe('connected');
  });

  it('ends a running job as connection_lost, outcome unknown, when the host goes mid-job', async () => {
    const { host } = await hostOn(0, 'token-1', { bigOutputBytes: 512 * 1024 * 1024 });
    const client = clientFromBridge(
      createHttpBridge({ baseUrl: `http://127.0.0.1:${host.port}`, token: 'token-1', heartbeatTimeoutMs: 400, retryMs: 50 }),
      'http',
    );
    let started = false;
    const outcome = runJob(client, 'verify', {}, { onStart: () => (started = true) });
    await expect.poll(() => started, { timeout: 5000 }).toBe(true);
    await host.close();
    const ended = await outcome;
    expect(ended).toMatchObject({ ok: false, error: { code: 'connection_lost', message: expect.stringContaining('outcome is unknown') } });
  });

  it('sends ready, then a heartbeat every interval, each naming the same run of the host', async () => {
    const { host } = await hostOn(0, 'token-1');
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${host.port}${http.eventsPath}`, {
      headers: { [http.tokenHeader]: 'token-1' },
      signal: controller.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const startedAt = Date.now();
    while (Date.now() - startedAt < 450) text += (await reader.read()).value ?? '';
    controller.abort();
    const { frames } = parseSseChunk(text);
    expect(frames[0]?.event).toBe(http.readyEvent);
    const heartbeats = frames.filter((frame) => frame.event === http.heartbeatEvent);
    expect(heartbeats.length).toBeGreaterThanOrEqual(2);
    // Other events (live refresh's watch status) share the stream; the host's run is named by these two.
    const beats = frames.filter((frame) => frame.event === http.readyEvent || frame.event === http.heartbeatEvent);
    const instances = new Set(beats.map((frame) => (JSON.parse(frame.data) as { instance: string }).instance));
    expect(instances.size).toBe(1);
    // The defaults leave room for two missed beats before a page calls the host lost.
    expect(http.heartbeatIntervalMs * 2).toBeLessThan(http.heartbeatTimeoutMs);
  });
});

/** A server that accepts the event stream, sends its headers and then nothing: a hung host. */
async function quietHost(): Promise<{ url: string }> {
  const { createServer } = await import('node:http');
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.flushHeaders();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}` };
}
