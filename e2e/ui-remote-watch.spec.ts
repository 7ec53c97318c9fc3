// A host's destinations follow its disk by themselves (issue 24), in real Chromium against the built
// browser host and a real sshd of our own (the agent from the repo's build): after Verify all, a file
// edited two folders down on the host turns its row drifted within about 2 s (auto-verify on, through
// the agent); with auto-verify off, the next edit leaves it stale with the reason "changed on host";
// `scan --verify` over ssh agrees. The sshd killed: every result of that host turns stale (nothing
// watches its disk meanwhile); back and reconnected, auto-verify verifies them again.

import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, ROOT, test } from './fixtures';
import { seriousViolations, waitForScan } from './uiHelpers';
import { writeBundle, writeManagedDestination } from '../electron/testing/fixtures';
import { sshConfigOf, sshUnavailableReason, startSshServer } from '../electron/testing/sshHarness';

const unavailable = sshUnavailableReason();
test.skip(unavailable !== undefined, `sshd cannot run here: ${unavailable}`);

test('a file edited on a host turns its row drifted by itself, or stale with "changed on host" when auto-verify is off; scan over ssh agrees; a lost host is stale until verified again', async ({
  page,
  startHost,
  tempDir,
  saveScreenshot,
}) => {
  test.setTimeout(180_000);
  const server = await startSshServer();
  // On the host: a folder of destinations, `archive` managed with outputs two folders down.
  const sites = path.join(tempDir, 'remote', 'sites');
  const archive = path.join(sites, 'archive');
  const outputs = { 'report.md': '# Report\n', 'pages/a.md': '# Page A\n', 'pages/deep/b.txt': 'b text\n' };
  const manifest = await writeBundle(path.join(tempDir, 'remote', 'source'), outputs);
  await writeManagedDestination(archive, { manifest, outputs });
  try {
    const sshCommand = await sshConfigOf(tempDir, [{ alias: 'web-1', server }]);
    const workspaceFile = path.join(tempDir, 'distributor-inspector.json');
    await fs.writeFile(
      workspaceFile,
      JSON.stringify({
        destinations: [],
        hosts: [{ name: 'web-1', url: `ssh://web-1${sites}`, agent: server.agentCommand }],
      }),
    );
    const host = await startHost(workspaceFile, {
      env: { DISTRIBUTOR_INSPECTOR_SSH: sshCommand, XDG_STATE_HOME: path.join(tempDir, 'state') },
    });
    await page.goto(host.url);
    const hosts = page.getByRole('region', { name: 'Hosts' });
    await expect(hosts.getByTestId('host-state-web-1')).toHaveText('connected', { timeout: 30_000 });
    await waitForScan(page);
    const liveRefresh = page.getByTestId('live-refresh');
    await expect(liveRefresh).toHaveText('watching 1 destination on hosts, by their agents', { timeout: 10_000 });
    const row = page.getByRole('option', { name: /^web-1:archive/ });
    const mark = row.locator('[data-verify-mark]');
    await page.getByRole('button', { name: 'Verify all' }).click();
    await expect(mark).toHaveText('intact', { timeout: 30_000 });

    // Auto-verify on (the default): an edit two folders down over there, and no click here.
    const editedAt = Date.now();
    await fs.appendFile(path.join(archive, 'pages', 'deep', 'b.txt'), 'edited on the host\n');
    await expect(mark).toHaveText('drifted', { timeout: 10_000 });
    const driftedMs = Date.now() - editedAt;
    test.info().annotations.push({ type: 'drifted', description: `the row said drifted ${driftedMs} ms after the edit on the host` });
    await expect(mark).toHaveAttribute('title', 'verify: drifted, verified just now');
    await saveScreenshot(page, 'remote-watch-drifted');

    // Auto-verify off: the next edit leaves the row stale, and says why.
    const toggle = page.getByRole('checkbox', { name: 'auto-verify' });
    await toggle.uncheck();
    await expect(toggle).not.toBeChecked();
    await fs.appendFile(path.join(archive, 'pages', 'a.md'), 'edited again on the host\n');
    await expect(mark).toHaveText('stale — verify again', { timeout: 10_000 });
    await expect(mark).toHaveAttribute(
      'title',
      /^verify: was drifted, verified .*; a change on its host was seen since \(changed on host\): stale — verify again$/,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, 'remote-watch-stale');

    // The command line over ssh says the same of the disk over there.
    const scanned = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'dist', 'cli.js'), 'scan', workspaceFile, '--verify', '--json'],
      {
        env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: sshCommand, NO_COLOR: '1' },
      },
    ).catch((failed: { stdout: string }) => failed);
    const report = JSON.parse(scanned.stdout) as { destinations: { id: string; verify?: { status?: string } | null }[] };
    expect(report.destinations.find((entry) => entry.id === 'web-1:archive')?.verify).toMatchObject({ status: 'drifted' });

    // The host's sshd killed: nothing watches its disk now, so its results are stale until verified again.
    await toggle.check();
    await page.getByRole('button', { name: 'Verify all' }).click();
    await expect(mark).toHaveText('drifted', { timeout: 30_000 });
    await expect(mark).toHaveAttribute('title', 'verify: drifted, verified just now');
    server.killAll();
    await expect(hosts.getByTestId('host-state-web-1')).toHaveText('connection lost', { timeout: 15_000 });
    await expect(mark).toHaveText('stale — verify again', { timeout: 5_000 });
    await expect(mark).toHaveAttribute('title', /its host could not be watched for a while since/);
    await expect(liveRefresh).toHaveText('1 destination on hosts not watched now (not connected, or their watch failed)');
    await saveScreenshot(page, 'remote-watch-host-lost');
    await server.restart();
    await hosts.getByRole('button', { name: 'Reconnect web-1' }).click();
    await expect(hosts.getByTestId('host-state-web-1')).toHaveText('connected', { timeout: 30_000 });
    await expect(mark).toHaveText('drifted', { timeout: 30_000 });
    await expect(mark).toHaveAttribute('title', 'verify: drifted, verified just now');
    await expect(liveRefresh).toHaveText('watching 1 destination on hosts, by their agents');
  } finally {
    await server.stop();
  }
});
