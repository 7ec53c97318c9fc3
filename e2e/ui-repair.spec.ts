// Recovering a destination as an operator does, in real Chromium against the built browser host: an
// output edited by hand and a file added beside it; verify says drifted; Repair plans rewriting only
// that output (the extra file listed as kept), applies it, and the destination is intact again while
// the extra file is still on disk. Then Discard staging on a destination an interrupted apply left
// its staging folder in: what it holds, moved into a backup, nothing else touched; Undo puts it back.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { recoveryFixture } from './recoveryFixture';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test('a hand-edited output is repaired to intact while the extra file stays on disk', async ({
  page,
  tempDir,
  serveWorkspace,
  saveScreenshot,
}) => {
  const fixture = await recoveryFixture(tempDir);
  const report = path.join(fixture.dest, 'report.html');
  const published = await fs.readFile(report);
  await fs.writeFile(report, `${published.toString('utf8')}<p>edited on the server by hand</p>\n`);
  await fs.writeFile(path.join(fixture.dest, 'operator-notes.txt'), 'kept by the operator\n');

  const host = await serveWorkspace(fixture.workspaceFile);
  await page.goto(host.url);
  await waitForScan(page);
  await openDestination(page, 'archive');

  // Before a verify has found drift, Repair says what to do first.
  await openTab(page, 'Actions');
  await expect(page.getByTestId('repair-not-offered')).toContainText('Verify this destination');

  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: /drifted: 1 of \d+ outputs? differ/ })).toBeVisible({ timeout: 15_000 });

  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan repair' }).click();
  const plan = page.getByTestId('plan-repair');
  await expect(plan.getByTestId('repair-summary')).toContainText('1 of 1 drifted output can be rewritten');
  const list = plan.getByRole('list', { name: /Every output the repair rewrites/ });
  await expect(list.locator('li.rewrite')).toHaveCount(1);
  await expect(list.locator('li.rewrite')).toContainText('report.html');
  await expect(list.locator('li.rewrite')).toContainText('regenerated from report.md');
  await expect(list.locator('li.keep')).toContainText('operator-notes.txt');
  await expect(list.locator('li.refused')).toHaveCount(0);
  // Planning changed nothing.
  expect((await fs.readFile(report, 'utf8')).endsWith('<p>edited on the server by hand</p>\n')).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'repair-plan');

  await page.getByRole('button', { name: 'Repair: update 1 file…' }).click();
  await page.getByRole('alertdialog', { name: 'Repair archive?' }).getByRole('button', { name: 'Repair: update 1 file' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Repaired/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('intact');
  await expect(page.getByRole('option', { name: /^archive/ })).toContainText('intact');
  await shootBothThemes(page, saveScreenshot, 'repair-done');

  expect(await fs.readFile(report)).toEqual(published);
  expect(await fs.readFile(path.join(fixture.dest, 'operator-notes.txt'), 'utf8')).toBe('kept by the operator\n');
});

test('discard staging says what an interrupted apply left, removes only that folder into a backup, and Undo puts it back', async ({
  page,
  tempDir,
  serveWorkspace,
}) => {
  const fixture = await recoveryFixture(tempDir);
  const { snapshotTree, writeInterruptedStaging } = await import('../electron/testing/fixtures');
  const staging = await writeInterruptedStaging(fixture.dest, { 'report.html': 'half', 'pages/a.html': 'half a' });
  const stateBefore = await fs.readFile(path.join(fixture.dest, '.distributor.json'));
  const before = await snapshotTree(fixture.dest);

  const host = await serveWorkspace(fixture.workspaceFile);
  await page.goto(host.url);
  await waitForScan(page);
  await openDestination(page, 'archive');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan discarding staging' }).click();
  const plan = page.getByTestId('plan-discard');
  await expect(plan).toContainText('.distributor-staging/');
  await expect(plan).toContainText('An interrupted replace of reports.example');
  await expect(plan).toContainText('2 files staged');
  await expect(fs.access(staging)).resolves.toBeUndefined();
  // Before it is confirmed: where the folder goes (beside the workspace file, moved by rename).
  const backupsFolder = path.join(path.dirname(fixture.workspaceFile), '.inspector-backups', 'archive');
  await expect(plan.getByTestId('backup-target')).toContainText(`kept as a backup in ${backupsFolder}`);

  await page.getByRole('button', { name: /^Discard staging: delete 1 folder.* \(\.distributor-staging, 2 staged files\)…$/ }).click();
  await page.getByRole('alertdialog', { name: 'Discard staging archive?' }).getByTestId('apply-confirm').click();
  await expect(page.getByRole('status').filter({ hasText: /^Staging discarded/ })).toBeVisible({ timeout: 15_000 });
  await expect(fs.access(staging)).rejects.toThrow();
  expect(await fs.readFile(path.join(fixture.dest, '.distributor.json'))).toEqual(stateBefore);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('intact');
  const kept = page.getByTestId('backup-kept');
  await expect(kept).toContainText(`kept in ${backupsFolder}`);
  const backupId = /Backup (\S+) kept in/.exec((await kept.textContent()) ?? '')?.[1];
  expect(await fs.readFile(path.join(backupsFolder, backupId!, 'files', '.distributor-staging', 'files', 'report.html'), 'utf8')).toBe(
    'half',
  );

  // Undo: the restore planned and confirmed like the others puts the folder back, byte for byte.
  await kept.getByRole('button', { name: 'Undo' }).click();
  const restore = page.getByRole('alertdialog', { name: `Restore archive from backup ${backupId}?` });
  await expect(restore.getByTestId('restore-plan').locator('li.write', { hasText: '.distributor-staging' })).toContainText('put back');
  await restore.getByLabel(/Type archive to confirm/).fill('archive');
  await restore.getByRole('button', { name: /^Restore: / }).click();
  await expect(restore.getByRole('status').filter({ hasText: /^Restored/ })).toBeVisible({ timeout: 15_000 });
  await restore.getByRole('button', { name: 'Close' }).click();
  expect(await snapshotTree(fixture.dest)).toBe(before);

  // The history names the backup on the discard's entry, and the restore after it.
  await openTab(page, 'History');
  await expect(page.getByText('discard staging').first()).toBeVisible();
  await expect(page.getByText(backupId!).first()).toBeVisible();
});
