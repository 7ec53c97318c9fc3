// Open workspace (issue 12, "errors that say exactly what is wrong"): a workspace that does not open is
// explained in the dialog itself, not dimmed behind it, with every problem and its field (as `scan`
// lists them), and the path named once.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { seriousViolations, waitForScan } from './uiHelpers';

/** How many times `needle` occurs in `text`. */
const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

test('a workspace file with three problems lists all three in the Open dialog, each with its field, the file once', async ({
  appPage: page,
  tempDir,
  saveScreenshot,
}) => {
  const file = path.join(tempDir, 'bad', 'distributor-inspector.json');
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(
    file,
    JSON.stringify({
      schema_version: 1,
      destinations: [
        { path: '', replace_policy: 'maybe' },
        { path: 'a', base_url: 'ftp://example.com/' },
      ],
    }),
  );
  await waitForScan(page);
  await page.getByRole('button', { name: 'Open…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a workspace' });
  await dialog.getByLabel('Workspace folder or distributor-inspector.json').fill(file);
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();

  const alert = dialog.getByRole('alert');
  await expect(alert).toContainText(`Could not open ${file}`);
  await expect(alert).toContainText('3 problems');
  const problems = alert.getByRole('listitem');
  await expect(problems).toHaveCount(3);
  await expect(problems.nth(0)).toContainText('destinations[0].path: "path" must not be empty');
  await expect(problems.nth(1)).toContainText('destinations[0].replace_policy:');
  await expect(problems.nth(2)).toContainText('destinations[1].base_url: "base_url" must use http or https, not ftp');
  expect(occurrences(await dialog.innerText(), file)).toBe(1);
  // Nothing is shown behind the dialog: the status bar has no error of its own.
  await expect(page.locator('.last-error')).toHaveCount(0);
  // The dialog stays open on the field, for a corrected path; the old workspace stays open behind it.
  await expect(dialog.getByLabel('Workspace folder or distributor-inspector.json')).toHaveValue(file);
  await expect(page.getByRole('option', { name: /^docs-eu/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await saveScreenshot(page, 'ui-open-workspace-problems');
});

test('a path that does not exist is said once, in the dialog', async ({ appPage: page, tempDir }) => {
  const missing = path.join(tempDir, 'no-such-workspace');
  await waitForScan(page);
  await page.getByRole('button', { name: 'Open…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a workspace' });
  await dialog.getByLabel('Workspace folder or distributor-inspector.json').fill(missing);
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText(`Could not open ${missing}`);
  await expect(dialog.getByRole('alert').getByRole('listitem')).toHaveText('does not exist');
  expect(occurrences(await dialog.innerText(), missing)).toBe(1);
  await expect(page.locator('.last-error')).toHaveCount(0);
});
