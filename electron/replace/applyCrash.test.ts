// Crash consistency of apply: killed (SIGKILL, in a child process) before every mutation k, and
// failed with EIO/ENOSPC/EACCES/ENAMETOOLONG at every mutation k, the destination still keeps the
// contract's promise; a failure before the old state goes leaves the destination exactly as it was.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplaceMode, ReplacePlan } from '../../shared/plan';
import { isStagingFolderName } from '../../shared/staging';
import { interruptedStagingFolders } from '../engine/stagingReader';
import { applyPlan } from './applyPlan';
import { nodeFsOps } from './fsOps';
import { inspectDestination } from '../engine/inspectDestination';
import { planReplace } from './planReplace';
import { failAtEveryMutation } from '../testing/countingFsOps';
import { buildCrashChild, killBeforeEveryMutation } from '../testing/crashHarness';
import {
  makeTempDir,
  removeTempDir,
  sha256,
  snapshotTree,
  stateInvariantProblems,
  writeBundle,
  writeInterruptedStaging,
  writeManagedDestination,
} from '../testing/fixtures';

let workDir: string;
let childScript: string;

beforeAll(async () => {
  workDir = await makeTempDir('crash-work-');
  childScript = await buildCrashChild(workDir);
});
afterAll(async () => removeTempDir(workDir));

const EXTRAS = ['notes.txt', 'pages/keep.txt', 'link-to-outside'];

interface Fixture {
  root: string;
  dest: string;
  source: string;
  plan: ReplacePlan;
  outsideBefore: string;
  extrasBefore: string;
  destBefore: string;
}

/** Lines of a snapshot for paths outside the destination (the parent tree minus dest/). */
const outsideLines = (snapshot: string) =>
  snapshot
    .split('\n')
    .filter((line) => !/^dest[ /]/.test(line))
    .join('\n');
const extraLines = (snapshot: string) =>
  snapshot
    .split('\n')
    .filter((line) => EXTRAS.some((extra) => line.startsWith(`${extra} `)))
    .join('\n');

/** A normal replace applied at once: its large old output hashed by the apply, beside its staging (hashAtApply). */
const VARIANTS = [
  { label: 'replace', mode: 'replace', atOnce: false },
  { label: 'replace applied at once', mode: 'replace', atOnce: true },
  { label: 'force', mode: 'force', atOnce: false },
] as const;

async function makeFixture(mode: ReplaceMode, atOnce = false): Promise<Fixture> {
  const root = await makeTempDir('crash-');
  const dest = path.join(root, 'dest');
  const source = path.join(root, 'source');
  const oldManifest = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(dest, {
    manifest: oldManifest,
    outputs: {
      'report.html': 'old report',
      'pages/a.html': 'old a',
      'old/gone.html': 'gone',
      // Past 1 MiB: a plan applied at once leaves its hash to the apply.
      ...(atOnce ? { 'media/old.bin': 'old '.repeat(300_000) } : {}),
    },
    extras: { 'notes.txt': 'operator notes', 'pages/keep.txt': 'keep me' },
  });
  await fs.mkdir(path.join(root, 'outside'));
  await fs.writeFile(path.join(root, 'outside', 'canary.txt'), 'canary');
  await fs.writeFile(path.join(root, 'x'), 'canary next to the destination');
  await fs.symlink(path.join(root, 'outside'), path.join(dest, 'link-to-outside'));
  if (mode === 'force') {
    // A forced replace must also clear what an earlier interrupted replace left.
    await writeInterruptedStaging(dest);
  }
  await writeBundle(
    source,
    // media/big.bin is past the synchronous read: staged in chunks as it is verified (sourceFile.ts isStreamedSource).
    { 'report.md': '# Report\n\nNew.', 'pages/a.md': '# A', 'b.txt': 'a,b\n', 'media/big.bin': 'big '.repeat(300_000) },
    { created: '2026-06-05T09:00:00Z' },
  );
  const outcome = await planReplace({ destinationPath: dest, sourcePath: source, mode, hashLargeAtApply: atOnce });
  if (!outcome.ok) throw new Error(`plan refused: ${outcome.error.message}`);
  if (atOnce && !outcome.value.deletes.some((entry) => entry.hashAtApply !== undefined)) throw new Error('no old output left to the apply');
  const snapshot = await snapshotTree(root);
  const destBefore = await snapshotTree(dest);
  return {
    root,
    dest,
    source,
    plan: outcome.value,
    outsideBefore: outsideLines(snapshot),
    extrasBefore: extraLines(destBefore),
    destBefore,
  };
}

// Each of these runs one fixture, one apply and one recovery per mutation step (tens of them, with a
// child process killed at each in the first): well over the default timeout on a loaded 2-core machine.
const STEP_LOOP_TIMEOUT = 240_000;

/** What must hold after any interruption, and that a forced replace then finishes the job. */
async function checkAfterInterruption(fixture: Fixture, mode: ReplaceMode, label: string): Promise<void> {
  const { dest, root } = fixture;
  expect(await stateInvariantProblems(dest), label).toEqual([]);
  expect(outsideLines(await snapshotTree(root)), label).toBe(fixture.outsideBefore);
  if (mode === 'replace') expect(extraLines(await snapshotTree(dest)), label).toBe(fixture.extrasBefore);

  const inspection = await inspectDestination(dest);
  const interruptedReported = inspection.issues.some((issue) => issue.code === 'interrupted');
  // Staging folders apply made in this run (the fixture's own leftover, in force mode, was there before).
  const before = new Set(fixture.destBefore.split('\n').map((line) => line.split(' ')[0]));
  const newStaging = (await fs.readdir(dest)).filter((name) => isStagingFolderName(name) && !before.has(name));
  const marked = interruptedStagingFolders(dest);
  const stateExists = await fs.lstat(path.join(dest, '.distributor.json')).then(
    () => true,
    () => false,
  );
  expect(interruptedReported, label).toBe(marked.length > 0);
  // Without a state file the operator must be told why: the marked staging folder says so.
  if (!stateExists) expect(interruptedReported, label).toBe(true);
  // A staging folder without its marker is only ever the empty folder of the instant between mkdir and marker.
  for (const name of newStaging.filter((name) => !marked.includes(name)))
    expect(await fs.readdir(path.join(dest, name)), `${label}: unmarked ${name}`).toEqual([]);
  if (newStaging.length === 0 && mode === 'replace') expect(await snapshotTree(dest), label).toBe(fixture.destBefore);

  const force = await planReplace({
    destinationPath: dest,
    sourcePath: fixture.source,
    mode: 'force',
    configured: { pipelineId: 'reports', destinationId: 'archive' },
  });
  if (!force.ok) throw new Error(`${label}: forced replace refused: ${force.error.message}`);
  const recovered = await applyPlan(force.value);
  expect(recovered.error, label).toBeUndefined();
  expect(recovered.stagingLeft, label).toBe(false);
  expect(await stateInvariantProblems(dest), label).toEqual([]);
  const after = await inspectDestination(dest);
  expect(after.status, label).toBe('managed');
  expect(
    after.issues.filter((issue) => issue.severity === 'error'),
    label,
  ).toEqual([]);
  expect((await fs.readdir(dest)).sort(), label).toEqual(['.distributor.json', 'b.txt', 'media', 'pages', 'report.html']);
  expect(outsideLines(await snapshotTree(root)), label).toBe(fixture.outsideBefore);
}

describe.each(VARIANTS)('a $label killed before every mutation', ({ mode, atOnce }) => {
  it(
    'leaves a valid state (or none), untouched extras and canaries, an interrupted report, and recovers by force',
    async () => {
      const completedAt = await killBeforeEveryMutation(childScript, workDir, async (child, killStep) => {
        const fixture = await makeFixture(mode, atOnce);
        try {
          const run = await child.run(fixture.plan, killStep);
          if (!run.killed) {
            expect(run.result.ok).toBe(true);
            expect(await stateInvariantProblems(fixture.dest)).toEqual([]);
            return 'completed';
          }
          await checkAfterInterruption(fixture, mode, `${mode}, killed before mutation ${killStep}`);
          return 'killed';
        } finally {
          await removeTempDir(fixture.root);
        }
      });
      // Small bundle, a handful of files: a few dozen steps, each one a kill point.
      expect(completedAt).toBeGreaterThan(15);
    },
    STEP_LOOP_TIMEOUT,
  );
});

describe.each(VARIANTS)('a $label failing with an I/O error at every mutation', ({ mode, atOnce }) => {
  it(
    'returns the error as data and keeps the same promises',
    async () => {
      await failAtEveryMutation(
        async (fs) => {
          const counting = await makeFixture(mode, atOnce);
          expect((await applyPlan(counting.plan, { fs })).ok).toBe(true);
          await removeTempDir(counting.root);
        },
        async (faulty, { code, label: where }) => {
          const label = `${mode}${atOnce ? ' at once' : ''}, ${where}`;
          const fixture = await makeFixture(mode, atOnce);
          try {
            const result = await applyPlan(fixture.plan, { fs: faulty });
            expect(result.ok, label).toBe(false);
            expect(result.error?.code, label).toBe('io_error');
            expect(result.error?.details?.errno, label).toBe(code);
            expect(result.error?.message, label).toContain(code);
            // Before the old state is removed, a failure takes everything back out: exactly as it was.
            const stateStillOld = await fs
              .readFile(path.join(fixture.dest, '.distributor.json'))
              .then((bytes) => sha256(bytes) === fixture.plan.fingerprint.stateSha256)
              .catch(() => false);
            if (stateStillOld && !result.stateWritten) {
              expect(await snapshotTree(fixture.dest), label).toBe(fixture.destBefore);
              expect(result.stagingLeft, label).toBe(false);
              expect(result.changed, label).toBe(false);
            }
            await checkAfterInterruption(fixture, mode, label);
          } finally {
            await removeTempDir(fixture.root);
          }
        },
        { inner: nodeFsOps },
      );
    },
    STEP_LOOP_TIMEOUT,
  );
});

describe('a forced takeover of an unmanaged destination failing at every mutation', () => {
  it(
    'leaves the destination exactly as it was when it fails before the first delete, else reports the interruption',
    async () => {
      async function fixture() {
        const root = await makeTempDir('crash-unmanaged-');
        const dest = path.join(root, 'dest');
        await fs.mkdir(path.join(dest, 'sub'), { recursive: true });
        await fs.writeFile(path.join(dest, 'stray.txt'), 'stray');
        await fs.writeFile(path.join(dest, 'sub', 'more.txt'), 'more');
        await writeBundle(path.join(root, 'source'), { 'index.md': '# Home', 'a.txt': 'a' });
        const outcome = await planReplace({
          destinationPath: dest,
          sourcePath: path.join(root, 'source'),
          mode: 'force',
          configured: { pipelineId: 'p', destinationId: 'd' },
        });
        if (!outcome.ok) throw new Error(outcome.error.message);
        return { root, dest, plan: outcome.value, before: await snapshotTree(dest) };
      }
      await failAtEveryMutation(
        async (fs) => {
          const counting = await fixture();
          expect((await applyPlan(counting.plan, { fs })).ok).toBe(true);
          await removeTempDir(counting.root);
        },
        async (faulty, { label }) => {
          const { root, dest, plan, before } = await fixture();
          try {
            const result = await applyPlan(plan, { fs: faulty });
            expect(result.error?.code, label).toBe('io_error');
            expect(await stateInvariantProblems(dest), label).toEqual([]);
            const interrupted = (await inspectDestination(dest)).issues.some((issue) => issue.code === 'interrupted');
            if (['check', 'verify', 'stage'].includes(String(result.error?.details?.phase))) {
              expect(await snapshotTree(dest), label).toBe(before);
              expect(interrupted, label).toBe(false);
            }
            if (interrupted) expect(result.stagingLeft, label).toBe(true);
            else if (!result.stateWritten) expect(await snapshotTree(dest), label).toBe(before);
          } finally {
            await removeTempDir(root);
          }
        },
        { inner: nodeFsOps, codes: ['EIO'] },
      );
    },
    STEP_LOOP_TIMEOUT,
  );
});
