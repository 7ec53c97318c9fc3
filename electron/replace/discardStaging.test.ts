import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { replacePlanSchema } from '../../shared/plan';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { snapshotTree, writeInterruptedStaging } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import {
  discardPlanOf,
  publishedDestination,
  reportsInterrupted,
  snapshotWithoutStaging,
  type Published,
} from '../testing/recoveryFixtures';
import { applyPlan } from './applyPlan';
import { planDiscardStaging } from './planDiscardStaging';

let fixture: Published;
let dest: string;

beforeEach(async () => {
  fixture = await publishedDestination(await tempDirForTest('discard-'));
  dest = fixture.dest;
});

describe('discard staging', () => {
  it('says which publication the staging folder holds and how many files it staged, then removes only it', async () => {
    const before = await snapshotWithoutStaging(dest);
    await writeInterruptedStaging(dest, { 'report.html': 'half', 'pages/a.html': 'half a' });
    const plan = await discardPlanOf(dest);
    expect(replacePlanSchema.safeParse(plan).success).toBe(true);
    expect(plan.mode).toBe('discard_staging');
    expect(plan.deletes).toEqual([{ path: STAGING_DIR_NAME, type: 'directory', size: 0 }]);
    expect(plan.staging).toEqual([
      expect.objectContaining({
        name: STAGING_DIR_NAME,
        stagedFiles: 2,
        stagedBytes: 10,
        trashEntries: 0,
        stateTemp: false,
        marker: expect.objectContaining({ mode: 'replace', source: expect.objectContaining({ id: 'reports.example' }) }),
      }),
    ]);
    expect(await reportsInterrupted(dest)).toBe(true);
    const result = await applyPlan(plan);
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.deleted).toEqual([STAGING_DIR_NAME]);
    expect(result.stagingLeft).toBe(false);
    expect(await reportsInterrupted(dest)).toBe(false);
    expect(await snapshotWithoutStaging(dest)).toBe(before);
  });

  it('refuses when there is nothing to discard, and never calls an unmarked folder of that name a staging folder', async () => {
    await fs.mkdir(path.join(dest, STAGING_DIR_NAME));
    await fs.writeFile(path.join(dest, STAGING_DIR_NAME, 'mine.txt'), 'not ours');
    const outcome = await planDiscardStaging({ destinationPath: dest });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('no_staging');
  });

  it('removes a link inside the staging folder as a link: nothing outside is touched', async () => {
    const staging = await writeInterruptedStaging(dest);
    await fs.symlink(fixture.outside, path.join(staging, 'files', 'escape'));
    await fs.symlink(path.join(fixture.outside, 'canary.txt'), path.join(staging, 'trash'));
    const outsideBefore = await snapshotTree(fixture.outside);
    const result = await applyPlan(await discardPlanOf(dest));
    expect(result.ok).toBe(true);
    expect(await snapshotTree(fixture.outside)).toBe(outsideBefore);
  });

  it('refuses a stale plan: the staging folder changed after planning', async () => {
    const staging = await writeInterruptedStaging(dest);
    const plan = await discardPlanOf(dest);
    await fs.writeFile(path.join(staging, 'files', 'new.html'), 'a new apply is using it');
    const result = await applyPlan(plan);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.changed).toBe(false);
  });

  it('refuses a forged plan that removes anything but a staging folder', async () => {
    await writeInterruptedStaging(dest);
    const plan = await discardPlanOf(dest);
    const before = await snapshotTree(fixture.root);
    for (const target of ['pages', '../outside', 'report.html']) {
      const forged = structuredClone(plan);
      forged.deletes = [{ path: target, type: 'directory', size: 0 }];
      forged.fingerprint.entries.push({ path: target, type: 'directory', size: 0, mtimeNs: '0', ino: '0', dev: '0' });
      const result = await applyPlan(forged);
      expect(result.ok, target).toBe(false);
    }
    expect(await snapshotTree(fixture.root)).toBe(before);
  });
});
