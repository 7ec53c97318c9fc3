// Errors that say exactly what is wrong (issue 12), in the real renderer against the real engine:
// a drifted output shows what is on disk beside its record; a state file that is not JSON is marked at
// the line where it stops being JSON.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openDestination, openTab, waitForScan } from './uiHelpers';

test('a drifted output shows the size or hash on disk beside the record, and what stands where a file was', async ({ appPage: page }) => {
  await waitForScan(page);
  await openDestination(page, 'runbook-prod');
  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'drifted: 5 of 6 outputs differ' })).toBeVisible();
  const problemOf = (output: string) => page.locator(`tr[data-output="${output}"]`).getByTestId('output-problem');
  await expect(problemOf('checklists/deploy.txt')).toContainText(/size on disk \d+ bytes, recorded \d+ bytes/);
  await expect(problemOf('checklists/rollback.txt')).toContainText(/sha256 on disk sha256:[0-9a-f]{64}, recorded sha256:[0-9a-f]{64}/);
  await expect(problemOf('escalation.txt')).toHaveText('not a regular file: a symbolic link to index.html (not followed)');
  await expect(problemOf('diagrams/topology.txt')).toHaveText('not a regular file: a directory');
  await expect(problemOf('contacts.txt')).toHaveText('missing: nothing stands at this path');
});

test('a state file cut off mid-write is marked at the line where it stops, with line and column', async ({
  appPage: page,
  demoWorkspace,
}) => {
  const text = await fs.readFile(path.join(path.dirname(demoWorkspace), 'destinations', 'broken-json', '.distributor.json'), 'utf8');
  const lastLine = text.trimEnd().split('\n').length;
  expect(lastLine).toBeGreaterThan(10);

  await waitForScan(page);
  await openDestination(page, 'broken-json');
  await openTab(page, 'Raw state');
  const issue = page.getByRole('button', { name: /\(document\)/ });
  await expect(issue).toContainText(`not valid JSON: line ${lastLine}, column`);
  await expect(issue).toContainText('cut off');
  await expect(issue).toContainText(new RegExp(`line ${lastLine}, column \\d+$`));
  await issue.click();
  await expect(page.locator('.raw-line.active')).toHaveAttribute('data-line', String(lastLine));
  await expect(page.locator('.raw-line.active')).toContainText(text.trimEnd().split('\n').at(-1)!.trim());
});

test('a tab opened without the token says the token is missing and where the address with it is printed', async ({ page, host }) => {
  await page.goto(`${host.origin}/`);
  await expect(page.getByRole('heading', { name: 'This tab has no access token' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('distributor-inspector serve');
  await expect(page.getByRole('alert')).toContainText('Open: http://127.0.0.1:PORT/#token=');
  await expect(page.getByRole('heading', { name: 'Open a workspace' })).toHaveCount(0);

  // Another run's token: said so, not called missing.
  await page.goto(`${host.origin}/#token=${'0'.repeat(host.token.length)}`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'This tab’s access token is not accepted' })).toBeVisible();

  // With the printed address the app opens as usual.
  await page.goto(host.url);
  await page.reload();
  await expect(page.getByRole('listbox', { name: 'Destinations' })).toBeVisible();
});
