// The operator's UI, changing things as a user clicks: a normal replace through its confirmation, a
// forced replace that stays disabled until the destination id is typed, and a verify cancelled midway.
// After each action the disk is checked, not only the screen.

import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { stateSchema } from '../shared/documentSchemas';
import type { State } from '../shared/stateSchema';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** A state file, read as the contract reads it: a file the app left behind must still be valid. */
async function readState(file: string): Promise<State> {
  return stateSchema.parse(JSON.parse(await fs.readFile(file, 'utf8')));
}

/** Every output the state records is on disk with the recorded bytes. */
async function expectIntactOnDisk(dest: string): Promise<State> {
  const state = await readState(path.join(dest, '.distributor.json'));
  for (const output of state.outputs) {
    const bytes = await fs.readFile(path.join(dest, output.path));
    expect(sha256(bytes), output.path).toBe(output.sha256);
    expect(bytes.length).toBe(output.size);
  }
  return state;
}

test('a normal replace runs through its confirmation and the destination turns intact, on screen and on disk', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  // Three axe passes and four screenshots: on a loaded 2-core machine this runs past 30 s.
  test.slow();
  const dest = path.join(path.dirname(demoWorkspace), 'destinations', 'docs-us');
  const before = await readState(path.join(dest, '.distributor.json'));
  expect(before.source.manifest.created).toBe('2026-05-01T09:00:00Z');

  await waitForScan(page);
  await openDestination(page, 'docs-us');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan replace' }).click();
  const plan = page.getByTestId('plan-replace');
  // One row per path, like terraform plan: a path deleted and written again is one update.
  await expect(plan).toContainText('create 1 file, update 3 files (the state file among them), delete 1 file and 1 folder');
  const rows = await plan.locator('.plan-list li').evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
  expect(rows).toEqual(['update', 'unchanged', 'delete', 'delete', 'update', 'create', 'update']);
  await expect(plan.locator('.plan-list li').first()).toContainText('.distributor.json');
  // Planning changed nothing.
  expect(await readState(path.join(dest, '.distributor.json'))).toEqual(before);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'actions-plan');

  // A normal replace confirms too: a dialog that names the counts and lists every path, confirmed by Enter.
  await page.getByRole('button', { name: /^Replace: .* from handbook-2026-06…$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Replace docs-us?' });
  await expect(dialog.getByTestId('replace-confirm-counts')).toContainText('in ' + dest);
  await expect(dialog.getByTestId('plan-rows')).toContainText('.distributor.json');
  await expect(dialog.getByRole('button', { name: /^Replace: / })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^Replaced/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('intact');
  await expect(page.getByRole('option', { name: /^docs-us/ })).toContainText('intact');

  const after = await expectIntactOnDisk(dest);
  expect(after.source.manifest.created).toBe('2026-06-01T09:00:00.123456789Z');
  await expect(fs.access(path.join(dest, 'data', 'regions.csv'))).rejects.toThrow();
  await expect(fs.access(path.join(dest, 'guide', 'upgrade.html'))).resolves.toBeUndefined();

  await openTab(page, 'Compare');
  await expect(page.getByTestId('decision-sentence')).toContainText('already holds exactly this source manifest');
  await shootBothThemes(page, saveScreenshot, 'actions-replaced');
});

test('a normal replace is not offered when the decision forbids it', async ({ appPage: page }) => {
  await waitForScan(page);
  await openDestination(page, 'docs-apac');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan replace' }).click();
  await expect(page.getByText('Decision: Destination is newer')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Replace: / })).toBeDisabled();
});

test('a forced replace stays disabled until the destination id is typed, then clears an unmanaged folder', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  const dest = path.join(path.dirname(demoWorkspace), 'destinations', 'legacy-site');
  await waitForScan(page);
  await openDestination(page, 'legacy-site');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan forced replace' }).click();
  await expect(page.getByTestId('plan-force')).toContainText('delete ');
  await page.getByRole('button', { name: 'Review and force replace…' }).click();

  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // Backups are on by default: the dialog says where what it deletes goes (docs/backups.md).
  await expect(dialog.getByTestId('backup-target')).toContainText(
    `${path.join(path.dirname(demoWorkspace), '.inspector-backups', 'legacy-site')}/<UTC time>/`,
  );
  await expect(dialog).toContainText('so it can be undone');
  const confirm = dialog.getByRole('button', { name: /^Forced replace: / });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type legacy-site to confirm/).fill('legacy');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type legacy-site to confirm/).fill('legacy-site ');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type legacy-site to confirm/).fill('legacy-site');
  await expect(confirm).toBeEnabled();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'force-confirm');

  // Esc closes it and nothing changed on disk.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(fs.access(path.join(dest, 'images', 'banner.gif'))).resolves.toBeUndefined();

  await page.getByRole('button', { name: 'Review and force replace…' }).click();
  await page
    .getByRole('alertdialog')
    .getByLabel(/Type legacy-site to confirm/)
    .fill('legacy-site');
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^Forced replace: / })
    .click();
  await expect(page.getByRole('status').filter({ hasText: /^Replaced/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('option', { name: /^legacy-site/ })).toContainText('managed');

  const state = await expectIntactOnDisk(dest);
  expect(state.destination_id).toBe('legacy-site');
  await expect(fs.access(path.join(dest, 'images', 'banner.gif'))).rejects.toThrow();
});

test('a normal replace says how many outputs were changed on disk since published, on the plan and its button', async ({
  appPage: page,
  demoWorkspace,
}) => {
  const dest = path.join(path.dirname(demoWorkspace), 'destinations', 'docs-us');
  await fs.appendFile(path.join(dest, 'data', 'regions.csv'), 'edited,by hand\n');
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan replace' }).click();
  const plan = page.getByTestId('plan-replace');
  await expect(plan.getByTestId('plan-changed-count')).toHaveText('1 changed output will be lost');
  await expect(plan.locator('.plan-list li.changed')).toContainText('data/regions.csv');
  await expect(plan.locator('.plan-list li.changed')).toContainText('changed on disk since published: will be lost');
  await expect(page.getByRole('button', { name: /^Replace: .*\(1 changed on disk since published: will be lost\) from / })).toBeEnabled();
});

test('a forced replace of a folder holding another managed destination lists it and needs a tick to apply', async ({
  appPage: page,
  demoWorkspace,
}) => {
  const dest = path.join(path.dirname(demoWorkspace), 'destinations', 'legacy-site');
  const nested = path.join(dest, 'old-docs');
  await fs.mkdir(nested);
  await fs.copyFile(
    path.join(path.dirname(demoWorkspace), 'destinations', 'docs-us', '.distributor.json'),
    path.join(nested, '.distributor.json'),
  );
  await waitForScan(page);
  await openDestination(page, 'legacy-site');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan forced replace' }).click();
  await expect(page.getByTestId('plan-force').getByTestId('plan-nested-count')).toHaveText('1 nested destination');
  await page.getByRole('button', { name: 'Review and force replace…' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByTestId('nested-destinations')).toContainText('old-docs/');
  const confirm = dialog.getByRole('button', { name: /^Forced replace: / });
  await dialog.getByLabel(/Type legacy-site to confirm/).fill('legacy-site');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/nested managed destination listed above too/).check();
  await expect(confirm).toBeEnabled();
  expect(await seriousViolations(page)).toEqual([]);
  await confirm.click();
  await expect(page.getByRole('status').filter({ hasText: /^Replaced/ })).toBeVisible({ timeout: 15_000 });
  await expect(fs.access(nested)).rejects.toThrow();
  await expectIntactOnDisk(dest);
});

test('a verify can be cancelled midway and leaves the destination not verified', async ({ page, demoWorkspace, serveWorkspace }) => {
  // One more destination with a 16 GiB sparse output: no disk used, seconds to hash, time to cancel.
  const root = path.dirname(demoWorkspace);
  const dest = path.join(root, 'destinations', 'big-archive');
  await fs.mkdir(dest, { recursive: true });
  const handle = await fs.open(path.join(dest, 'archive.bin'), 'w');
  await handle.truncate(16 * 1024 ** 3);
  await handle.close();
  const template = await readState(path.join(root, 'destinations', 'docs-eu', '.distributor.json'));
  const manifestFile = { path: 'archive.bin', sha256: `sha256:${'0'.repeat(64)}`, size: 16 * 1024 ** 3 };
  const state = {
    ...template,
    destination_id: 'big-archive',
    source: { manifest: { ...template.source.manifest, files: [manifestFile] } },
    outputs: [{ path: 'archive.bin', kind: 'source', source_path: 'archive.bin', sha256: manifestFile.sha256, size: manifestFile.size }],
  };
  delete state.links;
  await fs.writeFile(path.join(dest, '.distributor.json'), JSON.stringify(state, null, 2));
  const workspace = JSON.parse(await fs.readFile(demoWorkspace, 'utf8')) as { destinations: object[] };
  workspace.destinations.push({
    path: 'destinations/big-archive',
    pipeline_id: 'handbook-docs',
    destination_id: 'big-archive',
    source: 'sources/handbook-2026-06',
  });
  await fs.writeFile(demoWorkspace, JSON.stringify(workspace, null, 2));

  const host = await serveWorkspace(demoWorkspace);
  await page.goto(host.url);
  await waitForScan(page);
  await openDestination(page, 'big-archive');
  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  const progress = page.locator('.tab-panel').getByTestId('job-verify');
  await expect(progress).toBeVisible();
  await expect(progress.getByRole('progressbar')).toBeVisible();
  await progress.getByRole('button', { name: /^Cancel/ }).click();
  await expect(progress).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByText('Not verified yet')).toBeVisible();
  await expect(page.locator('tr[data-output="archive.bin"] td').nth(1)).toHaveText('not verified');
  // Cancel is not an error: the status bar shows none.
  await expect(page.locator('.last-error')).toHaveCount(0);
  // Nothing was written into the destination.
  expect((await fs.readdir(dest)).sort()).toEqual(['.distributor.json', 'archive.bin']);
});
