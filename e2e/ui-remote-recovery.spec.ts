// Repair and restore on a workspace host's destination (issue 15), in real Chromium against the built
// browser host: a real sshd of our own on 127.0.0.1 (throwaway keys, the agent from the repo's build)
// whose "remote" workspace holds a published destination drifted by hand. Verify finds the drift on
// the host, the repair plan and its button name the host, the apply rewrites the disk over there; the
// Backups tab lists the backup the host kept, the restore dialog names the host and wants `NAME:ID`
// typed, and the disk over there is back as it was before the repair; the History tab reads the host's
// journal.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { snapshotTree } from '../electron/testing/fixtures';
import { sshConfigOf, sshUnavailableReason, startSshServer } from '../electron/testing/sshHarness';
import { expect, test } from './fixtures';
import { recoveryFixture } from './recoveryFixture';
import { openDestination, openTab, seriousViolations, waitForScan } from './uiHelpers';

const unavailable = sshUnavailableReason();
test.skip(unavailable !== undefined, `sshd cannot run here: ${unavailable}`);

test('a repair and a restore on a host destination: each confirmation names the host, and the disk over there changes as it should', async ({
  page,
  startHost,
  tempDir,
  saveScreenshot,
}) => {
  test.setTimeout(240_000);
  const server = await startSshServer();
  try {
    const remote = await recoveryFixture(path.join(tempDir, 'remote'));
    const dest = remote.dest;
    const client = path.join(tempDir, 'client');
    await fs.mkdir(client, { recursive: true });
    const sshCommand = await sshConfigOf(client, [{ alias: 'web-1', server }]);
    const url = `ssh://web-1${remote.workspaceFile}`;
    const workspaceFile = path.join(client, 'distributor-inspector.json');
    await fs.writeFile(workspaceFile, JSON.stringify({ destinations: [], hosts: [{ name: 'web-1', url, agent: server.agentCommand }] }));
    // Drifted by hand over there: one output edited, one deleted, an extra file added.
    await fs.writeFile(path.join(dest, 'data.csv'), 'a,b\n1,3\n');
    await fs.rm(path.join(dest, 'report.html'));
    await fs.writeFile(path.join(dest, 'notes.txt'), 'operator notes\n');
    const drifted = await snapshotTree(dest);

    const host = await startHost(workspaceFile, { env: { DISTRIBUTOR_INSPECTOR_SSH: sshCommand } });
    await page.goto(host.url);
    const hosts = page.getByRole('region', { name: 'Hosts' });
    await expect(hosts.getByTestId('host-state-web-1')).toHaveText('connected', { timeout: 30_000 });
    await waitForScan(page);
    await openDestination(page, 'web-1:archive');

    // Verify runs on the host and finds the drift there.
    await openTab(page, 'Outputs');
    await page.getByRole('button', { name: 'Verify this destination' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('drifted', { timeout: 30_000 });

    // The repair plan is made on the host; the plan and its button name it.
    await openTab(page, 'Actions');
    await page.getByRole('button', { name: 'Plan repair' }).click();
    const plan = page.getByTestId('plan-repair');
    await expect(plan.getByTestId('repair-host')).toHaveText(`on host web-1 (${url})`, { timeout: 30_000 });
    await expect(plan.getByTestId('repair-summary')).toContainText('2 of 2 drifted outputs can be rewritten');
    const apply = page.getByRole('button', { name: /^Repair on web-1: .*…$/ });
    expect(await seriousViolations(page)).toEqual([]);
    await apply.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'remote-repair-plan');
    await apply.click();
    await page
      .getByRole('alertdialog', { name: /^Repair .* on host web-1/ })
      .getByTestId('apply-confirm')
      .click();
    await expect(page.getByRole('status').filter({ hasText: /^Repaired/ })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1 })).toContainText('intact');
    // Over there: the outputs hold the published bytes again, the extra file stays.
    expect(await fs.readFile(path.join(dest, 'data.csv'), 'utf8')).toBe('a,b\n1,2\n');
    expect((await fs.lstat(path.join(dest, 'report.html'))).isFile()).toBe(true);
    expect(await fs.readFile(path.join(dest, 'notes.txt'), 'utf8')).toBe('operator notes\n');

    // The host kept a backup of what the repair overwrote, beside its workspace file.
    await openTab(page, 'Backups');
    await expect(page.getByTestId('backups-where')).toContainText(
      `${path.join(remote.root, '.inspector-backups', 'archive')} on host web-1`,
    );
    const row = page.locator('tr[data-backup-id]').first();
    await expect(row).toContainText('repair');
    const backupId = await row.getAttribute('data-backup-id');
    await row.getByRole('button', { name: /Restore this backup/ }).click();
    const restore = page.getByRole('alertdialog', { name: `Restore web-1:archive from backup ${backupId} on host web-1?` });
    await expect(restore.getByTestId('restore-host')).toHaveText(`on host web-1 (${url})`, { timeout: 30_000 });
    // The counts of shared/planCounts.ts: data.csv back to its drifted bytes, report.html (the repair wrote it) removed.
    const confirm = restore.getByRole('button', { name: 'Restore on web-1: update 1 file, delete 1 file', exact: true });
    await restore.getByLabel(/Type web-1:archive to confirm/).fill('archive');
    await expect(confirm).toBeDisabled();
    await restore.getByLabel(/Type web-1:archive to confirm/).fill('web-1:archive');
    await saveScreenshot(page, 'remote-restore-confirm');
    await confirm.click();
    await expect(restore.getByRole('status').filter({ hasText: /^Restored/ })).toBeVisible({ timeout: 30_000 });
    await restore.getByRole('button', { name: 'Close' }).click();
    // Over there: exactly the drifted folder from before the repair.
    expect(await snapshotTree(dest)).toBe(drifted);

    // The History tab reads the host's journal: the restore, then the repair.
    await openTab(page, 'History');
    const rows = page.locator('.history-table tbody tr');
    await expect(rows.nth(0)).toContainText('restore', { timeout: 20_000 });
    await expect(rows.nth(1)).toContainText('repair');
  } finally {
    await server.stop();
  }
});
