// Health at a glance (issue 12): health chips with counts that combine with the status chips and the
// search, a status bar that sums up verify health after Verify all, the health sort with drifted
// first, and a cancelled Verify all that says how far it got and what it kept.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test('after Verify all the status bar sums up health; health chips OR together and AND with status chips and search; sort by health puts the serious first', async ({
  appPage: page,
  saveScreenshot,
}) => {
  await waitForScan(page);
  const options = page.getByRole('listbox', { name: 'Destinations' }).getByRole('option');
  const health = page.getByRole('group', { name: 'Filter by health (any of)' });
  const chip = (name: RegExp) => health.getByRole('button', { name });
  await expect(chip(/^not verified\s*9$/)).toBeVisible();

  await page.getByRole('button', { name: 'Verify all' }).click();
  await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 8 intact, 1 drifted, 8 not verifiable · v/, { timeout: 20_000 });
  await expect(chip(/^drifted\s*1$/)).toBeVisible();
  await expect(chip(/^intact\s*8$/)).toBeVisible();
  await expect(chip(/^not verified\s*0$/)).toBeVisible();
  await expect(chip(/^interrupted\s*1$/)).toBeVisible();

  // OR within the health group.
  await chip(/^drifted/).click();
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText('runbook-prod');
  await chip(/^interrupted/).click();
  await expect(options).toHaveCount(2);
  await expect(page.getByRole('option', { name: /^docs-latam/ })).toBeVisible();
  // AND with the status chips: no unmanaged destination is drifted or interrupted.
  await page
    .getByRole('group', { name: 'Filter by status (any of)' })
    .getByRole('button', { name: /^unmanaged/ })
    .click();
  await expect(page.getByText('No destination matches the search and filters.')).toBeVisible();
  await page
    .getByRole('group', { name: 'Filter by status (any of)' })
    .getByRole('button', { name: /^managed/ })
    .click();
  await expect(options).toHaveCount(2);
  // AND with the search.
  await page.getByRole('searchbox', { name: /Search destinations/ }).fill('latam');
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText('docs-latam');
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'health-chips');

  await page.getByRole('searchbox', { name: /Search destinations/ }).fill('');
  for (const name of [/^drifted/, /^interrupted/]) await chip(name).click();
  for (const name of [/^unmanaged/, /^managed/])
    await page.getByRole('group', { name: 'Filter by status (any of)' }).getByRole('button', { name }).click();
  await expect(options).toHaveCount(17);

  await page.getByRole('combobox', { name: 'Sort' }).selectOption('health');
  // Serious first, both axes: the 4 invalid, the interrupted replace, the 3 conflicts, then the drifted one.
  await expect(options.nth(0)).toContainText('broken-duplicate');
  await expect(options.nth(4)).toContainText('docs-latam');
  await expect(options.nth(5)).toContainText('docs-edited');
  await expect(options.nth(8)).toContainText('runbook-prod');
});

test('cancelling Verify all says how far it got and keeps the results it had', async ({ page, demoWorkspace, serveWorkspace }) => {
  // One more destination with a 16 GiB sparse output: no disk used, long to hash, time to cancel
  // once the nine small ones are done.
  const root = path.dirname(demoWorkspace);
  const dest = path.join(root, 'destinations', 'zz-big-archive');
  await fs.mkdir(dest, { recursive: true });
  const handle = await fs.open(path.join(dest, 'archive.bin'), 'w');
  await handle.truncate(16 * 1024 ** 3);
  await handle.close();
  const template = JSON.parse(await fs.readFile(path.join(root, 'destinations', 'docs-eu', '.distributor.json'), 'utf8')) as Record<
    string,
    unknown
  > & { source: { manifest: Record<string, unknown> } };
  const manifestFile = { path: 'archive.bin', sha256: `sha256:${'0'.repeat(64)}`, size: 16 * 1024 ** 3 };
  const state: Record<string, unknown> = {
    ...template,
    destination_id: 'zz-big-archive',
    source: { manifest: { ...template.source.manifest, files: [manifestFile] } },
    outputs: [{ path: 'archive.bin', kind: 'source', source_path: 'archive.bin', sha256: manifestFile.sha256, size: manifestFile.size }],
  };
  delete state.links;
  await fs.writeFile(path.join(dest, '.distributor.json'), JSON.stringify(state, null, 2));
  const workspace = JSON.parse(await fs.readFile(demoWorkspace, 'utf8')) as { destinations: object[] };
  workspace.destinations.push({ path: 'destinations/zz-big-archive', pipeline_id: 'handbook-docs', destination_id: 'zz-big-archive' });
  await fs.writeFile(demoWorkspace, JSON.stringify(workspace, null, 2));

  const host = await serveWorkspace(demoWorkspace);
  await page.goto(host.url);
  await waitForScan(page);
  const health = page.getByRole('group', { name: 'Filter by health (any of)' });
  await page.getByRole('button', { name: 'Verify all' }).click();
  // The nine small ones are in; only the big one is still hashing.
  await expect(health.getByRole('button', { name: /^not verified\s*1$/ })).toBeVisible({ timeout: 20_000 });
  const job = page.locator('.statusbar').getByTestId('job-verify');
  await job.getByRole('button', { name: /^Cancel/ }).click();
  await expect(job).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByTestId('status-line')).toHaveText(
    /^Verify cancelled after 9 of 10 destinations \([\d,]+ of [\d,]+ outputs hashed\); 9 verified results kept · 8 intact, 1 drifted, 1 not verified, 8 not verifiable · v/,
  );
  await expect(page.locator('.last-error')).toHaveCount(0);
  await expect(health.getByRole('button', { name: /^intact\s*8$/ })).toBeVisible();
});
