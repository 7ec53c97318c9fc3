// The backup of a repair through operations/ (applyBackup.ts records the state the repair leaves in
// place): its restore puts the drifted bytes back and never touches the state.

import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyRestore } from '../backup/applyRestore';
import { planRestore } from '../backup/planRestore';
import { snapshotTree } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { driftByHand, publishedDestination, repairPlanOf } from '../testing/recoveryFixtures';
import { applyReplacePlan } from './applyReplacePlan';

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('repair-backup-');
});

async function restore(folder: string, dest: string) {
  const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
  if (!planned.ok) throw new Error(`${planned.error.code}: ${planned.error.message}`);
  return { plan: planned.value, result: await applyRestore(planned.value) };
}

describe('restoring the backup of a repair', () => {
  it('puts the drifted bytes back and leaves the state, which the repair never touched, in place', async () => {
    const { dest, source } = await publishedDestination(root);
    await driftByHand(dest);
    const before = await snapshotTree(dest);
    const backups = { settings: { enabled: true as const, folder: path.join(root, 'backups'), keep: 5 }, destinationId: 'archive' };
    const { result } = await applyReplacePlan(await repairPlanOf(dest, source), { backup: backups });
    expect(result.ok).toBe(true);
    expect(result.backup?.method).toBe('rename');
    expect(await snapshotTree(dest)).not.toBe(before);
    const { result: restored } = await restore(result.backup!.folder, dest);
    expect(restored.error).toBeUndefined();
    expect(restored.removed).not.toContain('.distributor.json');
    expect(await snapshotTree(dest)).toBe(before);
  });
});
