// Banners carry their action (issue 28, point 9): each Overview banner has a button that opens the
// action clearing what it warns about, on its tab, in view and focused, also when that tab was left
// scrolled elsewhere: Discard staging… for an interrupted apply (named before the forced replace),
// Repair… beside drift, Open Raw state for an invalid state, Forced replace… for an unmanaged folder,
// Replace… for an empty one. An unmanaged destination's Actions tab shows only what can apply to it.
// At 1024 × 640, the shell never scrolls; axe stays clean on each screen.

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectShellFits, SMALL_WINDOW } from './shellHelpers';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test.use({ viewport: SMALL_WINDOW });

/** The banner's button, clicked from the Overview; then the section it names is focused and in view. */
async function followBanner(page: Page, button: string, tab: string, section: string) {
  await openTab(page, 'Overview');
  await page.locator('.tab-panel').getByRole('button', { name: button, exact: true }).click();
  await expect(page.getByRole('tab', { name: new RegExp(`^${tab}`) })).toHaveAttribute('aria-selected', 'true');
  const region = page.getByRole('region', { name: section, exact: true });
  await expect(region).toBeFocused();
  await expect(region.getByRole('heading', { name: section, exact: true })).toBeInViewport({ ratio: 1 });
  await expectShellFits(page);
  return region;
}

/** Leaves the tab scrolled to its end, so a banner's button must bring its section back into view. */
async function leaveScrolledToEnd(page: Page, tab: 'Actions' | 'Raw state') {
  await openTab(page, tab);
  await page.locator('.tab-panel').evaluate((panel) => panel.scrollTo({ top: panel.scrollHeight }));
  await expect.poll(() => page.locator('.tab-panel').evaluate((panel) => panel.scrollTop)).toBeGreaterThan(0);
}

test('the interrupted banner names Discard staging first and its button lands on it, focused and in view', async ({
  appPage: page,
  saveScreenshot,
}) => {
  test.setTimeout(90_000);
  await waitForScan(page);
  await openDestination(page, 'docs-latam');
  const banner = page.locator('.callout').filter({ hasText: 'A replace was interrupted here' });
  const words = (await banner.textContent()) ?? '';
  expect(words.indexOf('Discard staging removes only that folder')).toBeGreaterThan(-1);
  expect(words.indexOf('Discard staging')).toBeLessThan(words.indexOf('a forced replace clears it too'));
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'banner-interrupted');

  await leaveScrolledToEnd(page, 'Actions');
  const discard = await followBanner(page, 'Discard staging…', 'Actions', 'Discard staging');
  await expect(discard.getByRole('button', { name: 'Plan discarding staging' })).toBeInViewport();
  // Tab from the section reaches its own button first.
  await page.keyboard.press('Tab');
  await expect(discard.getByRole('button', { name: 'Plan discarding staging' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'banner-discard-staging-landed');
});

test('drift found by verify offers Repair… in Sync and health, which lands on Repair', async ({ appPage: page, saveScreenshot }) => {
  test.setTimeout(90_000);
  await waitForScan(page);
  await openDestination(page, 'runbook-prod');
  // Not verified yet: nothing says it drifted, so no Repair… either.
  await expect(page.getByTestId('overview-health').getByRole('button', { name: 'Repair…' })).toHaveCount(0);
  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'drifted: 5 of 6 outputs differ' })).toBeVisible({ timeout: 15_000 });

  await openTab(page, 'Overview');
  const health = page.getByTestId('overview-health');
  await expect(health.getByRole('button', { name: 'Repair…' })).toBeVisible();
  // One wording: the sync sentence names the same action the button opens.
  await expect(page.getByTestId('overview-sync')).toContainText('Actions → Repair');
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'banner-drift-repair');

  await leaveScrolledToEnd(page, 'Actions');
  const repair = await followBanner(page, 'Repair…', 'Actions', 'Repair');
  await expect(repair.getByRole('button', { name: 'Plan repair' })).toBeInViewport();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'banner-repair-landed');
});

test('the invalid banner opens Raw state on its issues', async ({ appPage: page, saveScreenshot }) => {
  await waitForScan(page);
  await openDestination(page, 'broken-sha');
  await expect(page.locator('.callout').filter({ hasText: 'The state file is invalid' })).toBeVisible();
  const issues = await followBanner(page, 'Open Raw state', 'Raw state', '1 issue');
  await expect(issues.getByRole('list', { name: 'Issues in the state file' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'banner-raw-state-landed');
});

test('an unmanaged destination: Forced replace… lands on it, and its Actions tab offers only what can apply', async ({
  appPage: page,
  saveScreenshot,
}) => {
  test.setTimeout(90_000);
  await waitForScan(page);
  await openDestination(page, 'legacy-site');
  await expect(page.locator('.callout').filter({ hasText: 'Unmanaged: files, but no state file' })).toBeVisible();
  const forced = await followBanner(page, 'Forced replace…', 'Actions', 'Forced replace');
  await expect(forced.getByRole('button', { name: 'Plan forced replace' })).toBeInViewport();

  const panel = page.locator('.tab-panel');
  await expect(panel.getByRole('heading', { name: 'Plan from' })).toHaveCount(1);
  await expect(panel.getByRole('heading', { name: 'Forced replace' })).toHaveCount(1);
  for (const gone of ['Replace', 'Repair', 'Discard staging'])
    await expect(panel.getByRole('heading', { name: gone, exact: true })).toHaveCount(0);
  for (const gone of ['Plan replace', 'Plan repair']) await expect(panel.getByRole('button', { name: gone, exact: true })).toHaveCount(0);
  await expect(page.getByTestId('actions-not-offered')).toHaveText(/^Replace and Repair are not offered: no state file records/);
  await expectShellFits(page);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'banner-unmanaged-actions');
});

test('the empty banner opens Replace, the first publish, and Repair is not offered there', async ({ appPage: page }) => {
  await waitForScan(page);
  await openDestination(page, 'status-new');
  await expect(page.locator('.callout').filter({ hasText: 'Empty: nothing published here yet' })).toBeVisible();
  const replace = await followBanner(page, 'Replace…', 'Actions', 'Replace');
  await expect(replace.getByRole('button', { name: 'Plan replace' })).toBeInViewport();
  await expect(page.locator('.tab-panel').getByRole('heading', { name: 'Repair', exact: true })).toHaveCount(0);
  await expect(page.getByTestId('actions-not-offered')).toContainText('Repair is not offered');
  expect(await seriousViolations(page)).toEqual([]);
});
