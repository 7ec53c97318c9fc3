// The keyboard, in the browser host at 1024 × 640: ↓ and Enter go from the search into the list, the
// search's terms are marked, letters typed in the list jump to a destination; the shortcut table's
// commands (Find, Verify all, Rescan, Export, Open) answer here as in the desktop menu; `?` opens the
// shortcut sheet, a dialog that keeps the focus and closes on Esc; chips say what they mean. A diff
// review is a walk: F8/F7 and Alt+↓/↑ through the changes, Shift+F8 to the next drifted file, the
// layout kept across a reload, an extra file viewed. axe stays clean; the shell never scrolls.

import { expect, test } from './fixtures';
import { expectShellFits, SMALL_WINDOW } from './shellHelpers';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test.use({ viewport: SMALL_WINDOW });

test('the search hands over to the list, marks its matches, and the list answers to type-ahead', async ({
  appPage: page,
  saveScreenshot,
}) => {
  await waitForScan(page);
  const search = page.getByRole('searchbox', { name: /Search destinations/ });
  const list = page.getByRole('listbox', { name: 'Destinations' });
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await page.keyboard.type('docs');
  await expect(list.locator('mark').first()).toHaveText('docs');
  await page.keyboard.press('ArrowDown');
  await expect(list).toBeFocused();
  const first = list.getByRole('option').first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(await first.getAttribute('data-destination').then(String));
  await page.keyboard.press('ArrowDown');
  await expect(list.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true');
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'keyboard-search-marks');

  // Enter does the same from the search.
  await search.fill('runbook');
  await search.press('Enter');
  await expect(list).toBeFocused();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('runbook-prod');

  // Type-ahead over the whole list: "b" finds broken-duplicate; "d" then "ru" typed together: "dr"
  // matches nothing, so "r" starts again (release-notes) and "ru" finds runbook-prod.
  await search.fill('');
  await list.focus();
  await page.keyboard.press('b');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('broken-duplicate');
  await page.keyboard.press('d');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('docs-');
  await page.keyboard.type('ru');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('runbook-prod');
  await expect(list.getByRole('option', { name: /^runbook-prod/ })).toHaveAttribute('aria-selected', 'true');

  // A chip says what its word means, as a tooltip and as its accessible description.
  const stale = page.getByRole('button', { name: /^stale/ });
  await expect(stale).toHaveAttribute('title', /verified, but the folder changed since/);
  await expect(stale).toHaveAccessibleDescription(/verify again/);
  await expect(
    page.getByRole('group', { name: 'Filter by status (any of)' }).getByRole('button', { name: /^unmanaged/ }),
  ).toHaveAccessibleDescription(/no state file/);
});

test('the shortcut table works in the browser host, and ? opens the sheet of every key', async ({ appPage: page, saveScreenshot }) => {
  await waitForScan(page);
  const search = page.getByRole('searchbox', { name: /Search destinations/ });
  await page.getByRole('listbox', { name: 'Destinations' }).focus();
  await page.keyboard.press('Control+f');
  await expect(search).toBeFocused();
  await search.blur();

  const rescan = page.waitForRequest((request) => request.url().endsWith('/reloadWorkspace'));
  await page.keyboard.press('Control+r');
  await rescan;
  // The page was not reloaded: the search still holds what it had.
  await waitForScan(page);

  const exported = page.waitForEvent('download');
  await page.keyboard.press('Control+Shift+E');
  expect((await exported).suggestedFilename()).toMatch(/\.json$/);

  // The key does what the button does, and as the button it does nothing while the page is busy
  // (a loaded machine can still be finishing the Rescan's follow-up calls here).
  await expect(page.getByRole('button', { name: 'Verify all' })).toBeEnabled();
  await page.keyboard.press('Control+Shift+A');
  await expect(page.getByTestId('status-line')).toContainText('drifted', { timeout: 20_000 });
  await expect(page.getByTestId('status-line')).toHaveAttribute('title', /drifted: the last verify found/);

  await page.keyboard.press('Control+o');
  const open = page.getByRole('dialog', { name: /Open/ });
  await expect(open).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(open).toHaveCount(0);

  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('row', { name: /Ctrl\+Shift\+A Verify all destinations/ })).toBeVisible();
  await expect(sheet.getByRole('row', { name: /F8 or Alt\+↓/ })).toBeVisible();
  const close = sheet.getByRole('button', { name: 'Close' });
  await expect(close).toBeFocused();
  // The focus stays in the sheet.
  await page.keyboard.press('Tab');
  await expect(close).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(close).toBeFocused();
  await expectShellFits(page);
  await shootBothThemes(page, saveScreenshot, 'keyboard-shortcut-sheet');
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // Typed into a field, ? is a character, not the sheet.
  await search.fill('');
  await search.press('?');
  await expect(search).toHaveValue('?');
  await expect(sheet).toHaveCount(0);
});

test('a drift review is a walk with the keyboard: changes, files, the kept layout and an extra file', async ({
  appPage: page,
  saveScreenshot,
}) => {
  test.setTimeout(60_000);
  await waitForScan(page);
  await openDestination(page, 'runbook-prod');
  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'drifted: 5 of 6 outputs differ' })).toBeVisible();
  await page.getByRole('button', { name: 'Diff checklists/deploy.txt' }).click();
  const panel = page.locator('section.content-diff-panel');
  await expect(panel.getByRole('heading', { name: 'How checklists/deploy.txt changed on disk' })).toBeFocused();
  const position = panel.getByTestId('diff-position');
  await expect(position).toContainText('1 change');

  await page.keyboard.press('F8');
  await expect(position).toHaveText('Change 1 of 1');
  await expect(panel.locator('.diff-slot.current-change').first()).toContainText('and smoke-test');
  await page.keyboard.press('Alt+ArrowUp');
  await expect(position).toHaveText('Change 1 of 1');

  // The next drifted file, and back.
  await expect(panel.getByTestId('diff-file-position')).toHaveText(/drifted file 1 of \d/);
  await page.keyboard.press('Shift+F8');
  const second = panel.getByRole('heading', { name: 'How checklists/rollback.txt changed on disk' });
  await expect(second).toBeFocused();
  await expect(panel.getByTestId('diff-file-position')).toHaveText(/drifted file 2 of \d/);
  // Its diff is fetched after the heading moves: the walk starts once its changes are counted, as above.
  await expect(position).toContainText('1 change');
  await page.keyboard.press('Alt+ArrowDown');
  await expect(panel.getByTestId('diff-position')).toHaveText('Change 1 of 1');
  await page.keyboard.press('Shift+F7');
  await expect(panel.getByRole('heading', { name: 'How checklists/deploy.txt changed on disk' })).toBeFocused();

  // Side by side, kept across a reload.
  await panel.getByRole('button', { name: 'Side by side' }).click();
  await expect(panel.getByRole('button', { name: 'Side by side' })).toHaveAttribute('aria-pressed', 'true');
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'keyboard-diff-walk');

  await page.reload();
  await waitForScan(page);
  await openDestination(page, 'runbook-prod');
  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'drifted: 5 of 6 outputs differ' })).toBeVisible();
  await page.getByRole('button', { name: 'Diff checklists/rollback.txt' }).click();
  await expect(panel.getByRole('button', { name: 'Side by side' })).toHaveAttribute('aria-pressed', 'true');
  await expect(panel.locator('.content-diff-lines.split')).toBeVisible();

  // An extra file, viewed as it is on disk.
  await page.getByRole('button', { name: 'View notes-by-hand.txt' }).click();
  const extra = panel.getByRole('heading', { name: /^Extra file notes-by-hand\.txt/ });
  await expect(extra).toBeFocused();
  await expect(extra).toBeInViewport();
  await expect(panel.getByTestId('content-diff-lines')).toBeVisible();
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'keyboard-extra-file');
});
