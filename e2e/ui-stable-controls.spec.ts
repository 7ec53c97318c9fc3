// A control stays where it is once it can be pressed: what arrives after it (the list of source
// bundles the Actions tab offers, a re-read of the destination after a change on disk) never moves it.
// A press and its release must land on the same button, or the browser fires no click: a user whose
// button jumped between the two got nothing, and so did a test that clicked while the list was still
// on its way.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures';
import { openDestination, openTab, waitForScan } from './uiHelpers';

/** The next call of `method` from the page, held until the test lets it go. */
function holdNext(page: Page, method: string): Promise<Route> {
  return new Promise<Route>((resolve) => {
    void page.route(`**/api/${method}`, (route) => resolve(route), { times: 1 });
  });
}

test('Plan replace stays under the pointer while the bundle list arrives, and the press plans', async ({ appPage: page }) => {
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  const listing = holdNext(page, 'listSourceBundles');
  await openTab(page, 'Actions');
  const route = await listing;
  const list = page.getByLabel('Bundles in this workspace');
  await expect(list).toBeDisabled();
  const button = page.getByRole('button', { name: 'Plan replace' });
  await expect(button).toBeEnabled();
  const before = (await button.boundingBox())!;

  // Pressed while the list is on its way; released once it is shown.
  await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
  await page.mouse.down();
  await route.continue();
  await expect(list.locator('option').first()).toHaveText(/^Choose one of \d+…$/);
  expect(await button.boundingBox()).toEqual(before);
  await page.mouse.up();
  await expect(page.getByRole('button', { name: 'Plan again' })).toBeVisible();
});

test('a change on disk re-reads the open destination without moving Plan replace', async ({ appPage: page, demoWorkspace }) => {
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  await openTab(page, 'Actions');
  await expect(page.getByLabel('Bundles in this workspace').locator('option').first()).toHaveText(/^Choose one of \d+…$/);
  const button = page.getByRole('button', { name: 'Plan replace' });
  await expect(button).toBeEnabled();
  const before = (await button.boundingBox())!;

  // An extra file, as an operator leaves one: live refresh reads docs-us again, held here mid-way.
  const reread = holdNext(page, 'inspectDestination');
  await fs.writeFile(path.join(path.dirname(demoWorkspace), 'destinations', 'docs-us', 'operator-notes.txt'), 'mine\n');
  const route = await reread;
  await expect(page.getByRole('status').filter({ hasText: 'Loading docs-us…' })).toHaveCount(0);
  expect(await button.boundingBox()).toEqual(before);
  const answered = page.waitForResponse('**/api/inspectDestination');
  await route.continue();
  await answered;
});
