// The operator's UI, browsing the demo workspace as a user clicks: filter and search the list, read an
// invalid destination's issues at their JSON paths, compare and read the decision. axe checks each main
// view; screenshots of each, light and dark, go to e2e/screenshots/.

import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

test('filter chips OR together, search narrows by id, pipeline or path, and the keyboard moves the selection', async ({
  appPage: page,
  saveScreenshot,
}) => {
  await waitForScan(page);
  const options = page.getByRole('listbox', { name: 'Destinations' }).getByRole('option');
  await expect(page.getByTestId('list-count')).toHaveText('17 destinations');

  await page.getByRole('button', { name: /^invalid\s*4$/ }).click();
  await expect(options).toHaveCount(4);
  await expect(page.getByTestId('list-count')).toHaveText('4 of 17');
  for (const name of await options.locator('.name').allTextContents()) expect(name).toMatch(/^broken-/);

  await page
    .getByRole('group', { name: 'Filter by status (any of)' })
    .getByRole('button', { name: /^unmanaged\s*2$/ })
    .click();
  await expect(options).toHaveCount(6);
  await expect(page.getByRole('option', { name: /^legacy-site/ })).toBeVisible();

  await page.getByRole('button', { name: /^invalid\s*4$/ }).click();
  await page
    .getByRole('group', { name: 'Filter by status (any of)' })
    .getByRole('button', { name: /^unmanaged\s*2$/ })
    .click();
  await expect(options).toHaveCount(17);

  // `/` focuses search from anywhere; a pipeline id narrows to its destinations.
  await page.getByRole('listbox', { name: 'Destinations' }).focus();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: /Search destinations/ })).toBeFocused();
  await page.keyboard.type('status');
  await expect(options).toHaveCount(4);
  await page.getByRole('searchbox', { name: /Search destinations/ }).fill('destinations/docs-e');
  await expect(options).toHaveCount(2);
  await expect(page.getByRole('option', { name: /^docs-edited/ })).toBeVisible();
  await expect(page.getByRole('option', { name: /^docs-eu/ })).toBeVisible();

  await page.getByRole('searchbox', { name: /Search destinations/ }).fill('');
  await options.first().click();
  await page.keyboard.press('ArrowDown');
  await expect(options.and(page.locator('[aria-selected="true"]'))).toHaveAttribute('aria-posinset', '2');
  await page.keyboard.press('End');
  await expect(options.and(page.locator('[aria-selected="true"]'))).toHaveAttribute('aria-posinset', '17');

  await page.getByRole('button', { name: /^invalid\s*4$/ }).click();
  await shootBothThemes(page, saveScreenshot, 'list-filtered');
});

test('an invalid destination shows each issue at its JSON path in the raw state, and choosing one scrolls to it', async ({
  appPage: page,
  saveScreenshot,
}) => {
  await waitForScan(page);
  await openDestination(page, 'broken-sha');
  await expect(page.getByText(/The state file is invalid: 1 error/)).toBeVisible();
  await openTab(page, 'Raw state');

  const issue = page.getByRole('button', { name: /outputs\[1\]\.sha256/ });
  await expect(issue).toContainText('must be "sha256:" followed by 64 lowercase hex digits');
  await issue.click();
  await expect(issue).toHaveAttribute('aria-current', 'true');
  const marked = page.locator('.raw-line.active');
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText('"sha256": "SHA256:');

  // A destination with several problems lists each one, each at its own place.
  await openDestination(page, 'broken-duplicate');
  await openTab(page, 'Raw state');
  await expect(page.getByRole('list', { name: 'Issues in the state file' }).getByRole('listitem')).toHaveCount(2);
  const duplicate = page.getByRole('button', { name: /outputs\[4\]\.path/ });
  await duplicate.click();
  await expect(page.locator('.raw-line.active')).toContainText('"path": "assets/logo.png"');
  const schema = page.getByRole('button', { name: /schema_version/ });
  await schema.click();
  await expect(page.locator('.raw-line.active')).toContainText('"schema_version": "1"');

  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'raw-state');

  // Cut short mid-write: not JSON at all; the issue is on the document, and the text is still shown.
  await openDestination(page, 'broken-json');
  await openTab(page, 'Raw state');
  await expect(page.getByRole('button', { name: /\(document\)/ })).toContainText('not valid JSON');
});

test('compare reads the decision and its reason in plain words, with the field and file differences', async ({
  appPage: page,
  saveScreenshot,
}) => {
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  await openTab(page, 'Compare');
  await expect(page.getByTestId('decision-sentence')).toHaveText(
    'The destination holds an older publication of the same source: replace is allowed.',
  );
  await expect(page.getByRole('heading', { name: /Files: 1 added, 1 removed, 1 changed, 2 unchanged/ })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'guide/upgrade.md' })).toBeVisible();

  // Collapsing a section hides its files and keeps its count.
  await page.getByRole('button', { name: /Added in the source/ }).click();
  await expect(page.getByRole('button', { name: /Added in the source/ })).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('listitem').filter({ hasText: 'guide/upgrade.md' })).toHaveCount(0);
  await page.getByRole('button', { name: /Added in the source/ }).click();
  await page.getByRole('searchbox', { name: 'Filter files by path' }).fill('regions');
  await expect(page.getByRole('listitem').filter({ hasText: 'data/regions.csv' })).toHaveCount(1);
  await expect(page.getByRole('listitem').filter({ hasText: 'index.md' })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Filter files by path' }).fill('');

  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'compare');

  await openDestination(page, 'docs-rebuilt');
  await openTab(page, 'Compare');
  await expect(page.getByRole('status').filter({ hasText: 'Decision: Conflict: digest mismatch' })).toBeVisible();
  await openDestination(page, 'docs-mirror');
  await openTab(page, 'Compare');
  await expect(page.getByTestId('decision-sentence')).toContainText('its destination id is "docs-eu", expected "docs-mirror"');

  // Another source bundle, typed by hand: the older edition makes the destination newer.
  await openDestination(page, 'docs-eu');
  await openTab(page, 'Compare');
  const field = page.getByLabel('Source bundle');
  await field.fill((await field.inputValue()).replace('handbook-2026-06', 'handbook-2026-05'));
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page.getByTestId('decision-sentence')).toContainText('newer publication of the same source');
});

test('the overview and outputs of a drifted destination, verified, pass axe in both themes', async ({ appPage: page, saveScreenshot }) => {
  await waitForScan(page);
  await openDestination(page, 'runbook-prod');
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'overview');

  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'drifted: 5 of 6 outputs differ' })).toBeVisible();
  // The badge alone: the line under it (what is on disk) is held by ui-precise-errors.spec.ts.
  const statusOf = (path: string) => page.locator(`tr[data-output="${path}"] td .badge`).first();
  await expect(statusOf('index.html')).toHaveText('ok');
  await expect(statusOf('contacts.txt')).toHaveText('missing');
  await expect(statusOf('checklists/deploy.txt')).toHaveText('size mismatch');
  await expect(statusOf('checklists/rollback.txt')).toHaveText('hash mismatch');
  await expect(statusOf('escalation.txt')).toHaveText('not a file');
  await expect(statusOf('diagrams/topology.txt')).toHaveText('not a file');
  await expect(page.getByRole('region', { name: /Extra files/ }).or(page.locator('section[aria-labelledby="extra-files"]'))).toContainText(
    'notes-by-hand.txt',
  );
  await expect(page.getByRole('option', { name: /^runbook-prod/ })).toContainText('drifted');
  expect(await seriousViolations(page)).toEqual([]);
  await shootBothThemes(page, saveScreenshot, 'outputs');
});

test('at 200% zoom the panes fold into one column with nothing cut off sideways', async ({ browser, host, saveScreenshot }) => {
  // 200% of a 1280×800 window: half the CSS pixels, twice the device pixels.
  const context = await browser.newContext({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(host.url);
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  for (const tab of ['Overview', 'Compare', 'Actions'] as const) {
    await openTab(page, tab);
    expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
  }
  await openTab(page, 'Compare');
  await expect(page.getByTestId('decision-sentence')).toBeVisible();
  await page.getByTestId('decision-sentence').scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'ui-zoom-200-light');
  await context.close();
});
