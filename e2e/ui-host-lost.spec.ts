// A dead host is noticed (issue 12, point 5), in the real renderer against the real host, which the
// spec really kills (SIGKILL, as a crash or the OOM killer would) in the middle of a replace: within
// 2 s the page says the connection is lost and what to do, the replace reads "outcome unknown:
// re-inspect" instead of a frozen bar with Cancel, and when a host is back on the same port with the
// same token (--token-file) the page reconnects by itself and reads the workspace again.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, ROOT, test, type RunningHost } from './fixtures';
import { confirmNormalReplace, openDestination, openTab, waitForScan } from './uiHelpers';

/**
 * Waits until the page has tried the dead host's event stream `count` more times and failed (it
 * tries again every second while the host is lost, at once on Reconnect): what the page shows after
 * that is what it settled on, not what it showed before its next try.
 */
async function failedStreamTries(page: Page, count: number): Promise<void> {
  for (let tries = 0; tries < count; tries++)
    await page.waitForEvent('requestfailed', { predicate: (request) => request.url().includes('/api/events'), timeout: 10_000 });
}

/**
 * Adds 5,000 small files to docs-us's source: each is checked, staged and moved in its turn, so the
 * replace runs for a while (seconds even on an idle machine), time to kill the host in the middle.
 * 600 were enough until the staged files were flushed with one syncfs: then a replace could end
 * before the kill.
 */
async function slowSource(demoWorkspace: string): Promise<void> {
  const source = path.join(path.dirname(demoWorkspace), 'sources', 'handbook-2026-06');
  const manifestFile = path.join(source, 'manifest.json');
  const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as { files: object[] };
  await fs.mkdir(path.join(source, 'archive'), { recursive: true });
  for (let index = 0; index < 5000; index += 1) {
    const text = `archived page ${index}\n`;
    await fs.writeFile(path.join(source, 'archive', `page-${index}.txt`), text);
    manifest.files.push({ path: `archive/page-${index}.txt`, sha256: sha256(text), size: Buffer.byteLength(text) });
  }
  await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
}

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

async function killed(host: RunningHost): Promise<number> {
  const exited = new Promise<void>((resolve) => host.child.once('exit', () => resolve()));
  host.child.kill('SIGKILL');
  await exited;
  return Date.now();
}

test('killing the host mid-replace is noticed within 2 s, the replace is marked outcome unknown, and a host back on the same port is re-inspected', async ({
  page,
  startHost,
  demoWorkspace,
  tempDir,
  saveScreenshot,
}) => {
  await slowSource(demoWorkspace);
  const dest = path.join(path.dirname(demoWorkspace), 'destinations', 'docs-us');
  const tokenFile = path.join(tempDir, 'token');
  const host = await startHost(demoWorkspace, { args: ['--token-file', tokenFile] });
  await page.goto(host.url);
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan replace' }).click();
  await confirmNormalReplace(page);

  const job = page.locator('.tab-panel').getByTestId('job-applyPlan');
  await expect(job.getByRole('button', { name: /^Cancel/ })).toBeEnabled({ timeout: 10_000 });
  const killedAt = await killed(host);

  const banner = page.getByRole('alert').filter({ hasText: 'Connection to the inspector lost' });
  await expect(banner).toBeVisible({ timeout: 2000 });
  const noticedMs = Date.now() - killedAt;
  test.info().annotations.push({ type: 'noticed', description: `the banner showed ${noticedMs} ms after SIGKILL` });
  expect(noticedMs).toBeLessThan(2000);
  await expect(banner.getByTestId('connection-lost')).toContainText(`No answer from the inspector at ${host.origin}`);
  await expect(banner.getByTestId('connection-lost')).toContainText(`--port ${host.port} --token-file`);
  await expect(banner.getByRole('button', { name: 'Reconnect' })).toBeVisible();
  // In the tab and in the status bar: outcome unknown, no bar, no Cancel, no percent.
  await expect(page.getByRole('alert').filter({ hasText: 'Replace: outcome unknown: re-inspect' })).toBeVisible();
  await expect(job).toHaveCount(0);
  const statusBar = page.getByRole('contentinfo', { name: 'Status' });
  const row = statusBar.getByTestId('job-applyPlan');
  await expect(row).toContainText('Replace docs-us');
  await expect(row).toContainText('outcome unknown: re-inspect');
  await expect(statusBar.getByRole('button', { name: /^Cancel/ })).toHaveCount(0);
  await expect(statusBar.getByRole('progressbar')).toHaveCount(0);
  await expect(statusBar).not.toContainText('%');
  await saveScreenshot(page, 'ui-host-lost');

  // Still said so after the page tried the host twice more: nothing goes back to looking as if it ran.
  await failedStreamTries(page, 2);
  await expect(banner).toBeVisible();
  await expect(row).toContainText('outcome unknown: re-inspect');

  // The host comes back on the same port with the same token: the page reconnects by itself and reads everything again.
  await startHost(demoWorkspace, { port: host.port, args: ['--token-file', tokenFile] });
  await expect(banner).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByTestId('connection-back')).toContainText('A restarted inspector answered', { timeout: 10_000 });
  await expect(page.getByTestId('connection-back')).toContainText('the workspace was read again');
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('apply-outcome-unknown')).toContainText('read again when the inspector answered');
  await waitForScan(page);
  // The row says what the disk says now (the CLI reads it on its own): whatever the kill left.
  const onDisk = JSON.parse(
    // Exit 1 for findings (an interrupted replace) is still a document. A replace that finished before
    // the kill leaves a state of 5,000 outputs: its JSON is past spawnSync's 1 MiB default buffer.
    spawnSync(process.execPath, [path.join(ROOT, 'bin', 'distributor-inspector.js'), 'inspect', dest, '--json'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }).stdout,
  ) as { status: string };
  await expect(page.getByRole('option', { name: /^docs-us\b/ })).toContainText(onDisk.status);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('docs-us');
});

test('a host that does not come back: the banner says what to do, and Reconnect tries again', async ({
  page,
  startHost,
  demoWorkspace,
}) => {
  const host = await startHost(demoWorkspace);
  await page.goto(host.url);
  await waitForScan(page);
  await killed(host);
  const banner = page.getByRole('alert').filter({ hasText: 'Connection to the inspector lost' });
  await expect(banner).toBeVisible({ timeout: 2000 });
  const tried = failedStreamTries(page, 1);
  await banner.getByRole('button', { name: 'Reconnect' }).click();
  await tried;
  await expect(banner).toBeVisible();
  await expect(banner.getByTestId('connection-lost')).toContainText('start it again on the same port');

  // Started again without the token file: a new token, which this tab does not have; said so.
  await startHost(demoWorkspace, { port: host.port });
  await expect(banner.getByTestId('connection-refused')).toContainText('not to this tab’s token', { timeout: 10_000 });
});
