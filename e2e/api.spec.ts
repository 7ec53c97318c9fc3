// The API end to end, from inside the page: the renderer's own client (renderer/api) in Chromium,
// over the browser host's HTTP transport and event stream, against the engine and a real temp folder.
// The UI itself is tested by the renderer's specs; these hold the spine under it.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makeFixtureWorkspace, type FixtureWorkspace } from '../electron/testing/sessionFixtures';
import { expect, openWithClient, test } from './fixtures';

let fixture: FixtureWorkspace;

test.beforeEach(async () => {
  // 4 GiB, sparse: takes no disk, but hashing it takes seconds, long enough to cancel.
  fixture = await makeFixtureWorkspace({ bigOutputBytes: 4 * 1024 ** 3 });
});

test.afterEach(async () => {
  await fixture.remove();
});

test('the page client opens a workspace and lists its destinations', async ({ page, startHost, saveScreenshot }) => {
  const host = await startHost();
  const client = await openWithClient(page, host.url);
  const info = await client.invoke('appInfo', {});
  expect(info).toMatchObject({ ok: true, value: { transport: 'http' } });
  // Once a client has started, the token has left the address bar for sessionStorage: it is in no history entry or copied URL.
  await expect.poll(() => page.url()).toBe(`${host.origin}/`);

  const opened = await client.invoke('openWorkspace', { path: fixture.workspace });
  expect(opened.ok).toBe(true);
  if (!opened.ok) return;
  expect(opened.value.destinations.map((d) => d.id)).toEqual(['big', 'broken', 'empty-one', 'loose', 'site-a']);

  const scan = await client.runJob<{ counts: Record<string, number> }>('scan', {});
  expect(scan.outcome).toEqual({ ok: true, value: { counts: { total: 5, empty: 1, unmanaged: 1, managed: 2, invalid: 1 } } });
  expect(scan.itemCount).toBe(5);

  const inspected = await client.invoke('inspectDestination', { destination: 'broken' });
  expect(inspected).toMatchObject({ ok: true, value: { inspection: { status: 'invalid', stateText: '{"schema_version": "1"}\n' } } });

  await page.reload();
  await saveScreenshot(page, 'api-workspace-opened');
});

test('errors come back as data: a bad request names the field, a missing workspace says so', async ({ page, startHost }) => {
  const host = await startHost();
  const client = await openWithClient(page, host.url);
  expect(await client.invoke('scan', {})).toMatchObject({ ok: false, error: { code: 'no_workspace' } });
  const bad = await client.invoke('openWorkspace', { path: '' });
  expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('path') } });
  const missing = await client.invoke('openWorkspace', { path: path.join(fixture.workspace, 'nope') });
  expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_workspace' } });
  expect(await client.invoke('revealPath', { destination: 'site-a' })).toMatchObject({ ok: false, error: { code: 'not_available' } });
});

test('a verify job reports progress and its result', async ({ page, startHost }) => {
  const host = await startHost(fixture.workspace);
  const client = await openWithClient(page, host.url);
  const run = await client.runJob<{ intact: number; drifted: number; skipped: number }>('verify', { destinations: ['site-a', 'broken'] });
  expect(run.outcome).toEqual({ ok: true, value: { intact: 1, drifted: 0, skipped: 1 } });
  // An item a destination asked about, each its row read in the pass: site-a's with its verify, broken's alone.
  expect(run.itemCount).toBe(2);
  expect(run.progress.length).toBeGreaterThan(0);
  const last = run.progress.at(-1)!;
  expect(last).toMatchObject({ done: 2, total: 2 });
  expect(last.bytes).toBeGreaterThan(0);
});

test('a running verify can be cancelled from the page', async ({ page, startHost }) => {
  const host = await startHost(fixture.workspace);
  const client = await openWithClient(page, host.url);
  const started = Date.now();
  const run = await client.runJob('verify', { destinations: ['big'] }, { cancelOnceBytes: true });
  expect(run.outcome).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  expect(run.progress.some((p) => p.bytes > 0 && p.bytes < 4 * 1024 ** 3)).toBe(true);
  // It stopped, rather than hashing all 4 GiB: a cancelled job leaves the host free for the next one.
  expect(Date.now() - started).toBeLessThan(15_000);
  const again = await client.runJob('verify', { destinations: ['site-a'] });
  expect(again.outcome).toMatchObject({ ok: true, value: { intact: 1 } });
});

test('a forced replace from the page needs the typed destination id, then changes the disk', async ({ page, startHost }) => {
  const host = await startHost(fixture.workspace);
  const client = await openWithClient(page, host.url);
  const planned = await client.invoke('planReplace', {
    destination: 'loose',
    mode: 'force',
    source: fixture.source,
    pipelineId: 'docs',
    destinationId: 'loose',
  });
  expect(planned.ok).toBe(true);
  if (!planned.ok) return;
  expect(planned.value.confirmText).toBe('loose');
  expect(await client.invoke('applyPlan', { planId: planned.value.planId })).toMatchObject({
    ok: false,
    error: { code: 'confirmation_required' },
  });
  await fs.access(path.join(fixture.workspace, 'loose', 'notes.txt'));
  const applied = await client.runJob('applyPlan', { planId: planned.value.planId, confirm: 'loose' });
  expect(applied.outcome).toMatchObject({ ok: true, value: { ok: true, stateWritten: true } });
  await expect(fs.access(path.join(fixture.workspace, 'loose', 'notes.txt'))).rejects.toThrow();
  const state = JSON.parse(await fs.readFile(path.join(fixture.workspace, 'loose', '.distributor.json'), 'utf8'));
  expect(state).toMatchObject({ pipeline_id: 'docs', destination_id: 'loose' });
});

test('the served page runs under the CSP: an injected inline script does not run', async ({ page, startHost }) => {
  const host = await startHost();
  await page.goto(host.url);
  const violations: string[] = [];
  page.on('console', (message) => violations.push(message.text()));
  const ran = await page.evaluate(() => {
    const g = globalThis as unknown as {
      document: { createElement(tag: string): { textContent: string }; head: { append(node: unknown): void } };
      __inlineRan?: boolean;
    };
    const script = g.document.createElement('script');
    script.textContent = 'globalThis.__inlineRan = true';
    g.document.head.append(script);
    return g.__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.some((text) => /Content Security Policy/.test(text))).toBe(true);
});

test('a page opened without the token gets every call refused, as data and at once', async ({ page, startHost }) => {
  const host = await startHost(fixture.workspace);
  const client = await openWithClient(page, `${host.origin}/`);
  const started = Date.now();
  const answer = await client.invoke('appInfo', {});
  expect(answer).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  expect(Date.now() - started).toBeLessThan(2_000);
});

test('the host refuses the API to a page on another origin', async ({ page, startHost }) => {
  const host = await startHost(fixture.workspace);
  // A page the operator might have open elsewhere: it knows the port, not the token.
  await page.goto('about:blank');
  const status = await page.evaluate(async (origin) => {
    try {
      const response = await fetch(`${origin}/api/appInfo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      return response.status;
    } catch {
      return 'blocked';
    }
  }, host.origin);
  // Either the browser blocks the cross-origin call, or the host answers it with a refusal.
  expect(['blocked', 401, 403]).toContain(status);
});
