// One set of counts and one confirmation rule (issue 28 §5, §6), in real Chromium against the built
// browser host: a repair no longer applies on one click; its button opens a confirmation that names
// the counts (backed up, so one explicit button), and the result and the History tab say what it did
// in the same words. A first publish into an empty folder is a "Publish: create … files".

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { recoveryFixture } from './recoveryFixture';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test('a repair asks one confirmation naming its counts, and its result and history say the same counts', async ({
  page,
  tempDir,
  serveWorkspace,
  saveScreenshot,
}) => {
  // A repair, its history and three screens in both themes: more than the default 30 s on a shared machine.
  test.setTimeout(120_000);
  const fixture = await recoveryFixture(tempDir);
  const report = path.join(fixture.dest, 'report.html');
  const published = await fs.readFile(report);
  await fs.writeFile(report, `${published.toString('utf8')}<p>edited on the server by hand</p>\n`);
  await fs.writeFile(path.join(fixture.dest, 'operator-notes.txt'), 'kept by the operator\n');

  const host = await serveWorkspace(fixture.workspaceFile);
  await page.goto(host.url);
  await waitForScan(page);
  await openDestination(page, 'archive');
  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: /drifted: 1 of \d+ outputs? differ/ })).toBeVisible({ timeout: 15_000 });

  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan repair' }).click();
  // The button names the counts and opens the confirmation: nothing is applied by this click.
  await page.getByRole('button', { name: 'Repair: update 1 file…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Repair archive?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('apply-confirm-counts')).toContainText('Repair: update 1 file');
  await expect(dialog.getByTestId('apply-confirm-counts')).toContainText('keep 2 files (the state file among them)');
  await expect(dialog).toContainText('kept as a backup first: Undo puts it back');
  expect((await fs.readFile(report, 'utf8')).endsWith('<p>edited on the server by hand</p>\n')).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'counts-repair-confirm');

  await dialog.getByRole('button', { name: 'Repair: update 1 file' }).click();
  const done = page.getByRole('status').filter({ hasText: /^Repaired/ });
  await expect(done).toBeVisible({ timeout: 15_000 });
  await expect(done.getByTestId('apply-done-counts')).toContainText('Updated 1 file, kept 2 files (the state file among them)');
  expect(await fs.readFile(report)).toEqual(published);
  await shootBothThemes(page, saveScreenshot, 'counts-repair-done');

  await openTab(page, 'History');
  const row = page.getByRole('row').filter({ hasText: 'repair' }).first();
  await expect(row).toContainText('updated 1 file, kept 2 files (the state file among them)');
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'counts-repair-history');
});

test('a first publish into an empty folder is a Publish that creates its files, and says so to the end', async ({
  page,
  tempDir,
  serveWorkspace,
  saveScreenshot,
}) => {
  test.setTimeout(90_000);
  const fixture = await recoveryFixture(tempDir);
  const empty = path.join(path.dirname(fixture.workspaceFile), 'fresh');
  await fs.mkdir(empty);
  const workspace = JSON.parse(await fs.readFile(fixture.workspaceFile, 'utf8')) as { destinations: Record<string, unknown>[] };
  const archive = workspace.destinations[0]!;
  workspace.destinations.push({ ...archive, path: 'fresh', destination_id: 'fresh' });
  await fs.writeFile(fixture.workspaceFile, JSON.stringify(workspace, null, 2));

  const host = await serveWorkspace(fixture.workspaceFile);
  await page.goto(host.url);
  await waitForScan(page);
  await openDestination(page, 'fresh');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan replace' }).click();
  const review = page.getByRole('button', { name: /^Publish: create \d+ files \(the state file among them\) from / });
  await expect(review).toBeVisible({ timeout: 15_000 });
  const words = (await review.textContent())!.replace(/ from .*$/, '');
  await review.click();
  const dialog = page.getByRole('dialog', { name: /^Replace fresh\?/ });
  await expect(dialog.getByTestId('replace-confirm-counts')).toContainText(words);
  // Nothing that is there is deleted or overwritten: the counts say only what is created.
  await expect(dialog.getByTestId('replace-confirm-counts')).not.toContainText(/Replace:|delete|update/);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'counts-first-publish');
  await dialog.getByRole('button', { name: words }).click();
  const done = page.getByRole('status').filter({ hasText: /^Replaced/ });
  await expect(done).toBeVisible({ timeout: 15_000 });
  await expect(done.getByTestId('apply-done-counts')).toContainText(words.replace(/^Publish: create/, 'Created'));
});
