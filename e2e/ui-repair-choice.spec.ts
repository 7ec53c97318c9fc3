// Choosing what a repair rewrites, in real Chromium against the built browser host: two outputs
// drifted, one of them an intentional hotfix. Every drifted output is ticked by default; the operator
// unticks the hotfix with the keyboard, the counts and the apply button follow, the confirmation names
// the counts of that choice, the apply rewrites the other one only, and the hotfix keeps its bytes and
// is still reported drifted afterwards. Select none disables the apply and says why.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { recoveryFixture } from './recoveryFixture';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

const HOTFIX = '<p>hotfix: the figures corrected on the server, on purpose</p>\n';

test('an unticked hotfix is kept as it is and still drifted, while the other drifted output is repaired', async ({
  page,
  tempDir,
  serveWorkspace,
  saveScreenshot,
}) => {
  const fixture = await recoveryFixture(tempDir);
  const report = path.join(fixture.dest, 'report.html');
  const data = path.join(fixture.dest, 'data.csv');
  const publishedData = await fs.readFile(data);
  await fs.writeFile(report, HOTFIX);
  await fs.writeFile(data, 'a,b\n1,3\n');

  const host = await serveWorkspace(fixture.workspaceFile);
  await page.goto(host.url);
  await waitForScan(page);
  await openDestination(page, 'archive');
  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: /drifted: 2 of \d+ outputs differ/ })).toBeVisible({ timeout: 15_000 });

  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan repair' }).click();
  const plan = page.getByTestId('plan-repair');
  const count = plan.getByTestId('repair-choice-count');
  await expect(count).toHaveText('2 of 2 drifted outputs ticked to rewrite');
  const hotfix = plan.getByRole('checkbox', { name: 'report.html' });
  await expect(hotfix).toBeChecked();
  await expect(plan.getByRole('checkbox', { name: 'data.csv' })).toBeChecked();

  // Select none: nothing to rewrite, the apply is disabled and says why; Select all brings them back.
  await plan.getByRole('button', { name: 'Select none' }).click();
  await expect(count).toHaveText('0 of 2 drifted outputs ticked to rewrite · 2 kept as they are');
  const none = plan.getByRole('button', { name: /^Repair: rewrite 0 outputs, keep 2 as they are/ });
  await expect(none).toBeDisabled();
  await expect(plan.getByTestId('repair-none-chosen')).toContainText('No output is ticked');
  await plan.getByRole('button', { name: 'Select all' }).click();
  await expect(count).toHaveText('2 of 2 drifted outputs ticked to rewrite');

  // With the keyboard: focus the hotfix's box and untick it with Space.
  await hotfix.focus();
  await page.keyboard.press('Space');
  await expect(hotfix).not.toBeChecked();
  await expect(count).toHaveText('1 of 2 drifted outputs ticked to rewrite · 1 kept as it is');
  await expect(plan.locator('li.kept')).toContainText('kept as it is, still drifted after');
  const apply = plan.getByRole('button', { name: 'Repair: rewrite 1 output, keep 1 as it is' });
  await expect(apply).toBeEnabled();
  expect(await seriousViolations(page)).toEqual([]);
  await plan.scrollIntoViewIfNeeded();
  await shootBothThemes(page, saveScreenshot, 'repair-choice');

  // The confirmation (docs/confirmations.md) names the counts of the choice: one file rewritten, not two.
  await apply.click();
  const dialog = page.getByRole('alertdialog', { name: 'Repair archive?' });
  const confirm = dialog.getByRole('button', { name: 'Repair: update 1 file' });
  await expect(confirm).toBeFocused();
  await expect(dialog.getByTestId('apply-confirm-counts')).toContainText('Repair: update 1 file');
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^Repaired/ })).toBeVisible({ timeout: 15_000 });
  // The verify after the apply: the kept hotfix is still drifted, and said so.
  await expect(page.getByRole('heading', { level: 1 })).toContainText('drifted');
  expect(await fs.readFile(report, 'utf8')).toBe(HOTFIX);
  expect(await fs.readFile(data)).toEqual(publishedData);

  await openTab(page, 'Outputs');
  await expect(page.locator('tr[data-output="report.html"]')).toContainText('size mismatch');
  await expect(page.locator('tr[data-output="data.csv"]')).not.toContainText('mismatch');
  await saveScreenshot(page, 'ui-repair-choice-after');
});
