// Seeing how a file changed, as an operator does in the demo workspace: a hand-edited output of a
// drifted destination against the bytes its state records, and a changed file in Compare against
// what publishing the source now would write, in both layouts. A diffed file holding hostile markup
// stays text: the DOM of the diff holds no script, style, image or frame, and nothing of it runs.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

const HOSTILE =
  '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"><style>body { display: none }</style><iframe src="https://example.com/"></iframe>';

test('a hand-edited output of a drifted destination, against the bytes its state records', async ({ appPage: page, saveScreenshot }) => {
  await waitForScan(page);
  await openDestination(page, 'runbook-prod');
  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'drifted: 5 of 6 outputs differ' })).toBeVisible();
  // Only the outputs whose bytes can be read and compared offer a diff.
  await expect(page.getByRole('button', { name: /^Diff / })).toHaveCount(3);

  await page.getByRole('button', { name: 'Diff checklists/rollback.txt' }).click();
  const panel = page.locator('section.content-diff-panel');
  await expect(panel.getByRole('heading', { name: 'How checklists/rollback.txt changed on disk' })).toBeFocused();
  const lines = panel.getByTestId('content-diff-lines');
  await expect(lines).toContainText('@@ -1 +1 @@');
  await expect(lines.locator('.diff-line.removed')).toContainText('revert, republish, tell the channel');
  await expect(lines.locator('.diff-line.added')).toContainText('REVERT, REPUBLISH, TELL THE CHANNEL');
  await expect(panel).toContainText('the source file');
  await expect(panel.getByText('+1', { exact: true })).toBeVisible();

  // An appended line: the old line kept as context, the new one added, numbered 2 on the disk side.
  await page.getByRole('button', { name: 'Diff checklists/deploy.txt' }).click();
  await expect(lines.locator('.diff-line.context')).toContainText('build, sign, publish');
  await expect(lines.locator('.diff-line.added')).toContainText('and smoke-test');
  await expect(lines.locator('.diff-line.added .ln').nth(1)).toHaveText('2');
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'content-diff-drift');

  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
});

test('a changed file in Compare, against what publishing the source writes, keeps hostile markup as text in both layouts', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  // Someone edited the live page on the server and slipped markup in.
  const page_ = path.join(path.dirname(demoWorkspace), 'destinations', 'docs-us', 'index.html');
  await fs.appendFile(page_, `${HOSTILE}\n`);
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  await openTab(page, 'Compare');
  await expect(page.getByRole('heading', { name: /Files: 1 added, 1 removed, 1 changed/ })).toBeVisible();
  await page.getByRole('button', { name: 'Diff index.md' }).click();

  const panel = page.locator('section.content-diff-panel');
  await expect(panel.getByRole('heading', { name: 'index.html: on disk and after a publish' })).toBeVisible();
  const lines = panel.getByTestId('content-diff-lines');
  await expect(lines.locator('.diff-line.removed').filter({ hasText: HOSTILE })).toHaveCount(1);
  await expect(lines.locator('.diff-line.added').filter({ hasText: 'second edition' })).toHaveCount(1);
  await expect(lines.locator('mark.word-changed').first()).toBeVisible();

  const hostileNodes = () => page.evaluate("document.querySelectorAll('main script, main style, main img, main iframe, main link').length");
  expect(await hostileNodes()).toBe(0);
  expect(await page.evaluate('window.__pwned')).toBeUndefined();
  await expect(page.locator('body')).toBeVisible();

  await panel.getByRole('button', { name: 'Side by side' }).click();
  await expect(panel.getByRole('button', { name: 'Side by side' })).toHaveAttribute('aria-pressed', 'true');
  const pair = lines
    .locator('.diff-pair')
    .filter({ has: page.locator('.diff-cell.removed') })
    .first();
  await expect(pair.locator('.diff-cell.removed')).toBeVisible();
  await expect(pair.locator('.diff-cell.added')).toBeVisible();
  await expect(lines.locator('.diff-cell.removed').filter({ hasText: HOSTILE })).toHaveCount(1);
  expect(await hostileNodes()).toBe(0);
  expect(await page.evaluate('window.__pwned')).toBeUndefined();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'content-diff-compare');
});

test('when the configured source cannot prove the expected bytes, it says why, shows the disk, and another bundle can prove them', async ({
  appPage: page,
  demoWorkspace,
}) => {
  // docs-us holds the May edition; its configured source is June's, which no longer has regions.csv.
  const demo = path.dirname(demoWorkspace);
  await fs.appendFile(path.join(demo, 'destinations', 'docs-us', 'data', 'regions.csv'), 'apac,ops-apac\n');
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await page.getByRole('button', { name: 'Diff data/regions.csv' }).click();
  const panel = page.locator('section.content-diff-panel');
  await expect(panel).toContainText('the expected bytes are not available for data/regions.csv');
  await expect(panel.getByTestId('content-diff-lines')).toContainText('apac,ops-apac');

  await panel.getByLabel('Prove the expected bytes from another source bundle').fill(path.join(demo, 'sources', 'handbook-2026-05'));
  await panel.getByRole('button', { name: 'Diff with this source' }).click();
  await expect(panel).toContainText('whose sha256 equals the recorded one');
  await expect(panel.getByTestId('content-diff-lines').locator('.diff-line.added')).toHaveText(/apac,ops-apac/);
  await expect(panel.getByTestId('content-diff-lines').locator('.diff-line.context').first()).toContainText('region,owner');
});
