// What an apply that does not go through shows the operator: the engine's ApplyResult in the Actions
// tab (was anything changed, is a new state in place, is a staging folder left), for a plan gone stale
// and for an apply refused mid-check, and the force dialog locked while it runs, then showing its
// result. The disk is checked, not only the screen.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { confirmNormalReplace, openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

const readText = (file: string) => fs.readFile(file, 'utf8');
// The demo's docs-us plan, in the one vocabulary of counts (shared/planCounts.ts).
const DOCS_US_COUNTS = 'create 1 file, update 3 files (the state file among them), delete 1 file and 1 folder';

// In-page scripts are strings: they run in Chromium, not Node. This one notes whether the force dialog
// was seen locked (its input disabled) and tries to dismiss it with Esc at that moment.
const WATCH_LOCK_SCRIPT = `(() => {
  const seen = { lockedWhileRunning: false, escapeClosedIt: false };
  window.__forceSeen = seen;
  const observer = new MutationObserver(() => {
    const open = document.querySelector('[role="alertdialog"]');
    if (!open) seen.escapeClosedIt = true;
    const input = document.getElementById('force-confirm');
    if (input && input.disabled && !seen.lockedWhileRunning) {
      seen.lockedWhileRunning = true;
      open.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
})()`;

test('a plan that went stale shows the refusal and that nothing changed, and plans again', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  const dest = path.join(path.dirname(demoWorkspace), 'destinations', 'docs-us');
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan replace' }).click();
  await expect(page.getByTestId('plan-replace')).toContainText(DOCS_US_COUNTS);

  // Someone edits the destination between the plan and its apply.
  await fs.writeFile(path.join(dest, 'index.html'), 'edited by hand after the plan\n');
  const stateBefore = await readText(path.join(dest, '.distributor.json'));
  await confirmNormalReplace(page, DOCS_US_COUNTS);

  const refusal = page.getByRole('alert').filter({ hasText: 'The destination changed since this plan: plan again' });
  await expect(refusal).toBeVisible({ timeout: 15_000 });
  const facts = refusal.getByTestId('apply-facts');
  await expect(facts).toContainText('Anything changed on disk');
  await expect(facts.locator('dd').nth(0)).toHaveText('no');
  await expect(facts.locator('dd').nth(1)).toHaveText('no');
  await expect(facts.locator('dd').nth(2)).toHaveText('no');
  // It is a result, not an error the status bar reports.
  await expect(page.locator('.last-error')).toHaveCount(0);
  expect(await readText(path.join(dest, '.distributor.json'))).toBe(stateBefore);
  expect(await readText(path.join(dest, 'index.html'))).toBe('edited by hand after the plan\n');
  expect((await fs.readdir(dest)).filter((name) => name.startsWith('.distributor-staging'))).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'actions-stale-plan');

  await refusal.getByRole('button', { name: 'Plan again' }).click();
  await expect(page.getByTestId('plan-replace')).toContainText(DOCS_US_COUNTS);
  await expect(refusal).toHaveCount(0);
});

test('a forced replace refused mid-check keeps its dialog locked while it runs, then shows the ApplyResult', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  const root = path.dirname(demoWorkspace);
  const dest = path.join(root, 'destinations', 'legacy-site');
  const before = (await fs.readdir(dest)).sort();
  await waitForScan(page);
  await openDestination(page, 'legacy-site');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan forced replace' }).click();
  await expect(page.getByTestId('plan-force')).toContainText('delete ');

  // The source bundle changes after the plan: apply checks the source bytes before anything else, and stops.
  const workspace = JSON.parse(await readText(demoWorkspace)) as { destinations: { destination_id: string; source: string }[] };
  const sourceDir = path.resolve(root, workspace.destinations.find((entry) => entry.destination_id === 'legacy-site')!.source);
  const manifest = JSON.parse(await readText(path.join(sourceDir, 'manifest.json'))) as { files: { path: string }[] };
  await fs.appendFile(path.join(sourceDir, manifest.files[0]!.path), '\nchanged after the plan\n');

  await page.getByRole('button', { name: 'Review and force replace…' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByLabel(/Type legacy-site to confirm/).fill('legacy-site');
  // Watch the dialog from inside the page: it must be locked from the click until the result is in.
  await page.evaluate(WATCH_LOCK_SCRIPT);
  await dialog.getByRole('button', { name: /^Forced replace: / }).click();

  const result = dialog.getByRole('alert').filter({ hasText: 'The replace did not complete' });
  await expect(result).toBeVisible({ timeout: 15_000 });
  await expect(result).toContainText('the source is not what the plan expects: plan again');
  const facts = result.getByTestId('apply-facts');
  await expect(facts.locator('dd').nth(0)).toHaveText('no');
  await expect(facts.locator('dd').nth(1)).toHaveText('no');
  await expect(facts.locator('dd').nth(2)).toHaveText('no');
  const seen = await page.evaluate('window.__forceSeen');
  expect(seen).toEqual({ lockedWhileRunning: true, escapeClosedIt: false });
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'force-refused');

  expect((await fs.readdir(dest)).sort()).toEqual(before);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  // The result stays in the Actions tab once the dialog is closed.
  await expect(page.getByRole('alert').filter({ hasText: 'The replace did not complete' })).toBeVisible();
});
