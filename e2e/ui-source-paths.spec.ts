// Paths typed in Compare and Open (issue 12): a relative path is read from the workspace's folder, not
// the host's working directory, `~` is the home of the user running the engine, and the browser host
// offers the workspace's own source bundles in a list, each named with what its manifest says.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, waitForScan } from './uiHelpers';

test("a relative source in Compare is read from the workspace's folder", async ({ appPage: page, demoWorkspace }) => {
  const root = path.dirname(demoWorkspace);
  await waitForScan(page);
  await openDestination(page, 'docs-eu');
  await openTab(page, 'Compare');
  await page.getByLabel('Source bundle').fill('sources/handbook-2026-05');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page.getByTestId('decision-sentence')).toContainText('newer publication of the same source');
  await expect(page.getByTestId('compare-result')).toContainText(path.join(root, 'sources', 'handbook-2026-05'));
});

test('the workspace offers its own source bundles in a list, with id and created time, and Compare uses the one picked', async ({
  appPage: page,
  saveScreenshot,
}) => {
  await waitForScan(page);
  await openDestination(page, 'docs-eu');
  await openTab(page, 'Compare');
  const list = page.getByLabel('Bundles in this workspace');
  await expect(list.locator('option')).toHaveCount(8);
  await expect(list.locator('option', { hasText: 'sources/handbook-2026-06 — handbook' })).toContainText('(configured)');
  const older = list.locator('option', { hasText: 'sources/handbook-2026-05 — handbook' });
  await expect(older).toContainText(/created 2026-05-01 09:00:00 UTC/);
  await list.selectOption({ label: (await older.textContent())! });
  await expect(page.getByLabel('Source bundle')).toHaveValue(/sources\/handbook-2026-05$/);
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page.getByTestId('decision-sentence')).toContainText('newer publication of the same source');
  expect(await seriousViolations(page)).toEqual([]);
  await saveScreenshot(page, 'ui-compare-bundle-list');
  // The browser host has no folder picker: the list is its way to pick.
  await expect(page.getByRole('button', { name: 'Choose folder…' })).toHaveCount(0);
});

test("a relative path in Open is read from the open workspace's folder, and ~ is the engine user's home", async ({
  page,
  startHost,
  demoWorkspace,
  tempDir,
}) => {
  const root = path.dirname(demoWorkspace);
  const home = path.join(tempDir, 'home');
  await fs.cp(path.join(root, 'sources', 'handbook-2026-05'), path.join(home, 'bundles', 'old'), { recursive: true });
  const host = await startHost(demoWorkspace, { env: { HOME: home } });
  await page.goto(host.url);
  await waitForScan(page);

  await openDestination(page, 'docs-eu');
  await openTab(page, 'Compare');
  await page.getByLabel('Source bundle').fill('~/bundles/old');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page.getByTestId('decision-sentence')).toContainText('newer publication of the same source');
  await expect(page.getByTestId('compare-result')).toContainText(path.join(home, 'bundles', 'old'));

  await page.getByRole('button', { name: 'Open…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a workspace' });
  await expect(dialog).toContainText(`read from the open workspace's folder ${root}`);
  await dialog.getByLabel('Workspace folder or distributor-inspector.json').fill('destinations');
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('.workspace-name span')).toHaveText(path.join(root, 'destinations'));
  await waitForScan(page);
  // Its subfolders are the destinations now, listed by folder name.
  await openDestination(page, 'runbook-prod');
});
