// Crash consistency of restore: a restore killed (SIGKILL, in a child process) before every mutation k
// leaves a destination whose state never claims an output it does not have, and the same restore
// planned again finishes the job (the destination exactly as it was before the apply); a forced
// replace recovers it too. And of a discard of staging that keeps a backup, killed before (or failed
// with an I/O error at) every mutation, the backup on the same file system or copied to another: the
// state and everything outside the staging folder stay as they were, and restoring whatever backup
// was made (if one was) gives the staging folder back byte for byte.

import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../replace/applyPlan';
import { planReplace } from '../replace/planReplace';
import { discardedWithBackup, replacedWithBackup, stagingToDiscard } from '../testing/backupFixtures';
import { buildCrashChild, killBeforeEveryMutation } from '../testing/crashHarness';
import { failAtEveryMutation } from '../testing/countingFsOps';
import { makeTempDir, removeTempDir, sha256, snapshotTree, stateInvariantProblems } from '../testing/fixtures';
import { nodeFsOps, type FsOps } from '../replace/fsOps';
import { readBackup } from './backupStore';
import { backupWriter } from './backupWriter';
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

describe.each(['replace', 'force', 'discard_staging'] as const)('the restore of a %s killed before every mutation', (mode) => {
  it(
    'never leaves a state that claims a missing output, and a second restore (or a forced replace) recovers',
    async () => {
      const completedAt = await killBeforeEveryMutation(childScript, workDir, async (child, killStep) => {
        const root = await makeTempDir('restore-crash-');
        const label = `restore of a ${mode}, killed before mutation ${killStep}`;
        try {
          const { dest, before, folder } =
            mode === 'discard_staging' ? await discardedWithBackup(root) : await replacedWithBackup(root, mode);
          const run = await child.runRestore(await restorePlanOf(folder, dest), killStep);
          if (!run.killed) {
            expect(run.result.error, label).toBeUndefined();
            expect(await snapshotTree(dest), label).toBe(before);
            return 'completed';
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
          return 'killed';
        } finally {
          await removeTempDir(root);
        }
      });
      // A handful of entries to remove and put back: each one a kill point (a discard's: one folder moved back, then synced).
      expect(completedAt).toBeGreaterThan(mode === 'discard_staging' ? 1 : 5);
    },
    STEP_LOOP_TIMEOUT,
  );
});

// ── discard of staging with a backup, interrupted at every step ──

const canMount = process.platform === 'linux' && process.getuid?.() === 0;
if (!canMount) console.warn('restoreCrash.test.ts: the copied-backup variant needs root to mount a tmpfs; skipped');
const backupPlaces = canMount ? (['same file system', 'another file system'] as const) : (['same file system'] as const);

/** The discard fixture in `root`, its backups where the variant says (a tmpfs for another file system). */
async function discardFixture(root: string, place: (typeof backupPlaces)[number]) {
  const fixture = await stagingToDiscard(root);
  let backups = path.join(root, 'backups', 'archive');
  let unmount = () => {};
  if (place === 'another file system') {
    const other = path.join(root, 'other');
    await fs.mkdir(other);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', other], { stdio: 'pipe' });
    unmount = () => execFileSync('umount', [other]);
    backups = path.join(other, 'archive');
  }
  const stateSha256 = sha256(await fs.readFile(path.join(fixture.dest, '.distributor.json')));
  return { ...fixture, backups, unmount, stateSha256, outsideBefore: await snapshotTree(fixture.outside) };
}

/** After any interruption: the state and the outside untouched; then the backup made (if any) restored gives back the staging folder exactly. */
async function checkDiscardInterrupted(fixture: Awaited<ReturnType<typeof discardFixture>>, label: string): Promise<void> {
  const { dest } = fixture;
  expect(sha256(await fs.readFile(path.join(dest, '.distributor.json'))), `${label}: the state`).toBe(fixture.stateSha256);
  expect(await snapshotTree(fixture.outside), `${label}: outside`).toBe(fixture.outsideBefore);
  expect(await stateInvariantProblems(dest), label).toEqual([]);
  const ids = await fs.readdir(fixture.backups).catch(() => [] as string[]);
  for (const id of ids) {
    const folder = path.join(fixture.backups, id);
    // A backup killed before its backup.json was written names nothing: the discard had not moved anything yet.
    if (!(await readBackup(folder)).ok) continue;
    const restored = await applyRestore(await restorePlanOf(folder, dest));
    expect(restored.error, label).toBeUndefined();
  }
  expect(await snapshotTree(dest), `${label}: the staging folder back`).toBe(fixture.before);
}

describe.each(backupPlaces)('a discard of staging keeping its backup on the %s', (place) => {
  it(
    'killed before every mutation: the state and the rest stay, and restoring the backup gives the staging folder back byte for byte',
    async () => {
      const completedAt = await killBeforeEveryMutation(
        childScript,
        workDir,
        async (child, killStep) => {
          const root = await makeTempDir('discard-crash-');
          const fixture = await discardFixture(root, place);
          const label = `discard (backup on the ${place}), killed before mutation ${killStep}`;
          try {
            const run = await child.run(fixture.plan, killStep, { backupsFolder: fixture.backups });
            if (!run.killed) {
              expect(run.result.error, label).toBeUndefined();
            }
            await checkDiscardInterrupted(fixture, label);
            return run.killed ? 'killed' : 'completed';
          } finally {
            fixture.unmount();
            await removeTempDir(root);
          }
        },
        300,
      );
      // The backup's folders and backup.json, then the move (or the copies, then each entry removed).
      expect(completedAt).toBeGreaterThan(place === 'same file system' ? 5 : 15);
    },
    STEP_LOOP_TIMEOUT,
  );

  it(
    'failing with an I/O error at every mutation: the error comes back as data, and the same promises hold',
    async () => {
      const withBackup = (fixture: Awaited<ReturnType<typeof discardFixture>>, fs: FsOps) => ({
        fs,
        backup: backupWriter({ destinationFolder: fixture.backups, action: fixture.plan.mode }),
      });
      await failAtEveryMutation(
        async (fs) => {
          const root = await makeTempDir('discard-fault-count-');
          const counting = await discardFixture(root, place);
          try {
            expect((await applyPlan(counting.plan, withBackup(counting, fs))).error).toBeUndefined();
          } finally {
            counting.unmount();
            await removeTempDir(root);
          }
        },
        async (faulty, { code, label: where }) => {
          const label = `discard (backup on the ${place}), ${where}`;
          const stepRoot = await makeTempDir('discard-fault-');
          const fixture = await discardFixture(stepRoot, place);
          try {
            const result = await applyPlan(fixture.plan, withBackup(fixture, faulty));
            expect(result.ok, label).toBe(false);
            // In the backup step it says that it stopped before anything was removed; after it, the errno.
            if (result.error?.code === 'backup_failed') {
              expect(result.error.message, label).toMatch(/stopped before anything was deleted/);
              expect(result.changed, label).toBe(false);
            } else expect(result.error?.details?.errno, label).toBe(code);
            await checkDiscardInterrupted(fixture, label);
          } finally {
            fixture.unmount();
            await removeTempDir(stepRoot);
          }
        },
        { inner: nodeFsOps },
      );
    },
    STEP_LOOP_TIMEOUT,
  );
});
