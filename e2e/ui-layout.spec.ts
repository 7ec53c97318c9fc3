// The operator's window, at the smallest size the app is laid out for (1024 × 640): a plan, a
// refusal or a diff the user asked for opens in view with the focus; the shell never scrolls (only
// panes do); the toolbar holds one line and the Outputs table moves the columns that do not fit into
// each row's detail; the list's compact density and grouping, kept across a reload; each tab opens
// at its top or where the user left it. axe stays clean on each screen.

import { expect, test } from './fixtures';
import { expectShellFits, SMALL_WINDOW } from './shellHelpers';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test.use({ viewport: SMALL_WINDOW });

test('a diff, a repair plan and a forced replace plan open in view and take the focus; the shell never scrolls', async ({
  appPage: page,
  saveScreenshot,
}) => {
  // Three axe passes and screenshots on a shared 2-core machine.
  test.setTimeout(90_000);
  await waitForScan(page);
  await openDestination(page, 'runbook-prod');
  await expectShellFits(page);

  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'drifted: 5 of 6 outputs differ' })).toBeVisible();
  await expectShellFits(page);
  await page.getByRole('button', { name: 'Diff checklists/rollback.txt' }).click();
  const diffHeading = page.getByRole('heading', { name: 'How checklists/rollback.txt changed on disk' });
  await expect(diffHeading).toBeFocused();
  await expect(diffHeading).toBeInViewport();
  await expect(page.getByRole('toolbar').or(page.locator('header.toolbar'))).toBeInViewport();
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'layout-diff-in-view');

  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan repair' }).click();
  const repair = page.getByRole('region', { name: 'Repair plan' });
  await expect(repair).toBeFocused();
  await expect(repair.getByTestId('repair-summary')).toBeInViewport();
  await expectShellFits(page);
  await shootBothThemes(page, saveScreenshot, 'layout-repair-plan-in-view');

  await page.getByRole('button', { name: 'Plan forced replace' }).click();
  const forced = page.getByRole('region', { name: 'Forced replace plan' });
  await expect(forced).toBeFocused();
  await expect(forced.getByRole('button', { name: 'Review and force replace…' })).toBeInViewport();
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'layout-forced-plan-in-view');

  // The status bar is whole, the toolbar still at the top.
  const bar = await page.locator('footer.statusbar').boundingBox();
  expect(bar!.y + bar!.height).toBeLessThanOrEqual(SMALL_WINDOW.height);
  expect((await page.locator('header.toolbar').boundingBox())!.y).toBe(0);
});

test('at 1024 × 640 the toolbar holds one line and the Outputs table moves Size, sha256 and URL into each row', async ({
  appPage: page,
  saveScreenshot,
}) => {
  await waitForScan(page);
  const toolbar = await page.locator('header.toolbar').boundingBox();
  expect(toolbar!.height, 'the toolbar wrapped').toBeLessThan(56);
  for (const name of ['Open…', 'Rescan', 'Verify all', 'Export JSON', 'Export CSV', 'History', 'Keyboard shortcuts'])
    await expect(page.getByRole('button', { name, exact: true })).toBeInViewport({ ratio: 1 });

  await openDestination(page, 'docs-us');
  await openTab(page, 'Outputs');
  const table = page.getByRole('table', { name: 'Outputs recorded in the state file' });
  await expect(table.getByRole('columnheader', { name: 'sha256' })).toBeHidden();
  const first = table.getByRole('row').nth(1);
  await expect(first.getByRole('term').filter({ hasText: 'sha256' })).toBeVisible();
  await expect(first.getByRole('button', { name: /^Copy sha256 of/ })).toBeInViewport();
  await expect(first.getByRole('term').filter({ hasText: 'Size' })).toBeVisible();
  const wrap = await page.locator('.table-wrap').evaluate((element) => element.scrollWidth <= element.clientWidth);
  expect(wrap, 'the table scrolls sideways').toBe(true);
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'layout-outputs-1024');

  // Wide enough again, the columns come back.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(table.getByRole('columnheader', { name: 'sha256' })).toBeVisible();
  await expect(first.getByRole('term').filter({ hasText: 'sha256' })).toBeHidden();
});

test('the list in compact density and grouped by pipeline, both kept across a reload', async ({ appPage: page, saveScreenshot }) => {
  await waitForScan(page);
  const list = page.getByRole('listbox', { name: 'Destinations' });
  const firstRow = list.getByRole('option').first();
  expect((await firstRow.boundingBox())!.height).toBe(58);
  // How many rows the list shows whole, in its own viewport.
  const rowsInView = () =>
    list.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return [...element.querySelectorAll('[role="option"]')].filter((row) => {
        const rect = row.getBoundingClientRect();
        return rect.top >= box.top && rect.bottom <= box.bottom;
      }).length;
    });
  const shownBefore = await rowsInView();

  await page.getByRole('button', { name: 'Compact' }).click();
  await expect(page.getByRole('button', { name: 'Compact' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await firstRow.boundingBox())!.height).toBe(28);
  expect(await rowsInView()).toBeGreaterThanOrEqual(shownBefore * 2);

  await page.getByLabel('Group').selectOption('pipeline');
  const headers = page.locator('.group-header');
  await expect(headers.first()).toBeVisible();
  await expect(headers.filter({ hasText: 'handbook-docs' })).toBeVisible();
  // Each group's rows together: the first header's rows before the second header.
  const order = await page
    .locator('.destination-list [data-destination], .destination-list .group-header')
    .evaluateAll((elements) =>
      [...elements]
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
        .map((element) => (element.classList.contains('group-header') ? `# ${element.querySelector('.group-label')!.textContent}` : '')),
    );
  expect(order[0]).toMatch(/^# /);
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'layout-compact-grouped');

  await page.reload();
  await waitForScan(page);
  await expect(page.getByRole('button', { name: 'Compact' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('Group')).toHaveValue('pipeline');
  await expect(page.locator('.group-header').first()).toBeVisible();
  expect((await list.getByRole('option').first().boundingBox())!.height).toBe(28);

  await page.getByLabel('Group').selectOption('host');
  await expect(page.locator('.group-header').filter({ hasText: 'this machine' })).toBeVisible();
});

test('each tab opens at its top, or where the user left it', async ({ appPage: page, saveScreenshot }) => {
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  await openTab(page, 'Actions');
  const panel = page.getByRole('tabpanel');
  await panel.evaluate((element) => (element.scrollTop = element.scrollHeight));
  const left = await panel.evaluate((element) => element.scrollTop);
  expect(left).toBeGreaterThan(100);

  await openTab(page, 'Overview');
  await expect.poll(() => panel.evaluate((element) => element.scrollTop)).toBe(0);
  await openTab(page, 'Outputs');
  await expect.poll(() => panel.evaluate((element) => element.scrollTop)).toBe(0);
  await openTab(page, 'Actions');
  await expect.poll(() => panel.evaluate((element) => element.scrollTop)).toBe(left);
  await expect(page.getByRole('heading', { name: 'Forced replace' })).toBeInViewport();

  // Another destination's Actions tab opens at its top.
  await openDestination(page, 'docs-eu');
  await expect.poll(() => panel.evaluate((element) => element.scrollTop)).toBe(0);
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'layout-tab-top');
});
