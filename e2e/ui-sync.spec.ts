// The sync axis beside health, in real Chromium on the demo workspace: every row says what Compare
// decides against its configured source without opening Compare (chips with counts, a badge, the
// health sort that puts the serious first, the Overview in words), and a bulk repair of three drifted
// destinations planned together, confirmed once and applied one by one.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

const option = (page: Page, id: string) => page.getByRole('option', { name: new RegExp(`^${id}\\b`) });
const syncChips = (page: Page) => page.getByRole('group', { name: /Filter by sync/ });
const chip = (page: Page, label: string) => syncChips(page).getByRole('button', { name: new RegExp(`^${label} \\d`) });
const bulkRow = (page: Page, id: string) => page.locator(`[data-bulk-row="${id}"]`);

async function shownIds(page: Page): Promise<string[]> {
  return page
    .locator('[role="option"][data-destination]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-destination') ?? ''));
}

test('the sync chips count and filter what Compare decides, and sort by health puts the serious first', async ({
  appPage: page,
  saveScreenshot,
}) => {
  test.slow();
  await waitForScan(page);
  await expect(chip(page, 'conflict')).toContainText('7');
  await expect(chip(page, 'destination newer')).toContainText('1');
  await expect(chip(page, 'publish waiting')).toContainText('4');
  await expect(chip(page, 'up to date')).toContainText('3');

  // The managed destinations in conflict or holding a newer edition: four, found without opening Compare.
  await chip(page, 'conflict').click();
  await chip(page, 'destination newer').click();
  await page
    .getByRole('group', { name: /Filter by status/ })
    .getByRole('button', { name: /^managed/ })
    .click();
  await expect(page.getByTestId('list-count')).toHaveText(/^4 of 17/);
  expect((await shownIds(page)).sort()).toEqual(['docs-apac', 'docs-edited', 'docs-mirror', 'docs-rebuilt']);
  await expect(option(page, 'docs-rebuilt').locator('[data-sync="conflict"]')).toHaveAttribute('title', 'sync: Conflict: digest mismatch');
  await expect(option(page, 'docs-apac').locator('[data-sync="destination_newer"]')).toBeVisible();
  await saveScreenshot(page, 'ui-sync-chips');

  // The publish waiting: docs-us (an older edition) among them.
  await chip(page, 'conflict').click();
  await chip(page, 'destination newer').click();
  await chip(page, 'publish waiting').click();
  expect(await shownIds(page)).toEqual(['docs-latam', 'docs-us']);
  await page
    .getByRole('group', { name: /Filter by status/ })
    .getByRole('button', { name: /^managed/ })
    .click();
  await chip(page, 'publish waiting').click();

  await page.getByLabel('Sort').selectOption('health');
  await expect(page.getByTestId('list-count')).toHaveText('17 destinations');
  expect(await shownIds(page)).toEqual([
    'broken-duplicate',
    'broken-json',
    'broken-path',
    'broken-sha',
    'docs-latam',
    'docs-edited',
    'docs-mirror',
    'docs-rebuilt',
    'docs-us',
    'status-missing',
    'status-new',
    'docs-apac',
    'docs-eu',
    'release-notes',
    'runbook-prod',
    'legacy-site',
    'status-copied',
  ]);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'sync-sorted');

  // The Overview says both axes in words: a conflict's reason, and a drifted destination's drift with Repair named.
  await openDestination(page, 'docs-rebuilt');
  await expect(page.getByTestId('overview-sync')).toContainText('Conflict: digest mismatch');
  await page.getByRole('button', { name: 'Verify all' }).click();
  await openDestination(page, 'runbook-prod');
  await openTab(page, 'Overview');
  await expect(page.getByTestId('overview-health')).toContainText('outputs differ from what the state records', { timeout: 20_000 });
  await expect(page.getByTestId('overview-sync')).toContainText('Manifest matches, outputs drifted');
  await expect(page.getByTestId('overview-sync')).toContainText('Repair restores them');
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'sync-overview-drifted');
});

test('three drifted destinations are repaired together: one confirmation listing each, applied one by one', async ({
  page,
  demoWorkspace,
  serveWorkspace,
  saveScreenshot,
}) => {
  test.slow();
  const root = path.dirname(demoWorkspace);
  const dest = (id: string, ...rest: string[]) => path.join(root, 'destinations', id, ...rest);
  const logo = await fs.readFile(dest('docs-eu', 'assets', 'logo.png'));
  // Edited before the host starts: a watch event for an edit made later can arrive after Verify all
  // on a loaded machine, turn a drifted row stale for a moment and take it out of "need repair".
  await fs.appendFile(dest('docs-eu', 'assets', 'logo.png'), 'edited by hand');
  await fs.appendFile(dest('release-notes', 'Changes.txt'), 'edited by hand\n');
  await page.goto((await serveWorkspace(demoWorkspace)).url);
  await waitForScan(page);
  await page.getByRole('button', { name: 'Verify all' }).click();
  await expect(page.getByRole('button', { name: 'Select all that need repair (3)' })).toBeEnabled({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Select all that need repair (3)' }).click();
  await expect(page.getByTestId('selection-count')).toHaveText('3 selected');

  // A replace has nothing to do for them, and says so once, offering the repair.
  await page.getByRole('button', { name: 'Plan replace for 3' }).click();
  await expect(page.getByTestId('bulk-plan-summary')).toContainText('Plan: 3 with nothing to do', { timeout: 20_000 });
  await expect(page.getByText('3 destinations: nothing to do (Manifest matches, outputs drifted)')).toBeVisible();
  await expect(page.getByTestId('bulk-nothing-next')).toHaveCount(1);
  await page.getByRole('button', { name: 'Plan repair for 3', exact: true }).last().click();

  await expect(page.getByTestId('bulk-repair-plan-summary')).toContainText('Plan: 3 planned', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Review and repair 3 destinations…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Repair 3 destinations?' });
  await expect(dialog.locator('[data-bulk-confirm]')).toHaveCount(3);
  await expect(dialog.locator('[data-bulk-confirm="runbook-prod"]')).toContainText(/update \d+ files?/);
  await expect(dialog.getByRole('button', { name: 'Repair 3 destinations' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'bulk-repair-confirm');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);

  await expect(page.getByTestId('bulk-repair-outcome-summary')).toHaveText('Done: 3 repaired.', { timeout: 30_000 });
  for (const id of ['docs-eu', 'release-notes', 'runbook-prod'])
    await expect(bulkRow(page, id).getByTestId('bulk-outcome')).toContainText('Repaired:');
  await expect(page.getByRole('button', { name: /^Select all that need repair \(0\)/ })).toBeDisabled({ timeout: 20_000 });
  await shootBothThemes(page, saveScreenshot, 'bulk-repair-done');

  expect((await fs.readFile(dest('docs-eu', 'assets', 'logo.png'))).equals(logo)).toBe(true);
  const journal = (await fs.readFile(path.join(root, '.inspector-history.jsonl'), 'utf8')).trim().split('\n');
  for (const id of ['docs-eu', 'release-notes', 'runbook-prod'])
    expect(journal.filter((line) => line.includes(`"${id}"`) && line.includes('"repair"'))).toHaveLength(1);
});
