// A repair that keeps some drifted outputs as they are, on real folders: only the chosen ones are
// rewritten, the kept one keeps its hotfix bytes and stays drifted (verify says so, the state file is
// byte for byte the publisher's), hostile selections are refused by name, a path edited between plan
// and apply makes it stale (undoing one: backup/repairKeepRestore.test.ts).

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseState } from '../../shared/parseDocument';
import { replacePlanSchema } from '../../shared/plan';
import { verifyDestination } from '../engine/verify';
import { snapshotTree } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { driftByHand, publishedDestination, type Published } from '../testing/recoveryFixtures';
import { applyPlan } from './applyPlan';
import { planRepair } from './planRepair';

let fixture: Published;
let dest: string;
const HOTFIX = '<p>hotfix: the figures corrected on the server</p>';

beforeEach(async () => {
  fixture = await publishedDestination(await tempDirForTest('repair-keep-'));
  dest = fixture.dest;
  await driftByHand(dest);
  await fs.writeFile(path.join(dest, 'report.html'), HOTFIX);
});

const stateBytes = () => fs.readFile(path.join(dest, '.distributor.json'));

async function statuses() {
  const parsed = parseState(await stateBytes());
  if (parsed.status !== 'managed') throw new Error('state not valid');
  const report = await verifyDestination(dest, parsed.state);
  return Object.fromEntries(report.outputs.map((output) => [output.path, output.status]));
}

async function planKeeping(keep: string[]) {
  const outcome = await planRepair({ destinationPath: dest, sourcePath: fixture.source, keep });
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

async function refusalKeeping(keep: string[]) {
  const outcome = await planRepair({ destinationPath: dest, sourcePath: fixture.source, keep });
  if (outcome.ok) throw new Error('expected a refusal');
  return outcome.error;
}

describe('a repair keeping chosen drifted outputs', () => {
  it('plans only the chosen outputs and lists the kept one with what verify found', async () => {
    const plan = await planKeeping(['report.html']);
    expect(replacePlanSchema.safeParse(plan).success).toBe(true);
    expect(plan.writes.map((write) => write.path).sort()).toEqual(['data.csv', 'pages/deep/b.txt']);
    expect(plan.deletes.map((entry) => entry.path)).toEqual(['data.csv']);
    expect(plan.repair?.kept).toEqual([{ path: 'report.html', status: 'size_mismatch', origin: 'regenerated' }]);
    expect(plan.repair?.repairs.map((entry) => entry.path).sort()).toEqual(['data.csv', 'pages/deep/b.txt']);
    expect(plan.repair?.driftedCount).toBe(3);
    expect(plan.summary.writeCount).toBe(2);
    expect(plan.summary.deleteCount).toBe(1);
  });

  it('rewrites the others, leaves the kept hotfix byte for byte and drifted, and never touches the state file', async () => {
    const stateBefore = await stateBytes();
    const result = await applyPlan(await planKeeping(['report.html']));
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.written.sort()).toEqual(['data.csv', 'pages/deep/b.txt']);
    expect(await fs.readFile(path.join(dest, 'report.html'), 'utf8')).toBe(HOTFIX);
    expect(await stateBytes()).toEqual(stateBefore);
    // We never pretend: the state still records the publisher's bytes, so verify still reports the hotfix.
    expect(await statuses()).toMatchObject({ 'report.html': 'size_mismatch', 'data.csv': 'ok', 'pages/deep/b.txt': 'ok' });
  });

  it('plans nothing when every drifted output is kept', async () => {
    const plan = await planKeeping(['report.html', 'data.csv', 'pages/deep/b.txt']);
    expect(plan.action).toBe('nothing');
    expect(plan.writes).toEqual([]);
    expect(plan.deletes).toEqual([]);
    expect(plan.stagingName).toBe('');
    expect(plan.repair?.kept?.map((entry) => entry.path).sort()).toEqual(['data.csv', 'pages/deep/b.txt', 'report.html']);
  });

  it('refuses to keep an output that is fine, a path that is no output, or the state file', async () => {
    for (const keep of ['pages/a.html', 'nowhere.html', '.distributor.json', 'notes.txt']) {
      const refusal = await refusalKeeping([keep]);
      expect(refusal.code).toBe('keep_not_in_plan');
      expect(refusal.message).toContain(`"${keep}" is not a drifted output this repair rewrites`);
    }
  });

  it('refuses to keep an output the repair refuses anyway, saying why it is refused', async () => {
    await fs.writeFile(path.join(fixture.source, 'data.csv'), 'changed since\n');
    const refusal = await refusalKeeping(['data.csv']);
    expect(refusal.code).toBe('keep_not_in_plan');
    expect(refusal.message).toContain('is not rewritten by this repair anyway');
  });

  it('refuses a path to keep that is not clean, naming the path and the rule', async () => {
    for (const keep of ['../report.html', 'pages/../report.html', '/etc/passwd', './report.html', 'pages//a.html', 'a\\b', '']) {
      const refusal = await refusalKeeping([keep]);
      expect(refusal.code).toBe('keep_unclean_path');
      expect(refusal.details).toEqual({ path: keep });
    }
  });

  it('is stale when a chosen output changed between plan and apply, and changes nothing', async () => {
    const plan = await planKeeping(['report.html']);
    await fs.writeFile(path.join(dest, 'data.csv'), 'edited again\n');
    const before = await snapshotTree(dest);
    const result = await applyPlan(plan);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.changed).toBe(false);
    expect(await snapshotTree(dest)).toBe(before);
  });

  it('is stale when the kept output changed between plan and apply: the plan no longer says what stands there', async () => {
    const plan = await planKeeping(['report.html']);
    await fs.writeFile(path.join(dest, 'report.html'), `${HOTFIX} and a second hotfix`);
    const result = await applyPlan(plan);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.changed).toBe(false);
  });

  it('refuses at apply a plan that would write or delete an output it says it keeps', async () => {
    const full = await planKeeping([]);
    const kept = full.repair!.repairs.find((entry) => entry.path === 'report.html')!;
    const forged = { ...full, repair: { ...full.repair!, kept: [kept] } };
    const before = await snapshotTree(dest);
    const result = await applyPlan(forged);
    expect(result.error?.code).toBe('invalid_plan');
    expect(result.error?.message).toContain('"report.html" is kept as it is');
    expect(await snapshotTree(dest)).toBe(before);
  });
});
