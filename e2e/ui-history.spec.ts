// The history journal from the screen: a replace and a forced replace appear in the destination's
// History tab and in the workspace's History view with its filters, read from the journal beside the
// workspace file that the CLI shares. (A refused apply's record: electron/service/session.test.ts.)

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { confirmNormalReplace, openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test('a replace and a forced replace are listed in the History tab and the workspace view, and in the journal on disk', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  // Two applies, two history views, axe and screenshots in both themes, on a machine others share.
  test.setTimeout(90_000);
  const root = path.dirname(demoWorkspace);
  await waitForScan(page);

  await openDestination(page, 'docs-us');
  await openTab(page, 'History');
  await expect(page.getByText('No replace has been applied to docs-us yet')).toBeVisible();
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan replace' }).click();
  await confirmNormalReplace(page, 'create 1 file, update 3 files (the state file among them), delete 1 file and 1 folder');
  await expect(page.getByRole('status').filter({ hasText: /^Replaced/ })).toBeVisible({ timeout: 15_000 });

  await openDestination(page, 'legacy-site');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan forced replace' }).click();
  await page.getByRole('button', { name: 'Review and force replace…' }).click();
  await page
    .getByRole('alertdialog')
    .getByLabel(/Type legacy-site to confirm/)
    .fill('legacy-site');
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^Forced replace: / })
    .click();
  await expect(
    page
      .getByRole('alertdialog')
      .getByRole('status')
      .filter({ hasText: /^Replaced/ }),
  ).toBeVisible({ timeout: 15_000 });
  await page.getByRole('alertdialog').getByRole('button', { name: 'Close' }).click();

  await openDestination(page, 'docs-us');
  await openTab(page, 'History');
  const tabRows = page.locator('.history-table tbody tr');
  await expect(tabRows).toHaveCount(1);
  await expect(tabRows.first()).toContainText('replace');
  await expect(tabRows.first()).toContainText('applied');
  await expect(tabRows.first()).toContainText('browser host');
  // Checked here, not over the dialog: axe reads the list dimmed behind a modal's backdrop as low contrast.
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: 'Workspace history' });
  await expect(dialog.locator('tbody tr')).toHaveCount(2);
  // Newest first: the forced replace, then the replace.
  await expect(dialog.locator('tbody tr').first()).toContainText('legacy-site');
  await expect(dialog.locator('tbody tr').first()).toContainText('forced replace');
  await expect(dialog.locator('tbody tr').first()).toContainText('none → ');
  await dialog.getByLabel('Action').selectOption('replace');
  await expect(dialog.locator('tbody tr')).toHaveCount(1);
  await expect(dialog.getByRole('status')).toContainText('1 of 2 records');
  await dialog.getByLabel('Result').selectOption('refused');
  await expect(dialog.locator('tbody tr')).toHaveCount(0);
  await dialog.getByLabel('Action').selectOption('');
  await dialog.getByLabel('Result').selectOption('');
  await shootBothThemes(page, saveScreenshot, 'history');

  const lines = (await fs.readFile(path.join(root, '.inspector-history.jsonl'), 'utf8')).trim().split('\n');
  expect(lines.map((line) => JSON.parse(line)).map((record) => [record.destination.id, record.result.outcome])).toEqual([
    ['docs-us', 'applied'],
    ['legacy-site', 'applied'],
  ]);
});
