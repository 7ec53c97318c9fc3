// Compare never calls a drifted destination up to date (issue 12, seen 3): docs-eu holds exactly its
// configured source manifest, then one output is edited by hand and one removed. Compare must say the
// manifest matches but 2 outputs differ, name them with their problem, and point to Repair and to what
// a forced replace would delete. Before the outputs were verified, it said "Up to date: nothing to do".

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, waitForScan } from './uiHelpers';

test('Compare on a destination whose outputs were edited by hand shows the drift and the way back, never "Up to date"', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  await waitForScan(page);
  await openDestination(page, 'docs-eu');
  await openTab(page, 'Compare');
  const result = page.getByTestId('compare-result');
  // Untouched, the verified outputs back the green answer.
  await expect(result.getByRole('status')).toContainText('Decision: Up to date', { timeout: 15_000 });
  await expect(page.getByTestId('decision-sentence')).toContainText('outputs match what the state records: nothing to do.');

  const dest = path.join(path.dirname(demoWorkspace), 'destinations', 'docs-eu');
  const state = JSON.parse(await fs.readFile(path.join(dest, '.distributor.json'), 'utf8')) as { outputs: { path: string }[] };
  const [edited, removed] = state.outputs.map((output) => output.path);
  if (!edited || !removed) throw new Error('docs-eu records at least two outputs');
  await fs.appendFile(path.join(dest, edited), 'edited by hand on the server\n');
  await fs.rm(path.join(dest, removed));
  await fs.writeFile(path.join(dest, 'notes-by-hand.txt'), 'kept by a repair\n');

  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const callout = result.getByRole('status');
  await expect(callout).toContainText('Decision: Manifest matches, outputs drifted', { timeout: 15_000 });
  await expect(callout).toHaveClass(/tone-warning/);
  const count = state.outputs.length;
  await expect(page.getByTestId('decision-sentence')).toHaveText(
    `The destination records exactly this source manifest, but 2 of ${count} outputs differ from what the state records: ${edited} (size_mismatch) and ${removed} (missing).`,
  );
  const drift = page.getByRole('list', { name: 'Outputs that differ from the state' });
  await expect(drift.getByRole('listitem')).toHaveText([`${edited} size_mismatch`, `${removed} missing`]);
  await expect(callout).toContainText(`Repair restores them (Actions → Repair, or distributor-inspector repair ${dest})`);
  await expect(callout).toContainText('and keeps the 1 extra file');
  await expect(callout).toContainText(
    `A forced replace restores them too, but deletes everything in the folder first: the state file, the ${count - 1} recorded outputs still there, and the 1 file no state records (notes-by-hand.txt).`,
  );
  await expect(page.getByText(/Up to date/)).toHaveCount(0);
  await expect(page.getByText(/nothing to do/)).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await saveScreenshot(page, 'compare-drift');
});
