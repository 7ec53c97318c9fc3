import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSseChunk, type SseFrame } from '../../renderer/api/sse';
import { methodNames, type ApiEvent } from '../../shared/api';
import { unpackScanRows } from '../../shared/scanRowsWire';
import { Session } from '../service/session';
import { jobItems, okValue } from '../testing/sessionCalls';
import { makeFixtureWorkspace, type FixtureWorkspace } from '../testing/sessionFixtures';
import { BROWSER_HOST_CSP } from '../web/csp';
import { startHost, type Host } from './httpHost';

let host: Host;
let session: Session;
let fixture: FixtureWorkspace;
let rendererDir: string;

beforeAll(async () => {
  fixture = await makeFixtureWorkspace();
  rendererDir = await fs.mkdtemp(path.join(os.tmpdir(), 'inspector-renderer-'));
  await fs.mkdir(path.join(rendererDir, 'assets'));
  await fs.writeFile(
    path.join(rendererDir, 'index.html'),
    '<!doctype html><title>t</title><script type="module" src="/assets/app.js"></script>',
  );
  await fs.writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1);');
  await fs.writeFile(path.join(rendererDir, '.secret'), 'no');
  session = new Session({ transport: 'http', initialWorkspace: fixture.workspace, progressIntervalMs: 0 });
  host = await startHost({ session, rendererDir, port: 0, token: 'test-token' });
});

afterAll(async () => {
  await host.close();
  await session.close();
  await fixture.remove();
  await fs.rm(rendererDir, { recursive: true, force: true });
});

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function call(options: { method?: string; path: string; headers?: Record<string, string>; body?: string; host?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: host.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: options.host ?? `127.0.0.1:${host.port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const api = (method: string, body: unknown, headers: Record<string, string> = {}) =>
  call({
    method: 'POST',
    path: `/api/${method}`,
    headers: { 'content-type': 'application/json', 'x-inspector-token': 'test-token', ...headers },
    body: JSON.stringify(body),
  });

describe('the browser host', () => {
  it('listens on 127.0.0.1 only', async () => {
    expect(host.server.address()).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=test-token`);
  });

  // Only where this machine has another address; vitest reports the test as skipped elsewhere.
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal);
  it.runIf(external)("answers nothing on the machine's other address", async () => {
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect({ host: external!.address, port: host.port });
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(outcome).toBe('ECONNREFUSED');
  });

  it('answers an API call without the token, or with a wrong one, with 401', async () => {
    const none = await call({ method: 'POST', path: '/api/appInfo', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect((await api('appInfo', {}, { 'x-inspector-token': 'test-tokeN' })).status).toBe(401);
    expect((await call({ path: '/api/events' })).status).toBe(401);
  });

  it('refuses a foreign Host header with 403, for pages and the API (DNS rebinding)', async () => {
    expect((await call({ path: '/', host: `evil.example:${host.port}` })).status).toBe(403);
    expect((await api('appInfo', {}, { host: `evil.example:${host.port}` })).status).toBe(403);
    expect((await call({ path: '/', host: '127.0.0.1:1' })).status).toBe(403);
    expect((await call({ path: '/', host: `localhost:${host.port}` })).status).toBe(200);
  });

  it('refuses cross-origin API requests even with the token', async () => {
    expect((await api('appInfo', {}, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await api('appInfo', {}, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await api('appInfo', {}, { origin: `http://127.0.0.1:${host.port}`, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    // A plain form post cannot send JSON: text/plain is refused.
    expect((await api('appInfo', {}, { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('answers 404 for paths outside the API and the built files', async () => {
    for (const target of [
      '/nope',
      '/../package.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/.secret',
      '/assets/../../etc/passwd',
      '/api/nope',
      '/api',
    ]) {
      expect((await call({ path: target, headers: { 'x-inspector-token': 'test-token' } })).status, target).toBe(404);
    }
  });

  it('serves the page and its assets with the CSP header', async () => {
    const page = await call({ path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(BROWSER_HOST_CSP);
    expect(BROWSER_HOST_CSP.startsWith("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:")).toBe(true);
    const script = await call({ path: '/assets/app.js' });
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toBe('console.log(1);');
  });

  it('answers a bad body with 400 naming the field', async () => {
    const typo = await api('inspectDestination', { destinaton: 'site-a' });
    expect(typo.status).toBe(400);
    const { error } = JSON.parse(typo.body);
    expect(error.code).toBe('bad_request');
    expect(error.message).toContain('destination');
    expect(error.details.issues.map((issue: { path: unknown[] }) => issue.path)).toEqual(
      expect.arrayContaining([['destination'], ['destinaton']]),
    );
    const notJson = await call({
      method: 'POST',
      path: '/api/scan',
      headers: { 'content-type': 'application/json', 'x-inspector-token': 'test-token' },
      body: '{"a":',
    });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.message).toMatch(/not valid JSON/);
  });

  it('answers any JSON body to any method with a typed result, never a 500', async () => {
    // Not the ones that start work on valid junk (`{}` scans or verifies everything): the engine's
    // own tests cover their schemas; here the transport is under test.
    const methods = methodNames.filter((method) => !['openWorkspace', 'applyPlan', 'scan', 'verify'].includes(method));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods), fc.jsonValue(), async (method, body) => {
        const reply = await api(method, body);
        const parsed = JSON.parse(reply.body);
        expect(parsed).toEqual(
          parsed.ok === true
            ? expect.objectContaining({ ok: true })
            : { ok: false, error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) },
        );
        expect(reply.status).toBeLessThan(500 + (parsed.ok ? 0 : parsed.error.code === 'not_available' ? 2 : 0));
      }),
      { numRuns: 150 },
    );
  });

  it('runs a method with a good body and answers its value', async () => {
    const reply = await api('inspectDestination', { destination: 'site-a' });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ ok: true, value: { inspection: { status: 'managed' } } });
    expect((await api('inspectDestination', { destination: 'missing' })).status).toBe(404);
  });

  /** Opens the event stream and resolves once its ready event arrived: the frames as they come, and the way to close it. */
  async function openStream(): Promise<{ frames: SseFrame[]; close: () => void; contentType: string | undefined }> {
    const frames: SseFrame[] = [];
    const controller = new AbortController();
    let contentType: string | undefined;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/api/events',
          headers: { host: `127.0.0.1:${host.port}`, 'x-inspector-token': 'test-token' },
          signal: controller.signal,
        },
        (res) => {
          contentType = res.headers['content-type'];
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            const parsed = parseSseChunk(buffer + chunk);
            buffer = parsed.rest;
            frames.push(...parsed.frames);
            if (frames.some((f) => f.event === 'ready')) resolve();
          });
        },
      );
      req.on('error', (error) => (controller.signal.aborted ? undefined : reject(error)));
      req.end();
    });
    return { frames, close: () => controller.abort(), contentType };
  }

  it('streams a job’s events over SSE after a ready event, a scan’s rows packed and unpacked to the rows the session made', async () => {
    const { frames, close, contentType } = await openStream();
    expect(contentType).toMatch(/^text\/event-stream/);
    const recorded: ApiEvent[] = [];
    const stopRecording = session.onEvent((event) => recorded.push(event));
    const started = JSON.parse((await api('scan', {})).body);
    expect(started.ok).toBe(true);
    const job = started.value.job;
    const ofJob = () =>
      frames
        .filter((f) => f.event !== 'ready')
        .map((f) => ({ event: f.event, data: JSON.parse(f.data) }))
        .filter((f) => f.data.job === job);
    await expect.poll(() => ofJob().some((f) => f.event === 'result'), { timeout: 10_000 }).toBe(true);
    close();
    stopRecording();
    const batches = ofJob().filter((f) => f.event === 'items');
    expect(batches.every((f) => f.data.items === undefined && f.data.rows.layout === 1)).toBe(true);
    const unpacked = batches.flatMap((f) => okValue(unpackScanRows(f.data.rows)));
    expect(unpacked).toHaveLength(4);
    expect(unpacked).toEqual(jobItems(recorded, job));
    expect(ofJob().some((f) => f.event === 'progress')).toBe(true);
    expect(ofJob().at(-1)).toMatchObject({ event: 'result', data: { method: 'scan', result: { counts: { total: 4 } } } });
  });

  it('streams live refresh over SSE: a destination changed on disk arrives as a liveRefresh event with its new row', async () => {
    const { frames, close } = await openStream();
    expect(JSON.parse((await api('liveRefreshStatus', {})).body)).toMatchObject({ ok: true, value: { active: true, watching: 4 } });
    await fs.writeFile(path.join(fixture.workspace, 'loose', 'more.txt'), 'written while watched\n');
    const live = () =>
      frames
        .filter((f) => f.event === 'liveRefresh')
        .map((f) => JSON.parse(f.data) as { kind: string; changes?: { entry: { destination: string } }[] });
    await expect.poll(() => live().some((event) => event.kind === 'destinations'), { timeout: 10_000 }).toBe(true);
    close();
    expect(
      live()
        .find((event) => event.kind === 'destinations')
        ?.changes?.map((change) => change.entry.destination),
    ).toEqual(['loose']);
  });
});
