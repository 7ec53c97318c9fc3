import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseState } from '../../shared/parseDocument';
import { applyResultSchema, replacePlanSchema, type ReplacePlan } from '../../shared/plan';
import { inspectDestination } from '../engine/inspectDestination';
import { verifyDestination } from '../engine/verify';
import { sha256, snapshotTree } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { driftByHand, publishedDestination, repairPlanOf, type Published } from '../testing/recoveryFixtures';
import { applyPlan } from './applyPlan';
import { planRepair } from './planRepair';

let fixture: Published;
let dest: string;

beforeEach(async () => {
  fixture = await publishedDestination(await tempDirForTest('repair-'));
  dest = fixture.dest;
});

const stateBytes = () => fs.readFile(path.join(dest, '.distributor.json'));

async function verified() {
  const parsed = parseState(await stateBytes());
  if (parsed.status !== 'managed') throw new Error('state not valid');
  return verifyDestination(dest, parsed.state);
}

const statusOf = async (output: string) => (await verified()).outputs.find((entry) => entry.path === output)?.status;

describe('planRepair', () => {
  it('plans to rewrite exactly the drifted outputs, from proven bytes, and keeps extras and the state', async () => {
    await driftByHand(dest);
    const plan = await repairPlanOf(dest, fixture.source);
    expect(replacePlanSchema.safeParse(plan).success).toBe(true);
    expect(plan.mode).toBe('repair');
    expect(plan.action).toBe('replace');
    expect(plan.newState).toBeUndefined();
    expect(plan.writes.map((write) => write.path).sort()).toEqual(['data.csv', 'pages/deep/b.txt', 'report.html']);
    expect(plan.deletes.map((entry) => entry.path).sort()).toEqual(['data.csv', 'report.html']);
    expect(plan.deletes.some((entry) => entry.path === '.distributor.json')).toBe(false);
    expect(plan.repair?.repairs).toEqual(
      expect.arrayContaining([
        { path: 'report.html', status: 'size_mismatch', origin: 'regenerated' },
        { path: 'pages/deep/b.txt', status: 'missing', origin: 'source_file' },
      ]),
    );
    expect(plan.repair?.refused).toEqual([]);
    expect(plan.repair?.extras).toEqual(['notes.txt']);
  });

  it('plans nothing for an intact destination', async () => {
    const plan = await repairPlanOf(dest, fixture.source);
    expect(plan.action).toBe('nothing');
    expect(plan.writes).toEqual([]);
    expect(plan.repair?.driftedCount).toBe(0);
  });

  it('refuses a destination without a valid state, saying a forced replace is the way out', async () => {
    await fs.rm(path.join(dest, '.distributor.json'));
    const outcome = await planRepair({ destinationPath: dest, sourcePath: fixture.source });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('no_state');
    expect(outcome.error.message).toContain('forced replace');
  });

  it('refuses by name an output whose expected bytes cannot be proven, and repairs the rest', async () => {
    await driftByHand(dest);
    // The source changed since: report.html can no longer be regenerated to its recorded bytes.
    await fs.writeFile(path.join(fixture.source, 'report.md'), '# Report\n\nNew figures.\n');
    const plan = await repairPlanOf(dest, fixture.source);
    expect(plan.repair?.refused.map((entry) => [entry.path, entry.code])).toEqual([['report.html', 'source_changed']]);
    expect(plan.repair?.refused[0]?.message).toContain('the expected bytes are not available for report.html');
    expect(plan.writes.map((write) => write.path).sort()).toEqual(['data.csv', 'pages/deep/b.txt']);
  });
});

describe('applyPlan of a repair', () => {
  it('restores the drifted outputs byte for byte, keeps the extra file, leaves the state file untouched', async () => {
    await driftByHand(dest);
    const before = await stateBytes();
    const plan = await repairPlanOf(dest, fixture.source);
    const result = await applyPlan(plan);
    expect(applyResultSchema.safeParse(result).success).toBe(true);
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.mode).toBe('repair');
    expect(result.stateWritten).toBe(false);
    expect(result.stagingLeft).toBe(false);
    expect(result.written.sort()).toEqual(['data.csv', 'pages/deep/b.txt', 'report.html']);
    expect(await stateBytes()).toEqual(before);
    expect((await verified()).status).toBe('intact');
    expect(await fs.readFile(path.join(dest, 'notes.txt'), 'utf8')).toBe('operator notes');
    expect((await inspectDestination(dest)).issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  });

  it('without the partial repair accepted, refuses to apply and changes nothing; accepted, repairs the rest only', async () => {
    await driftByHand(dest);
    await fs.writeFile(path.join(fixture.source, 'report.md'), '# Changed since\n');
    const plan = await repairPlanOf(dest, fixture.source);
    const before = await snapshotTree(dest);
    const refused = await applyPlan(plan);
    expect(refused.error?.code).toBe('partial_not_accepted');
    expect(refused.error?.message).toContain('report.html');
    expect(refused.changed).toBe(false);
    expect(await snapshotTree(dest)).toBe(before);

    const result = await applyPlan(plan, { acceptPartial: true });
    expect(result.ok).toBe(true);
    expect(await statusOf('data.csv')).toBe('ok');
    expect(await statusOf('pages/deep/b.txt')).toBe('ok');
    expect(await statusOf('report.html')).toBe('size_mismatch');
    expect(await fs.readFile(path.join(dest, 'report.html'), 'utf8')).toBe('<p>edited by hand</p>');
  });

  it('refuses a plan that went stale: an output edited again after planning', async () => {
    await driftByHand(dest);
    const plan = await repairPlanOf(dest, fixture.source);
    await fs.writeFile(path.join(dest, 'report.html'), '<p>edited again, longer</p>');
    const result = await applyPlan(plan);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.changed).toBe(false);
  });

  it('refuses the source changing between plan and apply, before anything is changed', async () => {
    await driftByHand(dest);
    const plan = await repairPlanOf(dest, fixture.source);
    await fs.writeFile(path.join(fixture.source, 'data.csv'), 'changed\n');
    const before = await snapshotTree(dest);
    const result = await applyPlan(plan);
    expect(result.error?.code).toBe('source_changed');
    expect(await snapshotTree(dest)).toBe(before);
  });
});

describe('a repair against hostile fixtures touches nothing outside the destination', () => {
  const outsideSnapshot = () => snapshotTree(fixture.outside);

  it('a symbolic link placed where an output goes (pointing outside) is removed as a link and the output written', async () => {
    await fs.rm(path.join(dest, 'data.csv'));
    await fs.symlink(path.join(fixture.outside, 'canary.txt'), path.join(dest, 'data.csv'));
    const outsideBefore = await outsideSnapshot();
    const plan = await repairPlanOf(dest, fixture.source);
    expect(plan.deletes).toEqual([expect.objectContaining({ path: 'data.csv', type: 'symlink' })]);
    expect((await applyPlan(plan)).ok).toBe(true);
    expect((await fs.lstat(path.join(dest, 'data.csv'))).isFile()).toBe(true);
    expect(await outsideSnapshot()).toBe(outsideBefore);
    expect((await verified()).status).toBe('intact');
  });

  it('a folder holding files where an output goes is refused by name and kept; an empty one is replaced', async () => {
    await fs.rm(path.join(dest, 'data.csv'));
    await fs.mkdir(path.join(dest, 'data.csv'));
    await fs.writeFile(path.join(dest, 'data.csv', 'mine.txt'), 'mine');
    await fs.rm(path.join(dest, 'pages', 'deep', 'b.txt'));
    await fs.mkdir(path.join(dest, 'pages', 'deep', 'b.txt'));
    const plan = await repairPlanOf(dest, fixture.source);
    expect(plan.repair?.refused.map((entry) => [entry.path, entry.code])).toEqual([['data.csv', 'directory_in_place']]);
    expect((await applyPlan(plan, { acceptPartial: true })).ok).toBe(true);
    expect(await fs.readFile(path.join(dest, 'data.csv', 'mine.txt'), 'utf8')).toBe('mine');
    expect(await statusOf('pages/deep/b.txt')).toBe('ok');
  });

  it('a symbolic link in a parent folder is refused by name; nothing is written through it', async () => {
    await fs.rm(path.join(dest, 'pages'), { recursive: true });
    await fs.symlink(fixture.outside, path.join(dest, 'pages'));
    await fs.writeFile(path.join(dest, 'report.html'), 'edited');
    const outsideBefore = await outsideSnapshot();
    const plan = await repairPlanOf(dest, fixture.source);
    expect(plan.repair?.refused.map((entry) => entry.code)).toEqual(['parent_is_symlink', 'parent_is_symlink']);
    expect(plan.writes.map((write) => write.path)).toEqual(['report.html']);
    expect((await applyPlan(plan, { acceptPartial: true })).ok).toBe(true);
    expect(await outsideSnapshot()).toBe(outsideBefore);
    expect((await fs.lstat(path.join(dest, 'pages'))).isSymbolicLink()).toBe(true);
  });

  it('a parent folder swapped for a link after planning stops the apply (stale), nothing outside is touched', async () => {
    await fs.rm(path.join(dest, 'pages', 'deep'), { recursive: true });
    const plan = await repairPlanOf(dest, fixture.source);
    await fs.rename(path.join(dest, 'pages'), path.join(fixture.root, 'pages-moved'));
    await fs.symlink(fixture.outside, path.join(dest, 'pages'));
    const outsideBefore = await outsideSnapshot();
    const result = await applyPlan(plan);
    expect(result.ok).toBe(false);
    expect(await outsideSnapshot()).toBe(outsideBefore);
  });

  const forge = (plan: ReplacePlan, change: (plan: ReplacePlan) => void): ReplacePlan => {
    const copy = structuredClone(plan);
    change(copy);
    return copy;
  };

  it('refuses forged plans: a `..` path, a write of other bytes, a delete of an output that is fine, a delete of the state', async () => {
    await driftByHand(dest);
    const plan = await repairPlanOf(dest, fixture.source);
    const forgeries: [string, ReplacePlan][] = [
      ['.. write', forge(plan, (p) => void (p.writes[0]!.path = '../outside/canary.txt'))],
      ['.. delete', forge(plan, (p) => void (p.deletes[0]!.path = '../x'))],
      ['other bytes', forge(plan, (p) => void (p.writes[0]!.sha256 = sha256('other')))],
      [
        'fine output',
        forge(plan, (p) => {
          p.writes.push({ path: 'pages/a.html', size: 1, sha256: sha256('x'), kind: 'generated', source_path: 'pages/a.md' });
        }),
      ],
      ['state', forge(plan, (p) => void p.deletes.push({ path: '.distributor.json', type: 'file', size: 1 }))],
    ];
    const before = await snapshotTree(fixture.root);
    for (const [label, forged] of forgeries) {
      const result = await applyPlan(forged);
      expect(result.ok, label).toBe(false);
      expect(result.changed, label).toBe(false);
    }
    expect(await snapshotTree(fixture.root)).toBe(before);
  });
});
