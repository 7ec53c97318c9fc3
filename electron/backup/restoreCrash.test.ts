// Crash consistency of restore: a restore killed (SIGKILL, in a child process) before every mutation k
// leaves a destination whose state never claims an output it does not have, and the same restore
// planned again finishes the job (the destination exactly as it was before the apply); a forced
// replace recovers it too.

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../replace/applyPlan';
import { planReplace } from '../replace/planReplace';
import { replacedWithBackup } from '../testing/backupFixtures';
import { buildCrashChild, startCrashChild } from '../testing/crashHarness';
import { makeTempDir, removeTempDir, snapshotTree, stateInvariantProblems } from '../testing/fixtures';
import { applyRestore } from './applyRestore';
import { planRestore } from './planRestore';

let workDir: string;
let childScript: string;
beforeAll(async () => {
  workDir = await makeTempDir('restore-crash-work-');
  childScript = await buildCrashChild(workDir);
});
afterAll(async () => removeTempDir(workDir));

// One fixture, one child killed and one recovery per mutation step: well over the default timeout on a loaded 2-core machine.
const STEP_LOOP_TIMEOUT = 240_000;

async function restorePlanOf(folder: string, dest: string) {
  const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
  if (!planned.ok) throw new Error(`${planned.error.code}: ${planned.error.message}`);
  return planned.value;
}

describe.each(['replace', 'force'] as const)('the restore of a %s killed before every mutation', (mode) => {
  it(
    'never leaves a state that claims a missing output, and a second restore (or a forced replace) recovers',
    async () => {
      let completedAt: number | undefined;
      let child = startCrashChild(childScript, workDir);
      try {
        for (let killStep = 1; completedAt === undefined && killStep < 200; killStep++) {
          const root = await makeTempDir('restore-crash-');
          const label = `restore of a ${mode}, killed before mutation ${killStep}`;
          try {
            const { dest, before, folder } = await replacedWithBackup(root, mode);
            const plan = await restorePlanOf(folder, dest);
            const running = child.runRestore(plan, killStep);
            child = startCrashChild(childScript, workDir);
            const run = await running;
            if (!run.killed) {
              expect(run.result.error, label).toBeUndefined();
              expect(run.result.mutations, label).toBe(killStep - 1);
              expect(await snapshotTree(dest), label).toBe(before);
              completedAt = killStep;
              break;
            }
            expect(await stateInvariantProblems(dest), label).toEqual([]);
            // Every other step: the restore planned again finishes; else a forced replace from the source recovers.
            if (killStep % 2 === 1) {
              const again = await applyRestore(await restorePlanOf(folder, dest));
              expect(again.error, label).toBeUndefined();
              expect(await snapshotTree(dest), label).toBe(before);
            } else {
              const force = await planReplace({
                destinationPath: dest,
                sourcePath: path.join(root, 'source'),
                mode: 'force',
                configured: { pipelineId: 'reports', destinationId: 'archive' },
              });
              if (!force.ok) throw new Error(`${label}: forced replace refused: ${force.error.message}`);
              const recovered = await applyPlan(force.value);
              expect(recovered.error, label).toBeUndefined();
              expect(await stateInvariantProblems(dest), label).toEqual([]);
            }
          } finally {
            await removeTempDir(root);
          }
        }
      } finally {
        child.dispose();
      }
      // A handful of entries to remove and put back: each one a kill point.
      expect(completedAt).toBeGreaterThan(5);
    },
    STEP_LOOP_TIMEOUT,
  );
});
