import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseState } from '../../shared/parseDocument';
import { replacePlanSchema, type ReplacePlan } from '../../shared/plan';
import { verifyDestination } from '../engine/verify';
import { sha256, snapshotTree } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { publishedDestination, type Published } from '../testing/recoveryFixtures';
import { applyPlan } from './applyPlan';
import { compareFolder } from './compareFolder';
import { planAdopt } from './planAdopt';

let fixture: Published;
let dest: string;
const ids = { pipelineId: 'reports', destinationId: 'archive' };

/** A folder holding exactly what the source publishes, plus an extra file and a link out of the tree, with no state file. */
beforeEach(async () => {
  fixture = await publishedDestination(await tempDirForTest('adopt-'));
  dest = fixture.dest;
  await fs.rm(path.join(dest, '.distributor.json'));
  await fs.writeFile(path.join(dest, 'notes.txt'), 'operator notes');
  await fs.symlink('../outside', path.join(dest, 'escape'));
});

async function adoptPlan(): Promise<ReplacePlan> {
  const planned = await planAdopt({ destinationPath: dest, sourcePath: fixture.source, configured: ids });
  if (!planned.ok) throw new Error(planned.error.message);
  return planned.value;
}

describe('compareFolder', () => {
  it('reports every output as matching, and the extra file and the link as extra without following the link', async () => {
    const compared = await compareFolder({ destinationPath: dest, sourcePath: fixture.source });
    if (!compared.ok) throw new Error(compared.error.message);
    const value = compared.value;
    expect(value.destinationStatus).toBe('unmanaged');
    expect(value.counts).toEqual({ matches: 4, differs: 0, missing: 0, extra: 2 });
    expect(value.entries.find((entry) => entry.path === 'escape')).toEqual({
      path: 'escape',
      status: 'extra',
      kind: 'symlink',
      actual: { linkTarget: '../outside' },
    });
    expect(value.entries.find((entry) => entry.path === 'report.html')?.expected?.generated).toBe(true);
    expect(value.adoptable).toBe(true);
  });

  it('says which files differ and which are missing, and then is not adoptable', async () => {
    await fs.writeFile(path.join(dest, 'data.csv'), 'edited by hand\n');
    await fs.rm(path.join(dest, 'pages/deep/b.txt'));
    const compared = await compareFolder({ destinationPath: dest, sourcePath: fixture.source });
    if (!compared.ok) throw new Error(compared.error.message);
    expect(compared.value.entries.find((entry) => entry.path === 'data.csv')).toMatchObject({ status: 'differs', reason: 'size_mismatch' });
    expect(compared.value.entries.find((entry) => entry.path === 'pages/deep/b.txt')?.status).toBe('missing');
    expect(compared.value.adoptable).toBe(false);
    expect(compared.value.blockers.map((blocker) => blocker.code)).toEqual(['outputs_differ', 'outputs_missing']);
  });

  it('reports a link standing at an output path as differing, pointing out of the tree, never read through', async () => {
    await fs.rm(path.join(dest, 'data.csv'));
    await fs.writeFile(path.join(fixture.outside, 'data.csv'), 'a,b\n1,2\n');
    await fs.symlink(path.join(fixture.outside, 'data.csv'), path.join(dest, 'data.csv'));
    const compared = await compareFolder({ destinationPath: dest, sourcePath: fixture.source });
    if (!compared.ok) throw new Error(compared.error.message);
    expect(compared.value.entries.find((entry) => entry.path === 'data.csv')).toMatchObject({
      status: 'differs',
      kind: 'symlink',
      reason: 'not_a_file',
    });
    const planned = await planAdopt({ destinationPath: dest, sourcePath: fixture.source, configured: ids });
    expect(planned.ok ? 'planned' : planned.error.code).toBe('not_adoptable');
  });

  it('refuses a source manifest that lists a path with ".." before reading any file', async () => {
    const manifestFile = path.join(fixture.source, 'manifest.json');
    const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8'));
    manifest.files.push({ path: '../outside/canary.txt', sha256: sha256('canary'), size: 6 });
    await fs.writeFile(manifestFile, JSON.stringify(manifest));
    const compared = await compareFolder({ destinationPath: dest, sourcePath: fixture.source });
    expect(compared.ok ? 'compared' : compared.error.code).toBe('source_invalid');
    const planned = await planAdopt({ destinationPath: dest, sourcePath: fixture.source, configured: ids });
    expect(planned.ok ? 'planned' : planned.error.code).toBe('source_invalid');
  });
});

describe('planAdopt and its apply', () => {
  it('plans only the state file: no delete, no write, the extras kept and named', async () => {
    const plan = await adoptPlan();
    expect(replacePlanSchema.safeParse(plan).success).toBe(true);
    expect(plan.mode).toBe('adopt');
    expect(plan.deletes).toEqual([]);
    expect(plan.writes).toEqual([]);
    expect(plan.extras).toEqual(['escape', 'notes.txt']);
    expect(plan.newState?.outputs.map((output) => output.path).sort()).toEqual([
      'data.csv',
      'pages/a.html',
      'pages/deep/b.txt',
      'report.html',
    ]);
  });

  it('writes the state and moves no other byte: the folder is then managed and intact', async () => {
    const plan = await adoptPlan();
    const before = await snapshotTree(dest);
    const result = await applyPlan(plan);
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.deleted).toEqual([]);
    expect(result.written).toEqual([]);
    expect(result.stateWritten).toBe(true);
    expect(result.stagingLeft).toBe(false);
    const after = await snapshotTree(dest);
    expect(
      after
        .split('\n')
        .filter((line) => !line.startsWith('.distributor.json'))
        .join('\n'),
    ).toBe(before);
    const parsed = parseState(await fs.readFile(path.join(dest, '.distributor.json')));
    if (parsed.status !== 'managed') throw new Error('the adopted state is not valid');
    expect(parsed.state.pipeline_id).toBe('reports');
    expect((await verifyDestination(dest, parsed.state)).status).toBe('intact');
  });

  it('refuses, writing nothing, when a matched file changed between plan and apply (same size, same time)', async () => {
    const plan = await adoptPlan();
    const file = path.join(dest, 'data.csv');
    const stat = await fs.stat(file);
    const handle = await fs.open(file, 'r+');
    await handle.write('x', 0);
    await handle.close();
    await fs.utimes(file, stat.atime, stat.mtime);
    const before = await snapshotTree(dest);
    const result = await applyPlan(plan);
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.changed).toBe(false);
    expect(await snapshotTree(dest)).toBe(before);
  });

  it('refuses, writing nothing, when a state file appeared between plan and apply', async () => {
    const plan = await adoptPlan();
    await fs.writeFile(path.join(dest, '.distributor.json'), '{"someone":"else"}');
    const before = await snapshotTree(dest);
    const result = await applyPlan(plan);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.changed).toBe(false);
    expect(await snapshotTree(dest)).toBe(before);
  });

  it('refuses a managed folder: it is already adopted', async () => {
    await applyPlan(await adoptPlan());
    const planned = await planAdopt({ destinationPath: dest, sourcePath: fixture.source, configured: ids });
    expect(planned.ok ? 'planned' : planned.error.code).toBe('not_adoptable');
    expect(planned.ok ? [] : planned.error.details?.blockers).toEqual([expect.objectContaining({ code: 'has_state' })]);
  });

  it('refuses a plan that sneaks in a delete', async () => {
    const plan = await adoptPlan();
    const result = await applyPlan({ ...plan, deletes: [{ path: 'notes.txt', type: 'file', size: 14 }] });
    expect(result.error?.code).toBe('invalid_plan');
    expect(await fs.readFile(path.join(dest, 'notes.txt'), 'utf8')).toBe('operator notes');
  });
});
