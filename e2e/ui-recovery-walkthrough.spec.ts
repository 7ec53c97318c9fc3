// docs/demo.md's "Recovering a destination" walkthrough, as an operator does it in the demo workspace,
// in real Chromium against the built browser host. The demo's runbook-prod was edited by hand on the
// server (a checklist upper-cased, a line appended, a file deleted, one replaced by a link and one by
// a folder, and a note added beside them); the spec edits it once more and leaves one more file.
// Verify says drifted; the content diff shows the edited lines; Repair plans rewriting only the
// drifted outputs (the extra files kept), applies it, and runbook-prod is intact again with the extra
// files' bytes untouched; the destination's History tab and the workspace's History view list the
// repair, also after switching to another destination and back, with the backup it kept and its
// undo (the restore itself: ui-backups.spec.ts). Its screenshots are docs/demo.md's.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, shootBothThemes, waitForScan } from './uiHelpers';

const EXTRA_TEXT = 'maintenance window: 14:00-15:00 UTC\n';
const DRIFTED = ['checklists/deploy.txt', 'checklists/rollback.txt', 'contacts.txt', 'diagrams/topology.txt', 'escalation.txt'];

test('a hand-edited destination is diffed, repaired to intact with the extra files kept, and the repair is in the history', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  // Verify, diff, plan, apply, two history views and three screenshots in both themes, on a shared machine.
  test.setTimeout(120_000);
  const root = path.dirname(demoWorkspace);
  const dest = path.join(root, 'destinations', 'runbook-prod');
  const source = path.join(root, 'sources', 'runbook');
  const rollback = path.join(dest, 'checklists', 'rollback.txt');
  // One more hand edit on the server: a second line in the upper-cased checklist, and a file beside the outputs.
  await fs.appendFile(rollback, 'AND CALL THE LEAD\n');
  await fs.writeFile(path.join(dest, 'maintenance.txt'), EXTRA_TEXT);
  const notes = await fs.readFile(path.join(dest, 'notes-by-hand.txt'));
  const state = await fs.readFile(path.join(dest, '.distributor.json'));

  await waitForScan(page);
  await openDestination(page, 'runbook-prod');
  await openTab(page, 'Outputs');
  await page.getByRole('button', { name: 'Verify this destination' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'drifted: 5 of 6 outputs differ' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('option', { name: /^runbook-prod/ })).toContainText('drifted');

  // How the page changed: the recorded bytes (regenerated from the source, proven by their sha256) against the disk.
  await page.getByRole('button', { name: 'Diff checklists/rollback.txt' }).click();
  const panel = page.locator('section.content-diff-panel');
  await expect(panel.getByRole('heading', { name: 'How checklists/rollback.txt changed on disk' })).toBeFocused();
  const lines = panel.getByTestId('content-diff-lines');
  await expect(lines.locator('.diff-line.removed')).toContainText('revert, republish, tell the channel');
  await expect(lines.locator('.diff-line.added').first()).toContainText('REVERT, REPUBLISH, TELL THE CHANNEL');
  await expect(lines.locator('.diff-line.added').nth(1)).toContainText('AND CALL THE LEAD');
  await expect(panel).toContainText('the source file');
  expect(await seriousViolations(page)).toEqual([]);
  await panel.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await shootBothThemes(page, saveScreenshot, 'recovery-diff');
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);

  // Repair just that page: the plan names it, where its bytes come from, and the extra file it keeps.
  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan repair' }).click();
  const plan = page.getByTestId('plan-repair');
  await expect(plan.getByTestId('repair-summary')).toContainText('5 of 5 drifted outputs can be rewritten');
  const list = plan.getByRole('list', { name: /Every output the repair rewrites/ });
  await expect(list.locator('li.rewrite')).toHaveCount(DRIFTED.length);
  for (const output of DRIFTED) await expect(list.locator('li.rewrite').filter({ hasText: output })).toContainText('copied from');
  await expect(list.locator('li.keep').filter({ hasText: 'notes-by-hand.txt' })).toHaveCount(1);
  await expect(list.locator('li.keep').filter({ hasText: 'maintenance.txt' })).toHaveCount(1);
  await expect(list.locator('li.refused')).toHaveCount(0);
  expect(await fs.readFile(rollback, 'utf8')).toContain('AND CALL THE LEAD');
  expect(await seriousViolations(page)).toEqual([]);
  const apply = page.getByRole('button', { name: /^Repair: .*…$/ });
  await apply.scrollIntoViewIfNeeded();
  await shootBothThemes(page, saveScreenshot, 'recovery-repair-plan');

  await apply.click();
  // Backed up, so one explicit confirmation that names the counts (docs/confirmations.md).
  await page
    .getByRole('alertdialog', { name: /^Repair / })
    .getByTestId('apply-confirm')
    .click();
  await expect(page.getByRole('status').filter({ hasText: /^Repaired/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('intact');
  await expect(page.getByRole('option', { name: /^runbook-prod/ })).toContainText('intact');
  // Each output holds its source file's bytes again, a real file where the link and the folder stood;
  // the extra files and the state file are as they were.
  for (const output of DRIFTED) {
    expect((await fs.lstat(path.join(dest, output))).isFile()).toBe(true);
    expect(await fs.readFile(path.join(dest, output))).toEqual(await fs.readFile(path.join(source, output)));
  }
  expect(await fs.readFile(path.join(dest, 'maintenance.txt'), 'utf8')).toBe(EXTRA_TEXT);
  expect(await fs.readFile(path.join(dest, 'notes-by-hand.txt'))).toEqual(notes);
  expect(await fs.readFile(path.join(dest, '.distributor.json'))).toEqual(state);

  // The History tab lists the repair, also after looking at another destination and coming back.
  await openTab(page, 'History');
  const tabRows = page.locator('.history-table tbody tr');
  await expect(tabRows).toHaveCount(1);
  await expect(tabRows.first()).toContainText('repair');
  await expect(tabRows.first()).toContainText('applied');
  await expect(tabRows.first()).toContainText('browser host');
  await openDestination(page, 'docs-us');
  await openTab(page, 'History');
  await expect(page.getByText('No replace has been applied to docs-us yet')).toBeVisible();
  await openDestination(page, 'runbook-prod');
  await openTab(page, 'History');
  await expect(tabRows).toHaveCount(1);
  await expect(tabRows.first()).toContainText('repair');

  await page.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: 'Workspace history' });
  await expect(dialog.locator('tbody tr')).toHaveCount(1);
  await expect(dialog.locator('tbody tr').first()).toContainText('runbook-prod');
  await expect(dialog.locator('tbody tr').first()).toContainText('repair');
  // The entry names the backup the repair kept (beside the workspace file) and offers its undo.
  // The backups are its folders; the prune's index (.backups-index.json) lies beside them.
  const backups = await fs.readdir(path.join(root, '.inspector-backups', 'runbook-prod'), { withFileTypes: true });
  const [backupId] = backups.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  await expect(dialog.locator('tbody tr').first()).toContainText(backupId!);
  await expect(
    dialog
      .locator('tbody tr')
      .first()
      .getByRole('button', { name: /^Undo the repair of runbook-prod/ }),
  ).toBeVisible();
  await dialog.getByLabel('Action').selectOption('repair');
  await expect(dialog.locator('tbody tr')).toHaveCount(1);
  await dialog.getByLabel('Action').selectOption('');
  await shootBothThemes(page, saveScreenshot, 'recovery-history');

  // The journal beside the workspace file, which the CLI's `history --workspace` reads.
  const records = (await fs.readFile(path.join(root, '.inspector-history.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(records.map((record) => [record.action, record.destination.id, record.result.outcome])).toEqual([
    ['repair', 'runbook-prod', 'applied'],
  ]);
});
