// Issue 28 §8: while an apply runs there is one Cancel on screen, it says "Cancelling…" from the
// click on, and none is left once the job has ended; the cancelled forced replace leaves the
// destination exactly as it was, its staging folder gone. The Cancel request is held by the test
// until the page has been seen saying "cancelling", and the copy of a large source file is held by
// the host after its first chunk (electron/replace/testHold.ts, a FIFO the test opens) until that
// request has been answered: the cancel of a real copy, mid-copy, every time, whatever the load. The
// copy then stops between two chunks, not after the whole file.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

// Several chunks of the copy (electron/replace/hashedChunks.ts CHUNK_BYTES), streamed, not read whole.
const BIG = 16 * 1024 ** 2;

/** The promise's value, or a failure saying `what` once `ms` have passed: a bound on a wait for a signal. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

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

let releaseHold: (() => Promise<void>) | undefined;
test.afterEach(async () => {
  await releaseHold?.();
  releaseHold = undefined;
});

test('a forced replace cancelled mid-apply has one Cancel, says cancelling, and leaves the destination as it was', async ({
  page,
  demoWorkspace,
  startHost,
  tempDir,
  saveScreenshot,
}) => {
  // Four full-page screenshots and an axe pass: more than 30 s on a loaded machine.
  test.slow();
  const root = path.dirname(demoWorkspace);
  const dest = path.join(root, 'destinations', 'legacy-site');
  const workspace = JSON.parse(await fs.readFile(demoWorkspace, 'utf8')) as { destinations: { destination_id: string; source: string }[] };
  const source = path.resolve(root, workspace.destinations.find((entry) => entry.destination_id === 'legacy-site')!.source);
  // One more source file, large enough to be copied in chunks (sparse: it reads as zeros).
  const manifestFile = path.join(source, 'manifest.json');
  const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as { files: { path: string; sha256: string; size: number }[] };
  const big = await fs.open(path.join(source, 'big.bin'), 'w');
  await big.truncate(BIG);
  await big.close();
  const digest = createHash('sha256').update(Buffer.alloc(BIG)).digest('hex');
  manifest.files.push({ path: 'big.bin', sha256: `sha256:${digest}`, size: BIG });
  await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
  const before = await snapshot(dest);
  // The host holds the copy of big.bin after its first chunk until the test closes its end of this FIFO.
  const hold = path.join(tempDir, 'hold-staged-copy');
  execFileSync('mkfifo', [hold]);
  const host = await startHost(demoWorkspace, { env: { INSPECTOR_TEST_HOLD_STAGED_COPY: hold } });
  // Opening the FIFO for writing returns once the host opens it to read: once it holds the copy.
  const holdReached = fs.open(hold, 'w');
  releaseHold = async () => {
    // Should the test end before the host reached the hold, a reader of our own ends that open.
    await (await fs.open(hold, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)).close();
    await (await holdReached).close();
  };
  await page.goto(host.url);

  await waitForScan(page);
  await openDestination(page, 'legacy-site');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan forced replace' }).click();
  await page.getByRole('button', { name: 'Review and force replace…' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByLabel(/Type legacy-site to confirm/).fill('legacy-site');
  await dialog.getByRole('button', { name: /^Forced replace: / }).click();
  const holding = await within(15_000, 'the host did not hold the copy of big.bin', holdReached);

  // The Cancel request is held until the page has been seen saying "cancelling" (then let through).
  let letCancelThrough = () => {};
  const held = new Promise<void>((resolve) => (letCancelThrough = resolve));
  await page.route('**/api/cancelJob', async (route) => {
    await held;
    await route.continue();
  });
  // While it stages (the step is shown in the tab and in the status bar): one Cancel on the page.
  await expect(page.getByRole('contentinfo', { name: 'Status' }).getByTestId('job-step')).toContainText(/^staging/);
  const cancels = page.getByRole('button', { name: /^Cancel/ });
  await expect(cancels).toHaveCount(1);
  await cancels.click();
  // From the click on it says so, and offers no second Cancel.
  await expect(page.getByRole('button', { name: /^Cancelling/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: /^Cancel / })).toHaveCount(0);
  await shootBothThemes(page, saveScreenshot, 'apply-cancelling');
  // The cancel reaches the host, which answers it at once; only then does the copy go on, and it
  // stops before its next chunk.
  const cancelAnswered = page.waitForResponse('**/api/cancelJob');
  letCancelThrough();
  expect((await cancelAnswered).ok()).toBe(true);
  await holding.close();

  const result = dialog.getByRole('alert').filter({ hasText: 'cancelled' });
  await expect(result).toBeVisible({ timeout: 15_000 });
  // Once it has ended, nothing offers to cancel it.
  await expect(page.getByRole('button', { name: /^Cancel/ })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'apply-cancelled');
  // The destination is exactly as it was: no staging folder left, not a byte changed.
  expect(await snapshot(dest)).toEqual(before);
});
