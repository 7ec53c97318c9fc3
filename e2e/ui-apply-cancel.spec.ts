// Issue 28 §8: while an apply runs there is one Cancel on screen, it says "Cancelling…" from the
// click on, and none is left once the job has ended; the cancelled forced replace leaves the
// destination exactly as it was, its staging folder gone. The apply is held in its staging by a
// 4 GiB source file (sparse in the source, copied and hashed: seconds, where the screenshots taken
// meanwhile need one), and the Cancel request by the test, so that every state is seen; the cancel
// then stops the copy between two chunks, not after the whole file.

import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

const BIG = 4 * 1024 ** 3;

/** Every path under a folder, with its bytes' digest: what "as it was" means on disk. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(dir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        out.push(`${child}/`);
        await walk(child);
      } else
        out.push(
          `${child} ${createHash('sha256')
            .update(await fs.readFile(path.join(dir, child)))
            .digest('hex')}`,
        );
    }
  };
  await walk('');
  return out.sort();
}

test('a forced replace cancelled mid-apply has one Cancel, says cancelling, and leaves the destination as it was', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  test.slow();
  const root = path.dirname(demoWorkspace);
  const dest = path.join(root, 'destinations', 'legacy-site');
  const workspace = JSON.parse(await fs.readFile(demoWorkspace, 'utf8')) as { destinations: { destination_id: string; source: string }[] };
  const source = path.resolve(root, workspace.destinations.find((entry) => entry.destination_id === 'legacy-site')!.source);
  // One more source file of 4 GiB, sparse in the source: staging it (a copy, hashed on the way) takes
  // long enough to cancel there; the cancel removes the copy.
  const manifestFile = path.join(source, 'manifest.json');
  const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as { files: { path: string; sha256: string; size: number }[] };
  const big = await fs.open(path.join(source, 'big.bin'), 'w');
  await big.truncate(BIG);
  await big.close();
  // A sparse file reads as zeros: its digest is that of BIG zero bytes, without reading it.
  const digest = createHash('sha256');
  const zeros = Buffer.alloc(64 * 1024 * 1024);
  for (let hashed = 0; hashed < BIG; hashed += zeros.length) digest.update(zeros);
  manifest.files.push({ path: 'big.bin', sha256: `sha256:${digest.digest('hex')}`, size: BIG });
  await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
  const before = await snapshot(dest);

  await waitForScan(page);
  await openDestination(page, 'legacy-site');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan forced replace' }).click();
  await page.getByRole('button', { name: 'Review and force replace…' }).click({ timeout: 60_000 });
  const dialog = page.getByRole('alertdialog');
  await dialog.getByLabel(/Type legacy-site to confirm/).fill('legacy-site');
  await dialog.getByRole('button', { name: /^Forced replace: / }).click();

  // The Cancel request is held until the page has been seen saying "cancelling" (then let through).
  let letCancelThrough = () => {};
  const held = new Promise<void>((resolve) => (letCancelThrough = resolve));
  await page.route('**/api/cancelJob', async (route) => {
    await held;
    await route.continue();
  });
  // While it stages (the step is shown in the tab and in the status bar): one Cancel on the page.
  await expect(page.getByRole('contentinfo', { name: 'Status' }).getByTestId('job-step')).toContainText(/^staging/, {
    timeout: 30_000,
  });
  const cancels = page.getByRole('button', { name: /^Cancel/ });
  await expect(cancels).toHaveCount(1);
  await cancels.click();
  // From the click on it says so, and offers no second Cancel.
  await expect(page.getByRole('button', { name: /^Cancelling/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: /^Cancel / })).toHaveCount(0);
  await shootBothThemes(page, saveScreenshot, 'apply-cancelling');
  letCancelThrough();

  const result = dialog.getByRole('alert').filter({ hasText: 'cancelled' });
  await expect(result).toBeVisible({ timeout: 30_000 });
  // Once it has ended, nothing offers to cancel it.
  await expect(page.getByRole('button', { name: /^Cancel/ })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'apply-cancelled');
  // The destination is exactly as it was: no staging folder left, not a byte changed.
  expect(await snapshot(dest)).toEqual(before);
});
