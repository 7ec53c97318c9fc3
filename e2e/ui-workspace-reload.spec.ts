// Rescan reads the workspace file again (issue 12, point 2), in the real renderer against the real
// engine: destinations added to or removed from distributor-inspector.json appear and go without
// reopening it; a file that became invalid is said to be so (file, field) while the last good list
// stays on screen; a folder that holds a workspace file opens as that file.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { waitForScan } from './uiHelpers';

interface WorkspaceFile {
  schema_version: number;
  destinations: { path: string; destination_id?: string }[];
}

test('Rescan shows destinations added to and removed from the workspace file, and keeps the last good list when the file breaks', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  await waitForScan(page);
  const list = page.getByRole('listbox', { name: 'Destinations' });
  const option = (id: string) => list.getByRole('option', { name: new RegExp(`^${id}\\b`) });
  await expect(option('docs-eu')).toBeVisible();
  const total = Number((await page.getByTestId('list-count').textContent())!.match(/^(\d+) destinations/)![1]);

  const original = JSON.parse(await fs.readFile(demoWorkspace, 'utf8')) as WorkspaceFile;
  const edited: WorkspaceFile = {
    ...original,
    destinations: [
      ...original.destinations.filter((entry) => entry.destination_id !== 'docs-eu'),
      { path: 'destinations/docs-new', destination_id: 'docs-new' },
    ],
  };
  await fs.mkdir(path.join(path.dirname(demoWorkspace), 'destinations', 'docs-new'));
  await fs.writeFile(demoWorkspace, JSON.stringify(edited, null, 2));

  await page.getByRole('button', { name: 'Rescan' }).click();
  await expect(option('docs-new')).toBeVisible();
  await expect(option('docs-eu')).toHaveCount(0);
  await waitForScan(page);
  await expect(page.getByTestId('list-count')).toHaveText(`${total} destinations`);
  await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText(
    'workspace read again: 1 added (docs-new), 1 removed (docs-eu)',
  );

  // The file breaks: said so with the file and the field; the list stays as it was last read.
  const broken = { ...edited, destinations: [...edited.destinations, { path: 42 }] };
  await fs.writeFile(demoWorkspace, JSON.stringify(broken, null, 2));
  await page.getByRole('button', { name: 'Rescan' }).click();
  const banner = page.getByRole('alert').filter({ hasText: 'The workspace file no longer loads' });
  await expect(banner).toContainText(demoWorkspace);
  await expect(banner).toContainText(`destinations[${edited.destinations.length}].path`);
  await expect(banner).toContainText('Showing the last good list');
  await expect(option('docs-new')).toBeVisible();
  await waitForScan(page);
  await expect(page.getByTestId('list-count')).toHaveText(`${total} destinations`);
  await saveScreenshot(page, 'ui-workspace-reload-invalid');

  // Fixed again: the banner goes.
  await fs.writeFile(demoWorkspace, JSON.stringify(original, null, 2));
  await page.getByRole('button', { name: 'Rescan' }).click();
  await expect(option('docs-eu')).toBeVisible();
  await expect(banner).toHaveCount(0);
});

test('a folder that holds a workspace file opens as that file, not as its destinations and sources folders', async ({
  page,
  startHost,
  demoWorkspace,
}) => {
  const host = await startHost(path.dirname(demoWorkspace));
  await page.goto(host.url);
  await waitForScan(page);
  const list = page.getByRole('listbox', { name: 'Destinations' });
  await expect(list.getByRole('option', { name: /^docs-apac\b/ })).toBeVisible();
  await expect(list.getByRole('option', { name: /^sources\b/ })).toHaveCount(0);
  await expect(page.getByRole('banner')).toContainText(demoWorkspace);
});
