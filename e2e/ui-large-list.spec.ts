// A list larger than appInfo's first page (renderer/state/listPages.ts): the first destinations show
// with their rows, the rest come a page at a time, and the list ends whole, every destination scanned.
// 8,000 is enough for that: the first 2,000 (FIRST_DESTINATIONS), one whole page of 5,000
// (DESTINATION_PAGE) and a last, partial page of 1,000, so two page boundaries are crossed and the last
// page is not a whole one. 12,000 (two whole pages) took longer to build, list and scan and proved
// nothing more.

import path from 'node:path';
import { expect, test } from './fixtures';

test('a workspace of 8,000 destinations ends with every one listed and scanned, none lost between pages', async ({
  page,
  startHost,
  tempDir,
}) => {
  test.setTimeout(240_000);
  const { createDemoWorkspace } = await import('../electron/demo/demo');
  const made = await createDemoWorkspace(path.join(tempDir, 'large'), { large: true, largeDestinationCount: 8_000 });
  if (!made.ok) throw new Error(made.error);
  const host = await startHost(made.value.workspaceFile);
  await page.goto(host.url);
  const count = page.getByTestId('list-count');
  const total = made.value.destinationCount.toLocaleString('en-US');
  // While the pages travel the rest count as scanning; at the end the whole list, nothing pending.
  await expect(count).toHaveText(`${total} destinations`, { timeout: 200_000 });
  const options = page.getByRole('listbox', { name: 'Destinations' }).getByRole('option');
  await expect(options.first()).not.toHaveAttribute('data-status', 'pending');
  // Destinations near the end of the list, which came in the last page, are there and scanned
  // (site-07900 to site-07983 of the 7,983 the large demo adds to its 17).
  await page.getByRole('searchbox', { name: /Search destinations/ }).fill('site-079');
  await expect(options).not.toHaveCount(0);
  await expect(options.first()).not.toHaveAttribute('data-status', 'pending');
});
