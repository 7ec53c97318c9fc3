// The auto-verify switch (issue 24, section 2) in real Chromium against the browser host: turned off in
// the status bar, a nested output edited after Verify all leaves its row stale with the reason (never
// intact, never verified by itself); the setting survives a reload of the page and a new host run (the
// user's state folder: a temp one here); turned on again, the next edit is verified by itself.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { waitForScan } from './uiHelpers';

const withOwnStateFolder = test.extend({
  host: async ({ startHost, demoWorkspace, tempDir }, use) => {
    await use(await startHost(demoWorkspace, { env: { XDG_STATE_HOME: path.join(tempDir, 'state') } }));
  },
});

withOwnStateFolder(
  'auto-verify turned off in the status bar: an edited nested output leaves its row stale; turned on, the next edit is verified by itself',
  async ({ appPage: page, demoWorkspace, tempDir, saveScreenshot }) => {
    await waitForScan(page);
    const row = (name: string) => page.getByRole('option', { name: new RegExp(`^${name}\\b`) });
    const mark = (name: string) => row(name).locator('[data-verify-mark]');
    const toggle = page.getByRole('checkbox', { name: 'auto-verify' });
    await expect(toggle).toBeChecked();
    await page.getByRole('button', { name: 'Verify all' }).click();
    await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 8 intact, 1 drifted, 8 not verifiable · v/, { timeout: 20_000 });

    await toggle.uncheck();
    await expect(toggle).not.toBeChecked();
    const preferences = path.join(tempDir, 'state', 'distributor-inspector', 'preferences.json');
    await expect.poll(async () => fs.readFile(preferences, 'utf8').catch(() => ''), { timeout: 5_000 }).toContain('"autoVerify": false');

    const destinations = path.join(path.dirname(demoWorkspace), 'destinations');
    await fs.appendFile(path.join(destinations, 'docs-eu', 'guide', 'install.html'), '<!-- edited on the server -->\n');
    await expect(mark('docs-eu')).toHaveText('stale — verify again', { timeout: 6_000 });
    await expect(mark('docs-eu')).toHaveAttribute('title', /was intact, .*stale — verify again/);
    await saveScreenshot(page, 'auto-verify-off');

    // The page read again asks the engine: still off.
    await page.reload();
    await waitForScan(page);
    await expect(page.getByRole('checkbox', { name: 'auto-verify' })).not.toBeChecked();

    await page.getByRole('checkbox', { name: 'auto-verify' }).check();
    await expect.poll(async () => fs.readFile(preferences, 'utf8'), { timeout: 5_000 }).toContain('"autoVerify": true');
    await page.getByRole('button', { name: 'Verify all' }).click();
    await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 7 intact, 2 drifted, 8 not verifiable · v/, { timeout: 20_000 });
    await fs.appendFile(path.join(destinations, 'docs-us', 'guide', 'install.html'), '<!-- edited on the server -->\n');
    await expect(mark('docs-us')).toHaveText('drifted', { timeout: 6_000 });
  },
);
