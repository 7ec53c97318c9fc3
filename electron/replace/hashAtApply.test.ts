// A plan applied at once (replace --yes: planReplace hashLargeAtApply) leaves a large old output's
// "changed on disk" hash to the apply, which runs it beside the staging copy and joins it before
// anything old is touched: the result carries the marks planning would have made, and an old output
// changed while the apply read it fails the apply as a stale plan. Real files in a temp folder.

import { promises as fs, renameSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { planAsApplied, type ReplacePlan } from '../../shared/plan';
import { planRows } from '../../shared/planRows';
import { applyPlan } from './applyPlan';
import { planReplace } from './planReplace';
import type { VerifiedOutputs } from './publish';
import { snapshotTree, stateInvariantProblems, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
let dest: string;
let source: string;

beforeEach(async () => {
  root = await tempDirForTest('hash-at-apply-');
  dest = path.join(root, 'dest');
  source = path.join(root, 'source');
});

const OLD = { id: 'reports.example', created: '2026-06-04T11:55:00Z' };
const NEW = { id: 'reports.example', created: '2026-06-05T09:00:00Z' };
// Past 1 MiB: hashed by the apply when the plan is applied at once.
const BIG = `${'0123456789abcdef'.repeat(150_000)}end`;
const BIG_EDITED = `X${BIG.slice(1)}`;

/** An older publication holding a large output and a small one; the new source publishes the same large file. */
async function fixture(): Promise<void> {
  const oldManifest = await writeBundle(path.join(root, 'old-source'), { 'media/big.bin': BIG, 'small.txt': 'old' }, OLD);
  await writeManagedDestination(dest, { manifest: oldManifest, outputs: { 'media/big.bin': BIG, 'small.txt': 'old' } });
  await writeBundle(source, { 'media/big.bin': BIG, 'small.txt': 'new' }, NEW);
}

async function planAtOnce(): Promise<{ plan: ReplacePlan; verified: VerifiedOutputs }> {
  const verified: VerifiedOutputs = new Map();
  const outcome = await planReplace({
    destinationPath: dest,
    sourcePath: source,
    mode: 'replace',
    keepVerified: verified,
    hashLargeAtApply: true,
  });
  if (!outcome.ok) throw new Error(outcome.error.message);
  return { plan: outcome.value, verified };
}

const deleteOf = (plan: ReplacePlan, relative: string) => plan.deletes.find((entry) => entry.path === relative);

describe('a plan applied at once, with a large old output', () => {
  it('leaves the large old output unhashed, with its recorded sha256 to check, and still hashes the small one', async () => {
    await fixture();
    await fs.writeFile(path.join(dest, 'small.txt'), 'odd');
    const { plan } = await planAtOnce();
    const big = deleteOf(plan, 'media/big.bin');
    expect(big?.hashAtApply).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(big?.sha256).toBeUndefined();
    expect(big?.changed).toBeUndefined();
    expect(deleteOf(plan, 'small.txt')?.changed).toBe('hash_mismatch');
    expect(planRows(plan).rows.find((row) => row.path === 'media/big.bin')?.note).toBe('its bytes on disk are checked as it is applied');
  });

  it('hashes it without the flag, as a plan shown before it is applied always has', async () => {
    await fixture();
    const outcome = await planReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(deleteOf(outcome.value, 'media/big.bin')).toMatchObject({ sha256: expect.stringMatching(/^sha256:/) });
    expect(deleteOf(outcome.value, 'media/big.bin')?.hashAtApply).toBeUndefined();
  });

  it('proves an old output unchanged in its result, and the plan as applied counts it as the same bytes written again', async () => {
    await fixture();
    const { plan, verified } = await planAtOnce();
    const result = await applyPlan(plan, { verified });
    expect(result.error).toBeUndefined();
    expect(result.checkedDeletes).toEqual([{ path: 'media/big.bin', sha256: deleteOf(plan, 'media/big.bin')?.hashAtApply }]);
    const asApplied = planAsApplied(plan, result);
    expect(planRows(asApplied).rows.find((row) => row.path === 'media/big.bin')?.kind).toBe('unchanged');
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });

  it('marks an old output edited by hand (same size) as hash_mismatch in its result, as planning would have', async () => {
    await fixture();
    await fs.writeFile(path.join(dest, 'media/big.bin'), BIG_EDITED);
    const shownFirst = await planReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' });
    if (!shownFirst.ok) throw new Error(shownFirst.error.message);
    const { plan, verified } = await planAtOnce();
    expect(plan.summary.changedCount).toBe(0);
    const result = await applyPlan(plan, { verified });
    expect(result.error).toBeUndefined();
    expect(result.checkedDeletes).toEqual([{ path: 'media/big.bin', changed: 'hash_mismatch' }]);
    const asApplied = planAsApplied(plan, result);
    expect(asApplied.summary.changedCount).toBe(1);
    // The same delete, and the same summary, as a plan hashed before it is shown.
    expect(deleteOf(asApplied, 'media/big.bin')).toEqual(deleteOf(shownFirst.value, 'media/big.bin'));
    expect(asApplied.summary).toEqual(shownFirst.value.summary);
  });

  it('fails as a stale plan, nothing old touched and no staging folder left, when the old output changes while the apply reads it', async () => {
    await fixture();
    const { plan, verified } = await planAtOnce();
    const edited = path.join(dest, 'media/big.bin');
    let edits = 0;
    const result = await applyPlan(plan, {
      verified,
      // Edited, synchronously, once the staging has begun: after the apply's first check, before the join.
      onProgress: (progress) => {
        if (progress.phase !== 'stage' || edits++ > 0) return;
        writeFileSync(edited, BIG_EDITED);
        utimesSync(edited, new Date(), new Date(Date.now() + 5_000));
      },
    });
    expect(edits).toBeGreaterThan(0);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.error?.message).toContain('"media/big.bin" changed while the apply checked its bytes');
    expect(result.oldTouched).toBe(false);
    expect(result.stagingLeft).toBe(false);
    expect(await fs.readFile(edited, 'utf8')).toBe(BIG_EDITED);
    expect(await fs.readFile(path.join(dest, 'small.txt'), 'utf8')).toBe('old');
    expect(await stateInvariantProblems(dest)).not.toEqual([]);
  });

  it('fails as a stale plan when the old output is swapped for a link while the apply reads it, never following it', async () => {
    await fixture();
    const { plan, verified } = await planAtOnce();
    const outside = path.join(root, 'outside.bin');
    writeFileSync(outside, BIG);
    const swapped = path.join(dest, 'media/big.bin');
    let swaps = 0;
    const result = await applyPlan(plan, {
      verified,
      onProgress: (progress) => {
        if (progress.phase !== 'stage' || swaps++ > 0) return;
        renameSync(swapped, `${swapped}.moved`);
        symlinkSync(outside, swapped);
      },
    });
    expect(swaps).toBeGreaterThan(0);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.oldTouched).toBe(false);
    expect(result.stagingLeft).toBe(false);
    expect((await fs.lstat(swapped)).isSymbolicLink()).toBe(true);
    expect(await fs.readFile(outside, 'utf8')).toBe(BIG);
  });

  it('takes its hashing back out when the staging fails first, leaving the destination exactly as it was', async () => {
    await fixture();
    const { plan, verified } = await planAtOnce();
    await fs.writeFile(path.join(source, 'media/big.bin'), BIG_EDITED);
    const before = await snapshotTree(dest);
    const result = await applyPlan(plan, { verified });
    expect(result.error?.code).toBe('source_changed');
    expect(result.checkedDeletes).toBeUndefined();
    expect(await snapshotTree(dest)).toBe(before);
  });
});

describe('planAsApplied', () => {
  it('returns the plan itself when the apply hashed nothing', async () => {
    await fixture();
    const { plan } = await planAtOnce();
    expect(planAsApplied(plan, {})).toBe(plan);
  });

  it('leaves a delete the apply did not get to hash marked hashAtApply', async () => {
    await fixture();
    const { plan } = await planAtOnce();
    const asApplied = planAsApplied(plan, { checkedDeletes: [{ path: 'not-in-plan', changed: 'hash_mismatch' }] });
    expect(deleteOf(asApplied, 'media/big.bin')?.hashAtApply).toBe(deleteOf(plan, 'media/big.bin')?.hashAtApply);
    expect(asApplied.summary.changedCount).toBe(plan.summary.changedCount);
  });
});
