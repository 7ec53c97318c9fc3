// Several destinations at once, in real Chromium on the demo workspace: a ctrl-click set is verified
// with one verify job, planned (each against its configured source: planned, nothing to do, refused),
// confirmed once in a dialog listing them all, and applied one at a time, each journaled on its own;
// the one whose plan went stale is refused and the others are still replaced. Then select all drifted,
// a shift-click range and Escape.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

const option = (page: Page, id: string) => page.getByRole('option', { name: new RegExp(`^${id}\\b`) });
const bulkRow = (page: Page, id: string) => page.locator(`[data-bulk-row="${id}"]`);

test('a ctrl-click set is verified, planned, confirmed once and applied one by one; the one refused does not stop the others', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  test.slow();
  const root = path.dirname(demoWorkspace);
  const dest = (id: string) => path.join(root, 'destinations', id);
  await waitForScan(page);

  await option(page, 'docs-us').click();
  for (const id of ['status-new', 'status-missing', 'docs-eu', 'docs-mirror'])
    await option(page, id).click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByTestId('selection-count')).toHaveText('5 selected');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('5 destinations selected');
  for (const id of ['docs-us', 'status-new', 'docs-eu']) await expect(option(page, id)).toHaveAttribute('aria-selected', 'true');
  await expect(option(page, 'docs-apac')).toHaveAttribute('aria-selected', 'false');

  await page.getByRole('button', { name: 'Verify 5' }).click();
  await expect(page.getByTestId('bulk-verified')).toHaveText('Verified: 3 intact, 0 drifted; 2 not verifiable destinations skipped.', {
    timeout: 20_000,
  });

  await page.getByRole('button', { name: 'Plan replace for 5' }).click();
  await expect(page.getByTestId('bulk-plan-summary')).toContainText('Plan: 3 planned, 1 with nothing to do, 1 refused', {
    timeout: 20_000,
  });
  await expect(bulkRow(page, 'docs-eu').getByTestId('bulk-plan')).toContainText('Nothing to do. Up to date');
  await expect(bulkRow(page, 'docs-mirror').getByTestId('bulk-plan')).toContainText(
    'Refused. The destination was published by another pipeline or for another destination',
  );
  await expect(bulkRow(page, 'docs-us').getByTestId('bulk-plan')).toContainText(
    'create 1 file, update 3 files (the state file among them), delete 1 file and 1 folder',
  );
  await expect(page.getByTestId('bulk-no-force-note')).toContainText('A forced replace is not offered for several destinations');

  // docs-us is edited after its plan: its apply must be refused, and the other two still applied.
  await fs.writeFile(path.join(dest('docs-us'), 'index.html'), 'edited by hand after the plan\n');
  const stateBefore = await fs.readFile(path.join(dest('docs-us'), '.distributor.json'), 'utf8');

  await page.getByRole('button', { name: 'Review and replace 3 destinations…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replace 3 destinations?' });
  await expect(dialog.locator('[data-bulk-confirm]')).toHaveCount(3);
  await expect(dialog.locator('[data-bulk-confirm="docs-us"]')).toContainText(
    'create 1 file, update 3 files (the state file among them), delete 1 file and 1 folder',
  );
  await expect(dialog.getByTestId('bulk-no-force')).toContainText('A forced replace is not offered');
  await expect(dialog.getByRole('button', { name: 'Replace 3 destinations' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'bulk-confirm');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);

  await expect(page.getByTestId('bulk-outcome-summary')).toHaveText('Done: 2 replaced, 1 refused.', { timeout: 30_000 });
  await expect(bulkRow(page, 'docs-us').getByTestId('bulk-outcome')).toContainText('Refused: The destination changed since this plan');
  await expect(bulkRow(page, 'status-new').getByTestId('bulk-outcome')).toContainText('Replaced:');
  await expect(bulkRow(page, 'status-missing').getByTestId('bulk-outcome')).toContainText('Replaced:');
  await shootBothThemes(page, saveScreenshot, 'bulk-done');

  // On disk: the two published, docs-us exactly as it was; each apply journaled on its own.
  for (const id of ['status-new', 'status-missing'])
    await expect(fs.access(path.join(dest(id), '.distributor.json'))).resolves.toBeUndefined();
  expect(await fs.readFile(path.join(dest('docs-us'), '.distributor.json'), 'utf8')).toBe(stateBefore);
  const journal = (await fs.readFile(path.join(root, '.inspector-history.jsonl'), 'utf8')).trim().split('\n');
  const records = journal.map((line) => JSON.parse(line) as { destination?: { id?: string }; destinationId?: string; result?: unknown });
  const ids = records.map((record) => JSON.stringify(record));
  for (const id of ['docs-us', 'status-new', 'status-missing']) expect(ids.filter((text) => text.includes(`"${id}"`))).toHaveLength(1);

  // Escape clears the selection: back to the one destination last clicked.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('selection-count')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('docs-mirror');
});

test('select all drifted picks every drifted destination; a shift-click selects the range of rows shown', async ({
  appPage: page,
  demoWorkspace,
}) => {
  test.slow();
  const root = path.dirname(demoWorkspace);
  await fs.appendFile(path.join(root, 'destinations', 'docs-us', 'index.html'), '<p>edited by hand</p>\n');
  await waitForScan(page);
  await page.getByRole('button', { name: 'Verify all' }).click();
  await expect(page.getByRole('button', { name: 'Select all that need repair (2)' })).toBeEnabled({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Select all that need repair (2)' }).click();
  await expect(page.getByTestId('selection-count')).toHaveText('2 selected');
  await expect(bulkRow(page, 'docs-us')).toBeVisible();
  await expect(bulkRow(page, 'runbook-prod')).toBeVisible();

  await page.getByRole('button', { name: 'Plan replace for 2' }).click();
  await expect(page.getByTestId('bulk-plan-summary')).toContainText('Plan: 1 planned, 1 with nothing to do', { timeout: 20_000 });
  await expect(bulkRow(page, 'docs-us').getByTestId('bulk-plan')).toContainText('1 edited output lost');
  // A drifted destination that holds its source has nothing to replace (a repair restores it, on its own).
  await expect(bulkRow(page, 'runbook-prod').getByTestId('bulk-plan')).toContainText('Nothing to do.');

  // A plain click, then a shift-click: the rows shown between them (sorted by id).
  await option(page, 'docs-apac').click();
  await expect(page.getByTestId('selection-count')).toHaveCount(0);
  await option(page, 'docs-latam').click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('selection-count')).toHaveText('4 selected');
  for (const id of ['docs-apac', 'docs-edited', 'docs-eu', 'docs-latam']) await expect(bulkRow(page, id)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('docs-latam');
});
