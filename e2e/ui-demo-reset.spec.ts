// The app's own demo is the user's workspace: kept as it is, and made afresh only when asked, from
// the toolbar's Reset demo workspace… with a confirmation that says what goes. Real Chromium, real files.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test('Reset demo… says what goes, then makes the demo afresh and opens it again', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  test.slow();
  const root = path.dirname(demoWorkspace);
  const page_ = path.join(root, 'destinations', 'docs-eu', 'index.html');
  const published = await fs.readFile(page_, 'utf8');
  await fs.writeFile(page_, 'edited by hand\n');
  await fs.writeFile(path.join(root, 'destinations', 'docs-eu', 'added-by-an-apply.html'), 'new\n');
  await fs.writeFile(path.join(root, '.inspector-history.jsonl'), '{"one":1}\n{"two":2}\n');
  await waitForScan(page);

  await page.getByRole('button', { name: 'Reset demo workspace…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Reset demo workspace?' });
  await expect(dialog.getByTestId('reset-demo-scope')).toContainText(
    'What goes: 0 backups, its history (2 records), 1 path added to its destinations, and every change made to its destinations and sources. This cannot be undone.',
  );
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'demo-reset-confirm');

  await dialog.getByRole('button', { name: 'Reset the demo workspace' }).click();
  await expect(dialog).toHaveCount(0, { timeout: 20_000 });
  await waitForScan(page);
  expect(await fs.readFile(page_, 'utf8')).toBe(published);
  await expect(fs.access(path.join(root, '.inspector-history.jsonl'))).rejects.toThrow();
  await expect(fs.access(path.join(root, 'destinations', 'docs-eu', 'added-by-an-apply.html'))).rejects.toThrow();
});

test('Reset demo… refuses, removing nothing, while the folder holds a file the demo did not write', async ({
  appPage: page,
  demoWorkspace,
}) => {
  const root = path.dirname(demoWorkspace);
  await fs.writeFile(path.join(root, 'my-notes.txt'), 'mine\n');
  await waitForScan(page);
  await page.getByRole('button', { name: 'Reset demo workspace…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Reset demo workspace?' });
  await expect(dialog.getByRole('alert')).toContainText('Nothing will be removed while it holds my-notes.txt');
  await expect(dialog.getByRole('button', { name: 'Reset the demo workspace' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await fs.readFile(path.join(root, 'my-notes.txt'), 'utf8')).toBe('mine\n');
});
