// Backups and undo as an operator uses them, in real Chromium against the built browser host: a
// forced replace of a published folder that also holds a file added by hand; its dialog names the
// backup folder beside the workspace file; after the apply the result names the backup kept; then
// "Restore this backup" in the Backups tab plans the restore (the extra file and the old state put
// back), applies it after the typed id, and the folder on disk is byte for byte what it was before
// the forced replace. The History tab lists the forced replace (with its backup) and the restore.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { snapshotTree } from '../electron/testing/fixtures';
import { expect, test } from './fixtures';
import { recoveryFixture } from './recoveryFixture';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

// Two applies, a verify after each and four screenshots: more than the default 30 s on a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });

test('a forced replace keeps a backup that Restore this backup puts back byte for byte, and the history lists both', async ({
  page,
  tempDir,
  serveWorkspace,
  saveScreenshot,
}) => {
  const fixture = await recoveryFixture(tempDir);
  const notes = path.join(fixture.dest, 'operator-notes.txt');
  await fs.writeFile(notes, 'kept by the operator\n');
  const statePath = path.join(fixture.dest, '.distributor.json');
  const stateBefore = await fs.readFile(statePath);
  const before = await snapshotTree(fixture.dest);
  const backupsFolder = path.join(fixture.root, '.inspector-backups', 'archive');

  const host = await serveWorkspace(fixture.workspaceFile);
  await page.goto(host.url);
  await waitForScan(page);
  await openDestination(page, 'archive');

  await openTab(page, 'Backups');
  await expect(page.getByText('No backup of archive yet')).toBeVisible();
  await expect(page.getByTestId('backups-where')).toContainText(backupsFolder);

  // The forced replace's dialog says where what it deletes goes.
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan forced replace' }).click();
  await page.getByRole('button', { name: 'Review and force replace…' }).click();
  const dialog = page.getByRole('alertdialog', { name: /Force replace archive/ });
  await expect(dialog.getByTestId('backup-target')).toContainText(`kept as a backup in ${backupsFolder}/<UTC time>/`);
  await expect(dialog.getByTestId('backup-target')).toContainText('moved there by rename');
  await expect(dialog).toContainText('Everything it deletes is kept as a backup first, so it can be undone.');
  await shootBothThemes(page, saveScreenshot, 'force-replace-backup');
  await dialog.getByLabel(/Type archive to confirm/).fill('archive');
  await dialog.getByRole('button', { name: /^Forced replace: / }).click();
  await expect(dialog.getByRole('status').filter({ hasText: /^Replaced/ })).toBeVisible({ timeout: 15_000 });
  const kept = dialog.getByTestId('backup-kept');
  await expect(kept).toContainText(`kept in ${backupsFolder}`);
  const backupId = /Backup (\S+) kept in/.exec((await kept.textContent()) ?? '')?.[1];
  expect(backupId).toMatch(/^\d{4}-\d\d-\d\dT\d{6}\.\d{3}Z/);
  await expect(kept.getByRole('button', { name: 'Undo' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The forced replace removed the extra file and wrote a new state; the old ones are in the backup, moved whole.
  await expect(fs.access(notes)).rejects.toThrow();
  expect(await fs.readFile(statePath)).not.toEqual(stateBefore);
  const backupFiles = path.join(backupsFolder, backupId!, 'files');
  expect(await fs.readFile(path.join(backupFiles, 'operator-notes.txt'), 'utf8')).toBe('kept by the operator\n');
  expect(await fs.readFile(path.join(backupFiles, '.distributor.json'))).toEqual(stateBefore);

  // The Backups tab lists it; Restore this backup plans the restore and says what it puts back.
  await openTab(page, 'Backups');
  const row = page.locator(`tr[data-backup-id="${backupId}"]`);
  await expect(row).toContainText('forced replace');
  await expect(row).toContainText('applied');
  await expect(row).toContainText('moved (same file system)');
  await row.getByRole('button', { name: /Restore this backup/ }).click();
  const restore = page.getByRole('alertdialog', { name: `Restore archive from backup ${backupId}?` });
  const plan = restore.getByTestId('restore-plan');
  await expect(plan.locator('li.write', { hasText: 'operator-notes.txt' })).toContainText('put back');
  await expect(plan.locator('li.write', { hasText: '.distributor.json' })).toContainText('the old state, last');
  await expect(plan.locator('li.delete', { hasText: '.distributor.json' })).toContainText('the state the apply wrote');
  const apply = restore.getByRole('button', { name: /^Restore: / });
  await expect(apply).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'restore-plan');
  await restore.getByLabel(/Type archive to confirm/).fill('archive');
  await apply.click();
  await expect(restore.getByRole('status').filter({ hasText: /^Restored/ })).toBeVisible({ timeout: 15_000 });
  await expect(restore).toContainText(
    /Created 1 file, updated 3 files \(the state file among them\), deleted 1 file in \d+ ms\. The old state is back in place\./,
  );
  await restore.getByRole('button', { name: 'Close' }).click();

  // On disk: exactly the folder as it was before the forced replace (bytes, modes, the extra file, the state).
  expect(await snapshotTree(fixture.dest)).toBe(before);
  expect(await fs.readFile(statePath)).toEqual(stateBefore);
  expect(await fs.readFile(notes, 'utf8')).toBe('kept by the operator\n');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('intact');
  await expect(row).toContainText('already restored');

  // The history: the restore (newest), then the forced replace, each with its backup.
  await openTab(page, 'History');
  const rows = page.locator('.history-table tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('restore');
  await expect(rows.nth(0)).toContainText(`from backup ${backupId}`);
  await expect(rows.nth(1)).toContainText('forced replace');
  await expect(rows.nth(1)).toContainText(`backup ${backupId}`);
  await expect(rows.nth(1)).toContainText('(restored)');
  await expect(rows.nth(1).getByRole('button', { name: /^Undo/ })).toHaveCount(0);
  await shootBothThemes(page, saveScreenshot, 'history-backups');
  // The entry's link opens the Backups tab on that backup.
  await rows.nth(1).getByRole('button', { name: backupId! }).click();
  await expect(page.locator(`tr.focused[data-backup-id="${backupId}"]`)).toBeVisible();
});

test('a restore refused because the destination changed since says so, and what to do', async ({ page, tempDir, serveWorkspace }) => {
  const fixture = await recoveryFixture(tempDir);
  const host = await serveWorkspace(fixture.workspaceFile);
  await page.goto(host.url);
  await waitForScan(page);
  await openDestination(page, 'archive');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan forced replace' }).click();
  await page.getByRole('button', { name: 'Review and force replace…' }).click();
  const dialog = page.getByRole('alertdialog', { name: /Force replace archive/ });
  await dialog.getByLabel(/Type archive to confirm/).fill('archive');
  await dialog.getByRole('button', { name: /^Forced replace: / }).click();
  await expect(dialog.getByRole('status').filter({ hasText: /^Replaced/ })).toBeVisible({ timeout: 15_000 });
  // Someone adds a file after the forced replace: a restore would lose it.
  await fs.writeFile(path.join(fixture.dest, 'added-later.txt'), 'new\n');
  await dialog.getByTestId('backup-kept').getByRole('button', { name: 'Undo' }).click();
  const restore = page.getByRole('alertdialog', { name: /^Restore archive from backup/ });
  const refusal = restore.getByTestId('restore-refusal');
  await expect(refusal).toHaveAttribute('data-code', 'destination_changed');
  await expect(refusal).toContainText('"added-later.txt" was added');
  await expect(restore.getByRole('alert')).toContainText('The destination changed since the apply that made this backup');
  await expect(restore.getByRole('alert')).toContainText('move it out of the destination');
  // Moved out of the way, the restore plans again.
  await fs.rm(path.join(fixture.dest, 'added-later.txt'));
  await restore.getByRole('button', { name: 'Plan the restore again' }).click();
  await expect(restore.getByTestId('restore-plan')).toBeVisible();
  expect(await fs.readFile(path.join(fixture.dest, '.distributor.json'), 'utf8')).toContain('archive');
});
