// Issue 28, point 10: an unmanaged folder is compared with a source bundle before anything is deleted
// (each file matches, differs, is missing or is extra) and adopted without deleting: the state file
// written, the extra file kept, no other byte moved; the destination then shows managed and intact.
// A folder whose files differ names them and points at the forced replace.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { expectShellFits } from './shellHelpers';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test('the demo’s copied status page is compared with its source, adopted, and then managed and intact', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  test.setTimeout(90_000);
  const dest = path.join(path.dirname(demoWorkspace), 'destinations', 'status-copied');
  const robots = await fs.readFile(path.join(dest, 'robots.txt'));
  await waitForScan(page);
  await openDestination(page, 'status-copied');
  await openTab(page, 'Actions');
  const panel = page.locator('.tab-panel');
  await panel.getByRole('button', { name: 'Compare with the source bundle' }).click();

  const result = page.getByTestId('folder-compare-result');
  await expect(result.getByTestId('folder-compare-counts')).toContainText('2 match · 0 differ · 0 missing · 1 extra');
  await expect(result.locator('tr[data-status="matches"]')).toHaveCount(2);
  await expect(result.locator('tr[data-status="extra"]')).toContainText('robots.txt');
  await expect(result.locator('tr[data-status="matches"]').filter({ hasText: 'index.html' })).toContainText('generated from index.md');
  // The counts filter the table.
  await result.getByTestId('folder-filter-extra').click();
  await expect(result.locator('tbody tr')).toHaveCount(1);
  await result.getByTestId('folder-filter-all').click();
  await expect(result.locator('tbody tr')).toHaveCount(3);
  await expect(result).toBeInViewport();
  expect(await seriousViolations(page)).toEqual([]);
  await expectShellFits(page);
  await shootBothThemes(page, saveScreenshot, 'adopt-compare');

  await result.getByRole('button', { name: 'Adopt…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adopt status-copied?' });
  await expect(dialog.getByTestId('adopt-confirm-writes')).toContainText(
    'Write only .distributor.json, recording 2 files already in place; no other byte is written, moved or deleted; 1 extra entry stays as it is.',
  );
  await expect(dialog.getByRole('button', { name: 'Adopt: write the state file' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'adopt-confirm');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);

  await expect(panel.getByRole('status').filter({ hasText: 'Adopted' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('managed');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('intact');
  await expect(page.getByRole('option', { name: /^status-copied/ })).toContainText('intact');
  expect(await fs.readFile(path.join(dest, 'robots.txt'))).toEqual(robots);
  await expect(fs.access(path.join(dest, '.distributor.json'))).resolves.toBeUndefined();
  await shootBothThemes(page, saveScreenshot, 'adopt-done');

  // Journaled like every apply.
  await openTab(page, 'History');
  await expect(page.locator('.tab-panel')).toContainText(/adopt/i);
});

test('a legacy folder whose files differ says which stop an adopt, and points at the forced replace', async ({ appPage: page }) => {
  await waitForScan(page);
  await openDestination(page, 'legacy-site');
  await openTab(page, 'Compare');
  const panel = page.locator('.tab-panel');
  await panel.getByRole('button', { name: 'Compare with the source bundle' }).click();
  const blockers = page.getByTestId('adopt-blockers');
  await expect(blockers).toContainText('This folder cannot be adopted');
  await expect(blockers).toContainText('index.html');
  await expect(blockers).toContainText('style.css');
  await blockers.getByRole('button', { name: 'Go to Forced replace' }).click();
  await expect(page.getByRole('tab', { name: /^Actions/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.tab-panel').getByRole('button', { name: 'Plan forced replace' })).toBeInViewport();
});
