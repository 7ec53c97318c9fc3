// Searching never moves the selection silently (issue 12): a selected destination the filter hides
// stays selected and is said to be hidden; a search with no match shows no destination at all.

import { expect, test } from './fixtures';
import { openDestination, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test('a search that hides the selected destination keeps it selected and says so; one with no match shows an empty detail pane', async ({
  appPage: page,
  saveScreenshot,
}) => {
  await waitForScan(page);
  await openDestination(page, 'runbook-prod');
  const search = page.getByRole('searchbox', { name: /Search destinations/ });
  const heading = page.getByRole('heading', { level: 1 });
  const options = page.getByRole('listbox', { name: 'Destinations' }).getByRole('option');

  // Other rows match, the selected one does not: it stays selected, and both panes say it is hidden.
  await search.fill('destinations/docs-e');
  await expect(options).toHaveCount(2);
  await expect(heading).toContainText('runbook-prod');
  await expect(page.getByTestId('selected-hidden')).toHaveText('selected, hidden by the filter');
  await expect(page.getByTestId('hidden-selection')).toHaveText(/runbook-prod is selected, hidden by the filter/);
  await expect(options.and(page.locator('[aria-selected="true"]'))).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'selection-hidden');

  // Nothing matches: no destination in the detail pane, and the selection waits for the search to clear.
  await search.fill('no-such-destination');
  await expect(page.getByRole('listbox', { name: 'Destinations' })).toHaveCount(0);
  await expect(page.getByTestId('detail-nothing-shown')).toContainText('No destination matches');
  await expect(page.getByTestId('detail-nothing-shown')).toContainText('runbook-prod stays selected, hidden by the filter');
  await expect(page.getByRole('tab', { name: /^Overview/ })).toHaveCount(0);
  await expect(page.locator('#detail-title')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'selection-nothing-shown');

  // Clearing the filters brings the same destination back, selected, in the list.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(search).toHaveValue('');
  await expect(page.getByRole('option', { name: /^runbook-prod/ })).toHaveAttribute('aria-selected', 'true');
  await expect(heading).toContainText('runbook-prod');
  await expect(page.getByTestId('selected-hidden')).toHaveCount(0);
  await expect(page.getByTestId('hidden-selection')).toHaveCount(0);
});

test('a status chip that hides the selected destination keeps it selected too', async ({ appPage: page }) => {
  await waitForScan(page);
  await openDestination(page, 'legacy-site');
  await page.getByRole('searchbox', { name: /Search destinations/ }).fill('');
  await page.getByRole('button', { name: /^invalid\s*4$/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('legacy-site');
  await expect(page.getByTestId('selected-hidden')).toBeVisible();
  // The keyboard still works from a hidden selection: it moves into the list as shown.
  await page.getByRole('listbox', { name: 'Destinations' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('broken-');
  await expect(page.getByTestId('selected-hidden')).toHaveCount(0);
});
