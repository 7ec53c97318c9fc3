// A plan the service keeps is checked once and sealed (sealedPlan.ts): its apply takes it as it is,
// and nothing can change it after the check. Real files in a temp folder.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { replacePlanSchema, type ReplacePlan } from '../../shared/plan';
import { stateInvariantProblems, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { applyPlan } from './applyPlan';
import { planReplace } from './planReplace';
import { isSealedPlan, sealPlan } from './sealedPlan';

let root: string;
let dest: string;
let source: string;

beforeEach(async () => {
  root = await tempDirForTest('sealed-plan-');
  dest = path.join(root, 'dest');
  source = path.join(root, 'source');
  const oldManifest = await writeBundle(path.join(root, 'old'), { 'report.md': '# Old' }, { id: 'r', created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(dest, { manifest: oldManifest, outputs: { 'report.html': '<p>old</p>' } });
  await writeBundle(source, { 'report.md': '# New', 'a/b.txt': 'b' }, { id: 'r', created: '2026-06-05T09:00:00Z' });
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function plan(): Promise<ReplacePlan> {
  const outcome = await planReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' });
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value;
}

describe('a sealed plan', () => {
  it('is the checked copy, frozen whole: a write, a delete or the new state cannot be changed after the check', async () => {
    const sealed = sealPlan(await plan());
    if (!sealed.ok) throw new Error(sealed.problems);
    expect(isSealedPlan(sealed.plan)).toBe(true);
    expect(() => {
      (sealed.plan.writes[0] as { path: string }).path = '../outside.txt';
    }).toThrow(TypeError);
    expect(() => (sealed.plan.deletes as unknown[]).push({ path: 'extra.txt', type: 'file', size: 1 })).toThrow(TypeError);
    expect(() => {
      (sealed.plan.newState as { outputs: unknown[] }).outputs.length = 0;
    }).toThrow(TypeError);
    expect(sealed.plan.writes.map((write) => write.path)).toEqual(['report.html', 'a/b.txt']);
  });

  it('is known by its own object only: a copy of it is checked again, like any plan handed in', async () => {
    const sealed = sealPlan(await plan());
    if (!sealed.ok) throw new Error(sealed.problems);
    expect(isSealedPlan(structuredClone(sealed.plan))).toBe(false);
    expect(isSealedPlan({ ...sealed.plan })).toBe(false);
  });

  it('is never made of a plan the schema refuses, which names the field', async () => {
    const bad = { ...(await plan()), stagingName: 42 };
    expect(sealPlan(bad)).toEqual({ ok: false, problems: expect.stringContaining('stagingName') });
  });

  it('is applied without a second check against the schema; a plan handed in unsealed is checked', async () => {
    const sealed = sealPlan(await plan());
    if (!sealed.ok) throw new Error(sealed.problems);
    const check = vi.spyOn(replacePlanSchema, 'safeParse');
    const result = await applyPlan(sealed.plan);
    expect(result.error).toBeUndefined();
    expect(check).not.toHaveBeenCalled();
    expect(await stateInvariantProblems(dest)).toEqual([]);
    expect(await fs.readFile(path.join(dest, 'a/b.txt'), 'utf8')).toBe('b');

    const unsealed = JSON.parse(JSON.stringify(sealed.plan)) as ReplacePlan;
    const refused = await applyPlan({ ...unsealed, stagingName: 42 } as never);
    expect(check).toHaveBeenCalledTimes(1);
    expect(refused.error?.message).toContain('the plan is not a valid plan');
  });
});
