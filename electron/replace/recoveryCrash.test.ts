// Crash consistency of the two recovery plans: a repair and a discard of staging, killed (SIGKILL, in
// a child process) before every mutation k, or failed with an errno error at every mutation k. After
// any interruption the state file is the one it was, no output holds bytes other than the drifted ones
// it had or the recorded ones (it may be missing, which the state never hides: verify says so), extras
// and everything outside are untouched, and a later repair (or discard, or forced replace) recovers.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseState } from '../../shared/parseDocument';
import type { ReplacePlan } from '../../shared/plan';
import { isStagingFolderName, STAGING_DIR_NAME } from '../../shared/staging';
import { inspectDestination } from '../engine/inspectDestination';
import { interruptedStagingFolders } from '../engine/stagingReader';
import { failAtEveryMutation } from '../testing/countingFsOps';
import { buildCrashChild, killBeforeEveryMutation } from '../testing/crashHarness';
import { makeTempDir, removeTempDir, sha256, snapshotTree, stateInvariantProblems, writeInterruptedStaging } from '../testing/fixtures';
import { discardPlanOf, driftByHand, publishedDestination, repairPlanOf, type Published } from '../testing/recoveryFixtures';
import { applyPlan } from './applyPlan';
import { nodeFsOps } from './fsOps';
import { planReplace } from './planReplace';

// One fixture, one apply and one recovery per mutation step, a child process killed at each.
const STEP_LOOP_TIMEOUT = 240_000;

let workDir: string;
let childScript: string;

beforeAll(async () => {
  workDir = await makeTempDir('recovery-crash-work-');
  childScript = await buildCrashChild(workDir);
});
afterAll(async () => removeTempDir(workDir));

type Kind = 'repair' | 'discard';

interface Fixture extends Published {
  plan: ReplacePlan;
  /** The state file's sha256 before the apply: neither kind may ever change it. */
  stateSha256: string;
  /** Each recorded output's bytes on disk before the apply (undefined: missing) and its recorded sha256. */
  outputs: Map<string, { before: string | undefined; recorded: string }>;
  /** The destination without any staging folder, and the outside canaries, before the apply. */
  destBefore: string;
  outsideBefore: string;
  /** What the destination looks like when it is whole again: every output recorded, extras kept. */
  recoveredTree: string;
}

const withoutStaging = (snapshot: string) =>
  snapshot
    .split('\n')
    .filter((line) => !isStagingFolderName(line.split(/[ /]/)[0] ?? ''))
    .join('\n');

const fileSha = (file: string) => fs.readFile(file).then(sha256, () => undefined);

async function makeFixture(kind: Kind): Promise<Fixture> {
  const published = await publishedDestination(await makeTempDir(`recovery-crash-${kind}-`));
  const { dest, outside } = published;
  // A link to the outside among the extras: nothing may be written or removed through it.
  await fs.symlink(outside, path.join(dest, 'link-to-outside'));
  await fs.writeFile(path.join(dest, 'notes.txt'), 'operator notes');
  const recoveredTree = await snapshotTree(dest);
  let plan: ReplacePlan;
  if (kind === 'repair') {
    await driftByHand(dest);
    plan = await repairPlanOf(dest, published.source);
  } else {
    const staging = await writeInterruptedStaging(dest, { 'report.html': 'half', 'pages/a.html': 'half a', 'pages/deep/b.txt': 'b' });
    await fs.mkdir(path.join(staging, 'trash', 'old', 'nested'), { recursive: true });
    await fs.writeFile(path.join(staging, 'trash', 'old', 'nested', 'gone.html'), 'gone');
    await fs.symlink(outside, path.join(staging, 'files', 'escape'));
    plan = await discardPlanOf(dest);
  }
  const stateBytes = await fs.readFile(path.join(dest, '.distributor.json'));
  const parsed = parseState(stateBytes);
  if (parsed.status !== 'managed') throw new Error('fixture state is not valid');
  const outputs = new Map<string, { before: string | undefined; recorded: string }>();
  for (const output of parsed.state.outputs)
    outputs.set(output.path, { before: await fileSha(path.join(dest, output.path)), recorded: output.sha256 });
  return {
    ...published,
    plan,
    stateSha256: sha256(stateBytes),
    outputs,
    destBefore: withoutStaging(await snapshotTree(dest)),
    outsideBefore: await snapshotTree(outside),
    recoveredTree,
  };
}

/** Every output is as it was, restored, or missing: never half-written or other bytes. */
async function outputProblems(fixture: Fixture): Promise<string[]> {
  const problems: string[] = [];
  for (const [output, { before, recorded }] of fixture.outputs) {
    const full = path.join(fixture.dest, output);
    const stat = await fs.lstat(full).catch(() => undefined);
    if (!stat) continue;
    if (!stat.isFile()) {
      problems.push(`${output} is not a file`);
      continue;
    }
    const now = await fileSha(full);
    if (now !== before && now !== recorded) problems.push(`${output} holds neither its old nor its recorded bytes`);
  }
  return problems;
}

/** What must hold after any interruption, then the way back: repair (or discard) again, else a forced replace. */
async function checkAfterInterruption(fixture: Fixture, kind: Kind, label: string): Promise<void> {
  const { dest } = fixture;
  expect(await fileSha(path.join(dest, '.distributor.json')), `${label}: the state file`).toBe(fixture.stateSha256);
  expect(await snapshotTree(fixture.outside), `${label}: outside`).toBe(fixture.outsideBefore);
  expect(await outputProblems(fixture), label).toEqual([]);
  const destNow = withoutStaging(await snapshotTree(dest));
  if (kind === 'discard') expect(destNow, `${label}: a discard touches only the staging folder`).toBe(fixture.destBefore);
  for (const extra of ['notes.txt', 'link-to-outside'])
    expect(
      destNow.split('\n').find((line) => line.startsWith(`${extra} `)),
      `${label}: ${extra}`,
    ).toBe(fixture.recoveredTree.split('\n').find((line) => line.startsWith(`${extra} `)));

  // A staging folder is reported as interrupted exactly when it is marked; an unmarked one is only
  // ever the empty folder of the instant between mkdir and marker (or between marker and rmdir).
  const marked = interruptedStagingFolders(dest);
  const inspection = await inspectDestination(dest);
  expect(
    inspection.issues.some((issue) => issue.code === 'interrupted'),
    label,
  ).toBe(marked.length > 0);
  for (const name of (await fs.readdir(dest)).filter((name) => isStagingFolderName(name) && !marked.includes(name)))
    expect(await fs.readdir(path.join(dest, name)), `${label}: unmarked ${name}`).toEqual([]);

  if (kind === 'repair') {
    // A later repair finishes the job: every output recorded again, the extras still there.
    const again = await repairPlanOf(dest, fixture.source);
    const repaired = await applyPlan(again);
    expect(repaired.error, label).toBeUndefined();
    expect(await stateInvariantProblems(dest), label).toEqual([]);
  }
  // What a killed apply left in staging is then discarded (marked) or, empty and unmarked, removed by hand.
  if (interruptedStagingFolders(dest).length > 0) {
    const discarded = await applyPlan(await discardPlanOf(dest));
    expect(discarded.error, label).toBeUndefined();
  }
  for (const name of (await fs.readdir(dest)).filter(isStagingFolderName)) await fs.rmdir(path.join(dest, name));
  if (kind === 'repair') expect(await snapshotTree(dest), `${label}: recovered`).toBe(fixture.recoveredTree);
  else expect(await snapshotTree(dest), `${label}: recovered`).toBe(fixture.destBefore);
  expect((await inspectDestination(dest)).issues.filter((issue) => issue.severity === 'error')).toEqual([]);

  // And a forced replace from the source also clears whatever it was left as.
  const force = await planReplace({ destinationPath: dest, sourcePath: fixture.source, mode: 'force' });
  if (!force.ok) throw new Error(`${label}: forced replace refused: ${force.error.message}`);
  expect((await applyPlan(force.value)).error, label).toBeUndefined();
  expect(await stateInvariantProblems(dest), label).toEqual([]);
}

describe.each(['repair', 'discard'] as const)('a %s killed before every mutation', (kind) => {
  it(
    'keeps the state file, never leaves other bytes in an output, keeps extras and canaries, and recovers',
    async () => {
      const completedAt = await killBeforeEveryMutation(childScript, workDir, async (child, killStep) => {
        const fixture = await makeFixture(kind);
        try {
          const run = await child.run(fixture.plan, killStep);
          if (!run.killed) {
            expect(run.result.error).toBeUndefined();
            if (kind === 'repair') expect(await stateInvariantProblems(fixture.dest)).toEqual([]);
            else expect(await fs.readdir(fixture.dest)).not.toContain(STAGING_DIR_NAME);
            return 'completed';
          }
          await checkAfterInterruption(fixture, kind, `${kind}, killed before mutation ${killStep}`);
          return 'killed';
        } finally {
          await removeTempDir(fixture.root);
        }
      });
      // Each kind makes several mutations (repair: stage, delete, move, clean up; discard: each entry, marker last).
      expect(completedAt).toBeGreaterThan(kind === 'repair' ? 8 : 4);
    },
    STEP_LOOP_TIMEOUT,
  );
});

describe.each(['repair', 'discard'] as const)('a %s failing with an I/O error at every mutation', (kind) => {
  it(
    'returns the error as data and keeps the same promises',
    async () => {
      await failAtEveryMutation(
        async (fs) => {
          const counting = await makeFixture(kind);
          expect((await applyPlan(counting.plan, { fs })).ok).toBe(true);
          await removeTempDir(counting.root);
        },
        async (faulty, { code, label: where }) => {
          const label = `${kind}, ${where}`;
          const fixture = await makeFixture(kind);
          try {
            const result = await applyPlan(fixture.plan, { fs: faulty });
            expect(result.ok, label).toBe(false);
            expect(result.error?.code, label).toBe('io_error');
            expect(result.error?.details?.errno, label).toBe(code);
            await checkAfterInterruption(fixture, kind, label);
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
