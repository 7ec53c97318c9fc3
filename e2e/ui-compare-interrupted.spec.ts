// Compare and Plan agree on an interrupted destination (issue 12, seen 4): docs-latam holds an older
// edition of its source (the manifests alone say replace) and the staging folder a replace killed
// after staging left behind. Compare used to say "Replace: … replace is allowed" while Plan replace
// refused; now one rule decides both and the planner refuses with the very words Compare shows.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { STAGING_DIR_NAME } from '../shared/staging';
import { expect, test } from './fixtures';
import { openDestination, openTab, seriousViolations, waitForScan } from './uiHelpers';

test('on an interrupted destination Compare says "Interrupted replace", never that replace is allowed, and Plan replace refuses in the same words', async ({
  appPage: page,
  demoWorkspace,
  saveScreenshot,
}) => {
  // axe on a loaded 2-core machine can take most of the default 30 s by itself.
  test.setTimeout(120_000);
  const dest = path.join(path.dirname(demoWorkspace), 'destinations', 'docs-latam');
  expect((await fs.readdir(dest)).filter((name) => name.startsWith(STAGING_DIR_NAME))).toEqual([STAGING_DIR_NAME]);

  await waitForScan(page);
  await openDestination(page, 'docs-latam');
  await openTab(page, 'Compare');
  const callout = page.getByTestId('compare-result').getByRole('status');
  await expect(callout).toContainText('Decision: Interrupted replace', { timeout: 15_000 });
  await expect(callout).toHaveClass(/tone-warning/);
  const sentence = page.getByTestId('decision-sentence');
  await expect(sentence).toHaveText(
    `A staging folder (${STAGING_DIR_NAME}) from an interrupted replace is in the destination: it must be cleared before anything is published here. Behind it, the comparison says: Replace.`,
  );
  const next = `Discard staging removes only that folder (Actions → Discard staging, or distributor-inspector discard-staging ${dest}); a forced replace clears it too, but deletes everything else in the folder.`;
  await expect(callout).toContainText(next);
  await expect(page.getByText(/replace is allowed/)).toHaveCount(0);
  await expect(page.getByText('Decision: Replace', { exact: true })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await saveScreenshot(page, 'compare-interrupted');
  const words = await sentence.textContent();

  await openTab(page, 'Actions');
  await page.getByRole('button', { name: 'Plan replace' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'The plan was refused' });
  await expect(refusal).toBeVisible({ timeout: 15_000 });
  await expect(refusal.locator('p').first()).toHaveText(`${words} A normal replace is refused. ${next}`);
  await expect(page.getByRole('button', { name: /^Replace: / })).toHaveCount(0);
  await expect(page.getByText(/replace is allowed/)).toHaveCount(0);
  // Neither compare nor planning touched the disk: the staging folder is still there.
  expect((await fs.readdir(dest)).filter((name) => name.startsWith(STAGING_DIR_NAME))).toEqual([STAGING_DIR_NAME]);
  await saveScreenshot(page, 'plan-interrupted');
});
