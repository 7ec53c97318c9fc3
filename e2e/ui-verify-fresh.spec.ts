// Verify that stays fresh (issue 24): after Verify all, an output one folder down deleted and another
// edited in place, with no click. Live refresh sees both at any depth, and auto-verify (on by default)
// verifies the two destinations again through the stat cache: their rows say drifted, never intact,
// within seconds; the exported report agrees; Rescan afterwards never shows intact.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, openWithClient, test } from './fixtures';
import { waitForScan } from './uiHelpers';

test('a nested output deleted and another edited after Verify all: the rows turn drifted by themselves, the export agrees, Rescan never shows intact', async ({
  appPage: page,
  host,
  demoWorkspace,
  saveScreenshot,
}) => {
  await waitForScan(page);
  const row = (name: string) => page.getByRole('option', { name: new RegExp(`^${name}\\b`) });
  await page.getByRole('button', { name: 'Verify all' }).click();
  await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 8 intact, 1 drifted, 8 not verifiable · v/, { timeout: 20_000 });
  await expect(row('docs-us').locator('[data-verify-mark]')).toHaveText('intact');
  await expect(row('docs-eu').locator('[data-verify-mark]')).toHaveText('intact');

  const destinations = path.join(path.dirname(demoWorkspace), 'destinations');
  await fs.rm(path.join(destinations, 'docs-us', 'assets', 'logo.png'));
  await fs.appendFile(path.join(destinations, 'docs-eu', 'guide', 'install.html'), '<!-- edited on the server -->\n');

  // 2 s on an idle machine; the shared CI machine gets a margin.
  await expect(row('docs-us').locator('[data-verify-mark]')).toHaveText('drifted', { timeout: 6_000 });
  await expect(row('docs-eu').locator('[data-verify-mark]')).toHaveText('drifted', { timeout: 6_000 });
  await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 6 intact, 3 drifted, 8 not verifiable · v/);

  // The exported report, asked of the same host by a second page's client.
  const api = await openWithClient(await page.context().newPage(), host.url);
  const exported = await api.invoke('exportReport', { format: 'csv' });
  if (!exported.ok) throw new Error(exported.error.message);
  const lines = exported.value.content.split('\r\n');
  const header = lines[0]!.split(',');
  const cell = (id: string, column: string) => lines.find((line) => line.startsWith(`${id},`))!.split(',')[header.indexOf(column)];
  for (const id of ['docs-us', 'docs-eu']) {
    expect(cell(id, 'verify')).toBe('drifted');
    expect(cell(id, 'freshness')).toBe('fresh');
  }

  await page.getByRole('button', { name: /Rescan/ }).click();
  await waitForScan(page);
  await expect(row('docs-us').locator('[data-verify-mark]')).not.toHaveText('intact');
  await expect(row('docs-eu').locator('[data-verify-mark]')).not.toHaveText('intact');
  await saveScreenshot(page, 'verify-fresh');
});

const autoVerifyOff = test.extend({
  host: async ({ startHost, demoWorkspace }, use) => {
    await use(await startHost(demoWorkspace, { env: { DISTRIBUTOR_INSPECTOR_AUTO_VERIFY: 'off' } }));
  },
});

autoVerifyOff(
  'auto-verify off: a nested output deleted after Verify all turns its row stale with the reason, never intact',
  async ({ appPage: page, demoWorkspace }) => {
    await waitForScan(page);
    const row = page.getByRole('option', { name: /^docs-us\b/ });
    await page.getByRole('button', { name: 'Verify all' }).click();
    await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 8 intact, 1 drifted, 8 not verifiable · v/, { timeout: 20_000 });
    await fs.rm(path.join(path.dirname(demoWorkspace), 'destinations', 'docs-us', 'assets', 'logo.png'));
    await expect(row.locator('[data-verify-mark]')).toHaveText('stale — verify again', { timeout: 6_000 });
    await expect(row.locator('[data-verify-mark]')).toHaveAttribute('title', /a change on disk was seen since: stale — verify again/);
    await page.getByRole('button', { name: /Rescan/ }).click();
    await waitForScan(page);
    await expect(row.locator('[data-verify-mark]')).toHaveText('stale — verify again');
  },
);
