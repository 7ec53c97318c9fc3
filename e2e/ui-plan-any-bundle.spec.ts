// Plan from any source bundle (issue 13, section 5): Actions plans from one of the workspace's bundles,
// not only the configured one. Rolling back to an older bundle is a replace from it: the contract's
// skip_newer rule still refuses a normal replace, and a forced replace, with its typed confirmation,
// rolls back. The chosen bundle is named in the plan and in the confirmation; the disk is checked.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { stateSchema } from '../shared/documentSchemas';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, waitForScan } from './uiHelpers';

test('rolling docs-eu back to the older bundle: the normal replace is refused as skip_newer, the forced replace names the bundle and rolls back', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  const root = path.dirname(demoWorkspace);
  const dest = path.join(root, 'destinations', 'docs-eu');
  const older = path.join(root, 'sources', 'handbook-2026-05');
  const readState = async () => stateSchema.parse(JSON.parse(await fs.readFile(path.join(dest, '.distributor.json'), 'utf8')));
  const before = await readState();
  expect(before.source.manifest.created).toBe('2026-06-01T09:00:00.123456789Z');

  await waitForScan(page);
  await openDestination(page, 'docs-eu');
  await openTab(page, 'Actions');
  const list = page.getByLabel('Bundles in this workspace');
  const option = list.locator('option', { hasText: 'sources/handbook-2026-05 — handbook' });
  await list.selectOption({ label: (await option.textContent())! });
  await expect(page.getByLabel('Source bundle')).toHaveValue(older);

  // The normal replace: planned from the chosen bundle, refused by the contract (the destination is newer).
  await page.getByRole('button', { name: 'Plan replace' }).click();
  await expect(page.getByText('Decision: Destination is newer')).toBeVisible();
  await expect(page.getByText('use a forced replace to roll back on purpose')).toBeVisible();
  await expect(page.getByTestId('plan-replace').getByTestId('plan-source')).toContainText(older);
  await expect(page.getByRole('button', { name: /^Replace: / })).toBeDisabled();

  // The forced replace: the plan and the confirmation name the bundle and say it rolls back.
  await page.getByRole('button', { name: 'Plan forced replace' }).click();
  const plan = page.getByTestId('plan-force');
  await expect(plan.getByTestId('plan-source')).toHaveText(`From source bundle ${older} (handbook, created 2026-05-01 09:00:00 UTC)`);
  await expect(plan.getByTestId('plan-rollback')).toContainText('rolls the destination back');
  await page.getByRole('button', { name: 'Review and force replace…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Force replace docs-eu?' });
  await expect(dialog.getByTestId('force-source')).toHaveText(older);
  await expect(dialog).toContainText('(handbook, created 2026-05-01 09:00:00 UTC)');
  await expect(dialog.getByTestId('force-rollback')).toBeVisible();
  const confirm = dialog.getByRole('button', { name: /^Forced replace: / });
  await expect(confirm).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);
  await saveScreenshot(page, 'ui-rollback-confirm');
  // Nothing changed while planning and confirming.
  expect(await readState()).toEqual(before);

  await dialog.getByLabel(/Type docs-eu to confirm/).fill('docs-eu');
  await confirm.click();
  await expect(dialog.getByRole('status').filter({ hasText: /^Replaced/ })).toBeVisible({ timeout: 15_000 });
  const after = await readState();
  expect(after.source.manifest.created).toBe('2026-05-01T09:00:00Z');
  expect(after.destination_id).toBe('docs-eu');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Compare with the chosen bundle now says the destination holds exactly it.
  await openTab(page, 'Compare');
  await page.getByLabel('Source bundle').fill('sources/handbook-2026-05');
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page.getByTestId('decision-sentence')).toContainText('already holds exactly this source manifest');
});

test('a plan is made again from another bundle once one is chosen: the shown plan goes with the old choice', async ({ appPage: page }) => {
  await waitForScan(page);
  await openDestination(page, 'docs-us');
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan replace' }).click();
  await expect(page.getByTestId('plan-replace').getByTestId('plan-source')).toContainText('handbook-2026-06');
  await expect(page.getByRole('button', { name: /^Replace: .* from handbook-2026-06…$/ })).toBeEnabled();
  await page.getByLabel('Source bundle').fill('sources/runbook');
  await expect(page.getByTestId('plan-replace')).toHaveCount(0);
  await page.getByRole('button', { name: 'Plan replace' }).click();
  // Another pipeline's bundle: the contract calls it a conflict, and the refusal names the bundle.
  const refusal = page.getByRole('alert').filter({ hasText: 'The plan was refused' });
  await expect(refusal).toContainText('its source id is "handbook", expected "runbook"');
  await expect(refusal.getByTestId('plan-error-source')).toHaveText('Planned from the source bundle sources/runbook.');
});
