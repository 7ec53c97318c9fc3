// An unmanaged destination's overview lists what is in it, as the engine found it (lstat, links not
// followed), and no overview claims a state file follows the contract where there is none (issue 12).

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openDestination, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test('an unmanaged destination’s overview lists its first entries and a count, a link named and not followed', async ({
  appPage: page,
  demoWorkspace,
  tempDir,
  saveScreenshot,
}) => {
  // A link out of the destination, to a folder with a file in it: listed as a link, never entered.
  const outside = path.join(tempDir, 'outside');
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), 'never listed');
  await fs.symlink(outside, path.join(path.dirname(demoWorkspace), 'destinations', 'legacy-site', 'shared'));

  await waitForScan(page);
  await openDestination(page, 'legacy-site');
  const contents = page.getByRole('region', { name: 'What is in it' });
  await expect(contents.getByTestId('contents-count')).toHaveText(/^4 entries: 2 files \(\d+ B\), 1 folder, 1 symbolic link\.$/);
  const rows = contents.getByTestId('contents-table').locator('tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText('images/');
  await expect(rows.nth(0)).toContainText('folder');
  await expect(contents.locator('tr[data-entry="index.html"]')).toContainText('file');
  await expect(contents.locator('tr[data-entry="shared"]')).toContainText(`symbolic link to ${outside} (not followed)`);
  await expect(contents.locator('tr[data-entry="images/banner.gif"]')).toContainText('6 B');
  await expect(contents).not.toContainText('secret.txt');

  const issues = page.getByRole('region', { name: 'Warnings and errors' });
  await expect(issues).toHaveText(/None: there is no state file to check\./);
  await expect(page.getByText('the state file follows the contract')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'overview-unmanaged');
});

test('an empty destination’s overview never says a state file follows the contract', async ({ appPage: page }) => {
  await waitForScan(page);
  await openDestination(page, 'status-new');
  await expect(page.getByText(/Empty: nothing published here yet/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Warnings and errors' })).toHaveText(/None: there is no state file to check\./);
  await expect(page.getByText('the state file follows the contract')).toHaveCount(0);
});
