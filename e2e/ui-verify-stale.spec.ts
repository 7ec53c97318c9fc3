// A verify result belongs to the disk as it was (issue 12, seen 1): Verify all, then an output removed
// on disk, then Rescan. The row, the header, the Outputs tab and the status bar must stop calling the
// destination intact: they say "stale — verify again" and why, the stale chip counts it, and a new
// verify finds the drift. Before the stamp and the freshness rule, all of them stayed a green "intact".

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test as base } from './fixtures';

// Auto-verify off: these hold the stale marks themselves (e2e/ui-verify-fresh.spec.ts has it on).
const test = base.extend({
  host: async ({ startHost, demoWorkspace }, use) => {
    await use(await startHost(demoWorkspace, { env: { DISTRIBUTOR_INSPECTOR_AUTO_VERIFY: 'off' } }));
  },
});
import { openDestination, openTab, seriousViolations, waitForScan } from './uiHelpers';

const RESCAN_REASON = 'files in the destination changed since';
const WATCH_REASON = 'a change on disk was seen since';

test('after Verify all and an output deleted on disk, Rescan shows the destination stale with its reason, never intact', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  await waitForScan(page);
  const health = page.getByRole('group', { name: 'Filter by health (any of)' });
  const chip = (name: RegExp) => health.getByRole('button', { name });
  const row = page.getByRole('option', { name: /^docs-apac\b/ });
  await expect(chip(/^stale\s*0$/)).toBeVisible();

  await page.getByRole('button', { name: 'Verify all' }).click();
  await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 8 intact, 1 drifted, 8 not verifiable · v/, { timeout: 20_000 });
  await openDestination(page, 'docs-apac');
  const header = page.locator('.detail-header');
  await expect(header.locator('[data-verify-mark]')).toHaveText('intact');
  await expect(header.getByTestId('verify-freshness')).toHaveText('verified just now');
  await expect(row.locator('[data-verify-mark]')).toHaveAttribute('title', 'verify: intact, verified just now');

  await fs.rm(path.join(path.dirname(demoWorkspace), 'destinations', 'docs-apac', 'index.html'));
  await page.getByRole('button', { name: /Rescan/ }).click();

  await expect(row.locator('[data-verify-mark]')).toHaveText('stale — verify again', { timeout: 15_000 });
  // Two true reasons race: Rescan's read finds the listing changed, and the folder's watch (auto-verify
  // off, watching on) may report the removal first on a loaded machine. Whichever came first, every
  // view says the same one.
  const title = await row.locator('[data-verify-mark]').getAttribute('title');
  const reason = [RESCAN_REASON, WATCH_REASON].find(
    (candidate) => title === `verify: was intact, verified just now; ${candidate}: stale — verify again`,
  );
  expect(reason, `the row's title: ${title}`).toBeDefined();
  await expect(header.locator('[data-verify-mark]')).toHaveText('stale — verify again');
  await expect(header.getByTestId('verify-freshness')).toHaveText(`was intact, verified just now; ${reason}`);
  await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 7 intact, 1 drifted, 1 stale, 8 not verifiable · v/);
  await expect(chip(/^stale\s*1$/)).toBeVisible();
  await expect(chip(/^intact\s*7$/)).toBeVisible();

  await openTab(page, 'Outputs');
  await expect(page.getByTestId('outputs-verify-stale')).toContainText(`${reason}: stale — verify again`);
  await expect(page.getByText('intact: every output matches its record')).toHaveCount(0);
  await expect(page.locator('tr[data-output="index.html"]')).toContainText('was ok');
  expect(await seriousViolations(page)).toEqual([]);
  await saveScreenshot(page, 'verify-stale');

  // The stale chip finds it; a new verify replaces the stale result with what the disk holds now.
  await page.getByRole('searchbox', { name: /Search destinations/ }).fill('');
  await chip(/^stale/).click();
  await expect(page.getByRole('listbox', { name: 'Destinations' }).getByRole('option')).toHaveCount(1);
  await chip(/^stale/).click();
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(header.locator('[data-verify-mark]')).toHaveText('drifted', { timeout: 15_000 });
  await expect(page.locator('tr[data-output="index.html"]')).toContainText('missing');
  await expect(chip(/^stale\s*0$/)).toBeVisible();
  await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 7 intact, 2 drifted, 8 not verifiable · v/);
});
