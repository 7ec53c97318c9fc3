// Hosts in the app (issue 15), in real Chromium against the built browser host: a workspace file with
// local destinations and two ssh hosts, each a real sshd of our own on 127.0.0.1 (throwaway keys, the
// agent from the repo's build), named by aliases in one ssh config (DISTRIBUTOR_INSPECTOR_SSH). Scan,
// verify, compare, replace and forced replace on a remote destination change the disk "over there";
// one sshd killed mid-verify: that host says connection lost, the other's destinations are untouched;
// Reconnect now while it is down names host_unreachable (still lost), and once its sshd is back it is connected again.

import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, waitForScan } from './uiHelpers';
import { makeFixtureWorkspace, type FixtureWorkspace } from '../electron/testing/sessionFixtures';
import { sshConfigOf, sshUnavailableReason, startSshServer, type SshServer } from '../electron/testing/sshHarness';

const unavailable = sshUnavailableReason();
test.skip(unavailable !== undefined, `sshd cannot run here: ${unavailable}`);

/** A workspace file on the "remote" side: site-a and loose with their source, and the big one to hash. */
async function remoteWorkspace(fixture: FixtureWorkspace): Promise<string> {
  const root = path.dirname(fixture.workspace);
  const file = path.join(root, 'distributor-inspector.json');
  const entry = (name: string) => ({ path: `workspace/${name}`, pipeline_id: 'docs', destination_id: name, source: 'sources/site-a' });
  await fs.writeFile(
    file,
    JSON.stringify({ destinations: [entry('site-a'), entry('loose'), { path: 'workspace/big', destination_id: 'big' }] }),
  );
  return file;
}

test('two ssh hosts and local destinations in one list: scan, verify, compare, replace and forced replace over ssh; one sshd killed mid-verify leaves the other host untouched, and Reconnect brings it back', async ({
  page,
  startHost,
  tempDir,
  saveScreenshot,
}) => {
  test.setTimeout(240_000);
  const servers: SshServer[] = await Promise.all([startSshServer(), startSshServer()]);
  const fixtures = await Promise.all([
    makeFixtureWorkspace({ bigOutputBytes: 8 * 1024 ** 3 }),
    makeFixtureWorkspace({ bigOutputBytes: 8 * 1024 ** 3 }),
  ]);
  try {
    const [web1, web2] = fixtures as [FixtureWorkspace, FixtureWorkspace];
    const files = [await remoteWorkspace(web1), await remoteWorkspace(web2)];
    const sshCommand = await sshConfigOf(tempDir, [
      { alias: 'web-1', server: servers[0]! },
      { alias: 'web-2', server: servers[1]! },
    ]);
    await fs.mkdir(path.join(tempDir, 'local', 'reports'), { recursive: true });
    await fs.writeFile(path.join(tempDir, 'local', 'reports', 'notes.txt'), 'local\n');
    const workspaceFile = path.join(tempDir, 'distributor-inspector.json');
    await fs.writeFile(
      workspaceFile,
      JSON.stringify({
        destinations: [{ path: 'local/reports' }],
        hosts: [
          { name: 'web-1', url: `ssh://web-1${files[0]}`, agent: servers[0]!.agentCommand },
          { name: 'web-2', url: `ssh://web-2${files[1]}`, agent: servers[1]!.agentCommand },
        ],
      }),
    );
    const host = await startHost(workspaceFile, { env: { DISTRIBUTOR_INSPECTOR_SSH: sshCommand } });
    await page.goto(host.url);

    // One list: this machine's destination and each host's, named NAME:ID, with each host's state.
    const hosts = page.getByRole('region', { name: 'Hosts' });
    await expect(hosts.getByTestId('host-state-web-1')).toHaveText('connected', { timeout: 30_000 });
    await expect(hosts.getByTestId('host-state-web-2')).toHaveText('connected', { timeout: 30_000 });
    await expect(page.getByTestId('list-count')).toHaveText('7 destinations', { timeout: 30_000 });
    await waitForScan(page);
    await expect(page.getByRole('option', { name: /^web-1:site-a/ })).toContainText('managed');
    await expect(page.getByRole('option', { name: /^web-2:loose/ })).toContainText('unmanaged');
    await expect(page.getByRole('option', { name: /^local\/reports/ })).toContainText('unmanaged');
    await page.getByLabel('Show').selectOption('web-2');
    await expect(page.getByTestId('list-count')).toHaveText('3 of 7');
    await page.getByLabel('Show').selectOption('every machine');
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, 'remote-hosts-list');

    // Rescan reads each host's disk again, there: web-2's site-a state file broken over there shows.
    await fs.writeFile(path.join(web2.workspace, 'site-a', '.distributor.json'), '{ "schema_version": ');
    await page.getByRole('button', { name: 'Rescan' }).click();
    await waitForScan(page);
    await expect(page.getByRole('option', { name: /^web-2:site-a/ })).toContainText('invalid', { timeout: 20_000 });
    await expect(page.getByRole('option', { name: /^web-1:site-a/ })).toContainText('managed');

    // Verify, compare and a normal replace of web-1:site-a, on web-1's disk.
    await openDestination(page, 'web-1:site-a');
    await openTab(page, 'Outputs');
    await page.getByRole('button', { name: 'Verify this destination' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('intact', { timeout: 20_000 });
    await openTab(page, 'Compare');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await expect(page.getByText(/^Decision: /)).toContainText('Replace', { timeout: 20_000 });
    await openTab(page, 'Actions');
    await page.getByRole('button', { name: 'Plan replace' }).click();
    await page.getByRole('button', { name: /^Replace: delete .* on web-1…$/ }).click();
    const replaceDialog = page.getByRole('dialog', { name: 'Replace web-1:site-a on host web-1?' });
    await expect(replaceDialog.getByTestId('replace-confirm-host')).toHaveText(`on host web-1 (ssh://web-1${files[0]})`);
    await replaceDialog.getByRole('button', { name: /^Replace: delete/ }).click();
    await expect(replaceDialog).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: /^Replaced/ })).toBeVisible({ timeout: 30_000 });
    expect(existsSync(path.join(web1.workspace, 'site-a', 'about.html'))).toBe(true);
    expect(existsSync(path.join(web2.workspace, 'site-a', 'about.html'))).toBe(false);

    // A forced replace of web-1:loose: the confirmation names the host and wants NAME:ID typed.
    await openDestination(page, 'web-1:loose');
    await openTab(page, 'Actions');
    await page.getByRole('button', { name: 'Plan forced replace' }).click();
    await page.getByRole('button', { name: 'Review and force replace…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Force replace web-1:loose on host web-1?' });
    await expect(dialog).toContainText(`on host web-1 (ssh://web-1${files[0]})`);
    await dialog.getByLabel(/Type web-1:loose to confirm/).fill('loose');
    await expect(dialog.getByRole('button', { name: /^Force replace: delete/ })).toBeDisabled();
    await dialog.getByLabel(/Type web-1:loose to confirm/).fill('web-1:loose');
    await saveScreenshot(page, 'remote-hosts-force-confirm');
    await dialog.getByRole('button', { name: /^Force replace: delete/ }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Replaced/ })).toBeVisible({ timeout: 30_000 });
    expect(existsSync(path.join(web1.workspace, 'loose', 'notes.txt'))).toBe(false);
    expect(existsSync(path.join(web1.workspace, 'loose', '.distributor.json'))).toBe(true);
    expect(existsSync(path.join(web2.workspace, 'loose', 'notes.txt'))).toBe(true);
    await page.keyboard.press('Escape');

    // Kill web-2's sshd while Verify all hashes its 8 GiB: web-2 is lost, web-1 stays connected.
    const web2Before = await fs.readdir(web2.workspace, { recursive: true });
    await page.getByRole('button', { name: 'Verify all' }).click();
    await expect(page.getByTestId('job-verify').first()).toBeVisible();
    await expect.poll(async () => (await page.getByTestId('job-verify').first().textContent()) ?? '', { timeout: 20_000 }).toMatch(/[1-9]/);
    servers[1]!.killAll();
    await expect(hosts.getByTestId('host-state-web-2')).toHaveText('connection lost', { timeout: 15_000 });
    await expect(hosts.getByRole('alert')).toContainText('web-2');
    await expect(hosts.getByRole('button', { name: 'Reconnect web-2' })).toBeVisible();
    await expect(hosts.getByTestId('host-state-web-1')).toHaveText('connected');
    await page.getByRole('searchbox', { name: /Search destinations/ }).fill('');
    await expect(page.getByRole('option', { name: /^web-2:site-a/ })).toContainText('host lost');
    await expect(page.getByRole('option', { name: /^web-1:site-a/ })).not.toContainText('host lost');
    await expect(page.getByRole('option', { name: /^web-1:site-a/ })).toContainText('intact');
    await saveScreenshot(page, 'remote-hosts-lost');
    // Nothing on web-2 was written: a verify only reads; web-1 still answers.
    expect(await fs.readdir(web2.workspace, { recursive: true })).toEqual(web2Before);
    await openDestination(page, 'web-1:site-a');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('web-1:site-a');

    // Reconnect now while web-2's sshd is still gone: still lost (it is tried again by itself), the
    // try named host_unreachable; once it is back, Reconnect now connects it without waiting.
    await hosts.getByRole('button', { name: 'Reconnect web-2 now' }).click();
    await expect(hosts.locator('[data-host="web-2"]')).toContainText('host_unreachable', { timeout: 30_000 });
    await expect(hosts.getByTestId('host-state-web-2')).toHaveText('connection lost');
    await servers[1]!.restart();
    await hosts.getByRole('button', { name: 'Reconnect web-2 now' }).click();
    await expect(hosts.getByTestId('host-state-web-2')).toHaveText('connected', { timeout: 30_000 });
    await page.getByRole('searchbox', { name: /Search destinations/ }).fill('');
    await expect(page.getByRole('option', { name: /^web-2:loose/ })).not.toContainText('host lost', { timeout: 20_000 });
    await expect(page.getByRole('option', { name: /^web-2:loose/ })).toContainText('unmanaged');
    await expect(page.getByTestId('list-count')).toHaveText('7 destinations');
    expect(await fs.readdir(web2.workspace, { recursive: true })).toEqual(web2Before);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all(fixtures.map((fixture) => fixture.remove()));
  }
});
