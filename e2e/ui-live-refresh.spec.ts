// Live refresh (issue 12): what is on screen follows the disk with no click. The browser host on the
// demo workspace; after Verify all, files are edited and removed on disk as a publisher or an operator
// would: the rows, their verify marks, the counts and the open detail pane change by themselves, and a
// destination added to the workspace file appears in the list. Before live refresh, nothing changed
// until Rescan, and a row edited in place stayed a green "intact".

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test as base } from './fixtures';

// Auto-verify off: these hold the stale marks themselves (e2e/ui-verify-fresh.spec.ts has it on).
const test = base.extend({
  host: async ({ startHost, demoWorkspace }, use) => {
    await use(await startHost(demoWorkspace, { env: { DISTRIBUTOR_INSPECTOR_AUTO_VERIFY: 'off' } }));
  },
});
import { openDestination, seriousViolations, waitForScan } from './uiHelpers';

test('a change on disk re-reads its destination and a destination added to the workspace file appears, with no click', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  // Verify all and five changes on disk, each waited for: more than the default 30 s on a loaded machine.
  test.setTimeout(120_000);
  const root = path.dirname(demoWorkspace);
  const destinations = path.join(root, 'destinations');
  await waitForScan(page);
  // The demo lists 17 destinations, one of them (status-missing) a folder that is not there: polled until it appears.
  await expect(page.getByTestId('live-refresh')).toHaveText(
    'watching 16 destinations; 1 checked every 2 s instead, because the folder is missing',
  );

  await page.getByRole('button', { name: 'Verify all' }).click();
  await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 8 intact, 1 drifted, 8 not verifiable · v/, { timeout: 20_000 });
  const row = (id: string) => page.getByRole('option', { name: new RegExp(`^${id}\\b`) });
  await expect(row('docs-eu').locator('[data-verify-mark]')).toHaveText('intact');

  // An output edited in place: the state and the folder's listing are unchanged, only the watcher can tell.
  const handle = await fs.open(path.join(destinations, 'docs-eu', 'index.html'), 'r+');
  await handle.write('EDITED BY HAND', 0);
  await handle.close();
  await expect(row('docs-eu').locator('[data-verify-mark]')).toHaveText('stale — verify again', { timeout: 5_000 });
  await expect(row('docs-eu').locator('[data-verify-mark]')).toHaveAttribute(
    'title',
    /verify: was intact, verified .*; a change on disk was seen since: stale — verify again/,
  );
  await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 7 intact, 1 drifted, 1 stale, 8 not verifiable · v/);

  // The state file of the destination open in the detail pane is removed: its row and the pane follow.
  await openDestination(page, 'docs-us');
  const header = page.locator('.detail-header');
  await expect(header).toContainText('managed');
  await fs.rm(path.join(destinations, 'docs-us', '.distributor.json'));
  await expect(row('docs-us')).toHaveAttribute('data-status', 'unmanaged', { timeout: 5_000 });
  await expect(header).toContainText('unmanaged');
  await expect(page.getByTestId('status-line')).toHaveText(/^Ready · 6 intact, 1 drifted, 1 stale, 9 not verifiable · v/);

  // A destination added to the workspace file appears, read, and is watched.
  await page.getByRole('searchbox', { name: /Search destinations/ }).fill('');
  await fs.mkdir(path.join(destinations, 'docs-new'));
  await fs.writeFile(path.join(destinations, 'docs-new', 'index.html'), '<h1>new</h1>\n');
  const file = JSON.parse(await fs.readFile(demoWorkspace, 'utf8')) as { destinations: Record<string, unknown>[] };
  file.destinations.push({ path: 'destinations/docs-new', destination_id: 'docs-new' });
  await fs.writeFile(demoWorkspace, `${JSON.stringify(file, null, 2)}\n`);
  await expect(row('docs-new')).toHaveAttribute('data-status', 'unmanaged', { timeout: 5_000 });
  await expect(page.getByTestId('live-refresh')).toHaveText(
    'watching 17 destinations; 1 checked every 2 s instead, because the folder is missing',
  );
  await expect(page.getByTestId('status-line')).toHaveText(
    /^Ready · 6 intact, 1 drifted, 1 stale, 10 not verifiable · workspace read again: 1 added \(docs-new\) · v/,
  );

  // The missing folder appears: it is seen (polled) and watched from then on.
  await fs.mkdir(path.join(destinations, 'status-missing'));
  await expect(row('status-missing')).toHaveAttribute('data-status', 'empty', { timeout: 8_000 });
  await expect(page.getByTestId('live-refresh')).toHaveText('watching 18 destinations', { timeout: 8_000 });

  // The pointer off the list: a row under it is drawn hovered, which is not what this spec is about.
  await page.mouse.move(0, 0);
  expect(await seriousViolations(page)).toEqual([]);
  await saveScreenshot(page, 'live-refresh');
});
