import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PlanOutcome, ReplacePlan } from '../../shared/plan';
import { HashPool } from '../engine/hashPool';
import { applyPlan } from './applyPlan';
import { planReplace, type PlanReplaceInput } from './planReplace';
import {
  sha256,
  snapshotTree,
  stateInvariantProblems,
  writeBundle,
  writeInterruptedStaging,
  writeManagedDestination,
} from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
let dest: string;
let source: string;

beforeEach(async () => {
  root = await tempDirForTest('plan-');
  dest = path.join(root, 'dest');
  source = path.join(root, 'source');
});

const OLD_CREATED = '2026-06-04T11:55:00Z';
const NEW_CREATED = '2026-06-05T09:00:00Z';

async function oldManagedDestination(extras: Record<string, string> = {}) {
  const manifest = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, { created: OLD_CREATED });
  return writeManagedDestination(dest, { manifest, outputs: { 'report.html': 'old', 'pages/a.html': 'a' }, extras });
}

const run = (overrides: Partial<PlanReplaceInput> = {}) =>
  planReplace({ destinationPath: dest, sourcePath: source, mode: 'replace', ...overrides });

function planOf(outcome: PlanOutcome): ReplacePlan {
  if (!outcome.ok) throw new Error(`refused: ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

function refusalOf(outcome: PlanOutcome) {
  if (outcome.ok) throw new Error('expected a refusal');
  return outcome.error;
}

describe('planReplace decisions', () => {
  it('plans a replace of an older publication: the state first, then recorded outputs, then the folders they empty', async () => {
    await oldManagedDestination({ 'notes.txt': 'extra' });
    await writeBundle(source, { 'report.md': '# New', 'b.txt': 'b' }, { created: NEW_CREATED });
    const plan = planOf(await run());
    expect(plan.action).toBe('replace');
    expect(plan.comparison?.decision).toBe('replace');
    expect(plan.deletes.map((entry) => entry.path)).toEqual(['.distributor.json', 'pages/a.html', 'report.html', 'pages']);
    expect(plan.writes.map((write) => [write.path, write.kind])).toEqual([
      ['report.html', 'generated'],
      ['b.txt', 'source'],
    ]);
    expect(plan.summary).toMatchObject({ deleteCount: 4, writeCount: 2 });
    expect(plan.newState?.pipeline_id).toBe('reports');
    expect(plan.fingerprint.stateSha256).toBe(sha256(await fs.readFile(path.join(dest, '.distributor.json'))));
    expect(plan.fingerprint.entries.map((entry) => entry.path)).toEqual(
      expect.arrayContaining(['', '.distributor.json', 'pages', 'pages/a.html', 'report.html', 'b.txt']),
    );
    expect(plan.fingerprint.entries.map((entry) => entry.path)).not.toContain('notes.txt');
  });

  it('plans nothing for a destination that already holds this source (skip), and apply changes nothing', async () => {
    const manifest = await writeBundle(source, { 'report.md': '# Same' }, { created: OLD_CREATED });
    await writeManagedDestination(dest, { manifest, outputs: { 'report.html': 'x' } });
    const before = await snapshotTree(root);
    const plan = planOf(await run());
    expect(plan.action).toBe('nothing');
    expect(plan.comparison?.decision).toBe('skip');
    expect(plan.deletes).toEqual([]);
    expect(plan.writes).toEqual([]);
    const result = await applyPlan(plan);
    expect(result).toMatchObject({ ok: true, changed: false, mutations: 0 });
    expect(await snapshotTree(root)).toBe(before);
  });

  it('plans nothing when the destination holds a newer publication (skip_newer)', async () => {
    await oldManagedDestination();
    await writeBundle(source, { 'report.md': '# Older' }, { created: '2026-06-01T00:00:00Z' });
    const plan = planOf(await run());
    expect(plan.action).toBe('nothing');
    expect(plan.comparison?.decision).toBe('skip_newer');
  });

  it('refuses a replace that the destination policy denies', async () => {
    await oldManagedDestination();
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    expect(refusalOf(await run({ replacePolicy: 'deny' })).code).toBe('policy_denies_replace');
  });

  it('refuses a normal replace of an unmanaged destination but plans a forced one', async () => {
    await fs.mkdir(dest);
    await fs.writeFile(path.join(dest, 'stray.txt'), 'stray');
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    expect(refusalOf(await run({ configured: { pipelineId: 'p', destinationId: 'd' } })).code).toBe('unmanaged');
    const forced = planOf(await run({ mode: 'force', configured: { pipelineId: 'p', destinationId: 'd' } }));
    expect(forced.deletes.map((entry) => entry.path)).toEqual(['stray.txt']);
    expect(forced.fingerprint.wholeTree).toBe(true);
  });

  it('asks for the ids when there is no valid state to take them from', async () => {
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    const refusal = refusalOf(await run());
    expect(refusal.code).toBe('ids_required');
    expect(refusal.message).toContain('--pipeline');
  });

  it('refuses an identity mismatch and names the field', async () => {
    await oldManagedDestination();
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    const refusal = refusalOf(await run({ configured: { destinationId: 'elsewhere' } }));
    expect(refusal.code).toBe('conflict_identity_mismatch');
    expect(refusal.message).toContain('destination id');
  });

  it('refuses a bad source manifest as an input error naming the file and the field', async () => {
    await fs.mkdir(source);
    await fs.writeFile(
      path.join(source, 'manifest.json'),
      JSON.stringify({ schema_version: 1, digest: 'x', created: OLD_CREATED, files: [] }),
    );
    const refusal = refusalOf(await run());
    expect(refusal.code).toBe('source_invalid');
    expect(refusal.message).toContain(path.join(source, 'manifest.json'));
    expect(refusal.message).toContain('"id"');
  });
});

describe('planReplace never lets a normal replace touch an extra file', () => {
  it('refuses when a new output would land on an extra file, naming it', async () => {
    await oldManagedDestination({ 'b.txt': 'operator file' });
    await writeBundle(source, { 'report.md': '# New', 'b.txt': 'b' }, { created: NEW_CREATED });
    const refusal = refusalOf(await run());
    expect(refusal.code).toBe('output_on_extra_file');
    expect(refusal.message).toContain('"b.txt"');
  });

  it('refuses when a new output needs a folder where an extra file is', async () => {
    await oldManagedDestination({ docs: 'a file called docs' });
    await writeBundle(source, { 'docs/guide.md': '# Guide' }, { created: NEW_CREATED });
    const refusal = refusalOf(await run());
    expect(refusal.code).toBe('parent_is_file');
    expect(refusal.details?.path).toBe('docs');
  });

  it('refuses when a new output would be written through a symbolic link', async () => {
    await oldManagedDestination();
    await fs.mkdir(path.join(root, 'outside'));
    await fs.symlink(path.join(root, 'outside'), path.join(dest, 'docs'));
    await writeBundle(source, { 'docs/guide.md': '# Guide' }, { created: NEW_CREATED });
    expect(refusalOf(await run()).code).toBe('parent_is_symlink');
  });

  it('refuses a normal replace while a staging folder of an interrupted replace is there', async () => {
    await oldManagedDestination();
    await writeInterruptedStaging(dest);
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    const refusal = refusalOf(await run());
    expect(refusal.code).toBe('interrupted');
    expect(refusal.message).toContain('forced replace');
  });
});

/** Hostile fixtures: in each, a refusal changes nothing, and nothing outside the destination ever changes. */
describe('hostile destinations and sources', () => {
  async function expectOutsideUnchanged(act: () => Promise<void>): Promise<void> {
    const outsideOf = (snapshot: string) =>
      snapshot
        .split('\n')
        .filter((line) => !/^dest[ /]/.test(line))
        .join('\n');
    const before = await snapshotTree(root);
    await act();
    expect(outsideOf(await snapshotTree(root))).toBe(outsideOf(before));
  }

  it('a state recording "../x" and an absolute output path: normal refused with nothing changed, force stays inside', async () => {
    const manifest = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, { created: OLD_CREATED });
    await writeManagedDestination(dest, { manifest, outputs: { 'report.html': 'old' } });
    await fs.writeFile(path.join(root, 'x'), 'canary beside the destination');
    const stateFile = path.join(dest, '.distributor.json');
    const state = JSON.parse(await fs.readFile(stateFile, 'utf8'));
    state.outputs.push({ ...state.outputs[0], path: '../x' }, { ...state.outputs[0], path: path.join(root, 'x') });
    await fs.writeFile(stateFile, JSON.stringify(state));
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });

    const before = await snapshotTree(root);
    const refusal = refusalOf(await run());
    expect(refusal.code).toBe('conflict_invalid_state');
    expect(await snapshotTree(root)).toBe(before);

    await expectOutsideUnchanged(async () => {
      const plan = planOf(await run({ mode: 'force', configured: { pipelineId: 'reports', destinationId: 'archive' } }));
      expect(plan.deletes.every((entry) => !entry.path.includes('..') && !entry.path.startsWith('/'))).toBe(true);
      expect((await applyPlan(plan)).ok).toBe(true);
    });
    expect(await fs.readFile(path.join(root, 'x'), 'utf8')).toBe('canary beside the destination');
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });

  it('a symlink in the destination to a folder outside holding a canary: both modes leave the canary', async () => {
    await oldManagedDestination();
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'canary.txt'), 'canary');
    await fs.symlink(outside, path.join(dest, 'pages', 'linked'));
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    await expectOutsideUnchanged(async () => {
      const normal = planOf(await run());
      // The folder holding the link is not emptied by the deletions, so it stays, link and all.
      expect(normal.deletes.map((entry) => entry.path)).toEqual(['.distributor.json', 'pages/a.html', 'report.html']);
      expect((await applyPlan(normal)).ok).toBe(true);
      expect((await fs.lstat(path.join(dest, 'pages', 'linked'))).isSymbolicLink()).toBe(true);
      const forced = planOf(await run({ mode: 'force' }));
      expect(forced.deletes).toContainEqual(expect.objectContaining({ path: 'pages/linked', type: 'symlink' }));
      expect((await applyPlan(forced)).ok).toBe(true);
    });
    await expect(fs.lstat(path.join(dest, 'pages'))).rejects.toThrow();
  });

  it('a state recording an output through a symlinked folder that leads to a canary: normal refused, force unlinks only the link', async () => {
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'canary.txt'), 'canary');
    const manifest = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, { created: OLD_CREATED });
    await writeManagedDestination(dest, { manifest, outputs: { 'report.html': 'old' } });
    await fs.symlink(outside, path.join(dest, 'linked'));
    const stateFile = path.join(dest, '.distributor.json');
    const state = JSON.parse(await fs.readFile(stateFile, 'utf8'));
    // The record matches the canary's bytes, so a verify through the link would even call it ok.
    state.outputs.push({ ...state.outputs[0], path: 'linked/canary.txt', sha256: sha256('canary'), size: 6 });
    await fs.writeFile(stateFile, JSON.stringify(state));
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });

    const before = await snapshotTree(root);
    const refusal = refusalOf(await run());
    expect(refusal.code).toBe('parent_is_symlink');
    expect(refusal.details?.path).toBe('linked');
    expect(await snapshotTree(root)).toBe(before);

    await expectOutsideUnchanged(async () => {
      const forced = planOf(await run({ mode: 'force' }));
      expect(forced.deletes).toContainEqual(expect.objectContaining({ path: 'linked', type: 'symlink' }));
      expect(forced.deletes.map((entry) => entry.path)).not.toContain('linked/canary.txt');
      expect((await applyPlan(forced)).ok).toBe(true);
    });
    expect(await fs.readFile(path.join(outside, 'canary.txt'), 'utf8')).toBe('canary');
  });

  it('a managed output that is a symlink to a canary: the link is removed, never the canary', async () => {
    await oldManagedDestination();
    await fs.writeFile(path.join(root, 'canary.html'), 'canary');
    await fs.rm(path.join(dest, 'report.html'));
    await fs.symlink(path.join(root, 'canary.html'), path.join(dest, 'report.html'));
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    await expectOutsideUnchanged(async () => {
      const plan = planOf(await run());
      expect(plan.deletes).toContainEqual({ path: 'report.html', type: 'symlink', size: expect.any(Number), changed: 'not_a_file' });
      expect((await applyPlan(plan)).ok).toBe(true);
    });
    expect((await fs.lstat(path.join(dest, 'report.html'))).isFile()).toBe(true);
    expect(await fs.readFile(path.join(root, 'canary.html'), 'utf8')).toBe('canary');
  });

  it('a destination that contains the source bundle: refused in both modes, nothing changed', async () => {
    await oldManagedDestination();
    const inner = path.join(dest, 'bundle');
    await writeBundle(inner, { 'report.md': '# New' }, { created: NEW_CREATED });
    const before = await snapshotTree(root);
    expect(refusalOf(await run({ sourcePath: inner })).code).toBe('destination_contains_source');
    expect(refusalOf(await run({ sourcePath: inner, mode: 'force' })).code).toBe('destination_contains_source');
    expect(await snapshotTree(root)).toBe(before);
  });

  it('a destination inside the source bundle: refused', async () => {
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    const refusal = refusalOf(
      await run({ destinationPath: path.join(source, 'out'), mode: 'force', configured: { pipelineId: 'p', destinationId: 'd' } }),
    );
    expect(refusal.code).toBe('destination_inside_source');
  });

  it('a source tampered after its manifest was written: refused naming the file, nothing changed', async () => {
    await oldManagedDestination();
    await writeBundle(source, { 'report.md': '# New', 'data/t.csv': 'a,b\n' }, { created: NEW_CREATED });
    await fs.writeFile(path.join(source, 'data', 't.csv'), 'a,b,tampered\n');
    const before = await snapshotTree(root);
    for (const mode of ['replace', 'force'] as const) {
      const refusal = refusalOf(await run({ mode }));
      expect(refusal.code).toBe('source_mismatch');
      expect(refusal.message).toContain(path.join(source, 'data', 't.csv'));
    }
    expect(await snapshotTree(root)).toBe(before);
  });

  it('a source that fails its manifest is the refusal given, also when the destination would refuse too (they are checked at once)', async () => {
    await oldManagedDestination();
    await fs.mkdir(path.join(root, 'outside'));
    await fs.symlink(path.join(root, 'outside'), path.join(dest, 'docs'));
    // A large file is verified in chunks while the deletions are planned; a small one at once.
    for (const [name, bytes] of [
      ['small.bin', 'tampered'],
      ['large.bin', 'L'.repeat(1024 * 1024 + 10)],
    ] as const) {
      await fs.rm(source, { recursive: true, force: true });
      await writeBundle(source, { 'docs/guide.md': '# Guide', [name]: bytes }, { created: NEW_CREATED });
      await fs.appendFile(path.join(source, name), '!');
      const refusal = refusalOf(await run());
      expect(refusal.code, name).toBe('source_mismatch');
      expect(refusal.message, name).toContain(path.join(source, name));
    }
    // The same destination with a sound source: the deletions' own refusal.
    await fs.rm(source, { recursive: true, force: true });
    await writeBundle(source, { 'docs/guide.md': '# Guide', 'large.bin': 'L'.repeat(1024 * 1024 + 10) }, { created: NEW_CREATED });
    expect(refusalOf(await run()).code).toBe('parent_is_symlink');
  });

  it('a source file that is a symbolic link to a file outside the bundle: refused', async () => {
    await oldManagedDestination();
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    await fs.writeFile(path.join(root, 'secret.md'), '# New');
    await fs.rm(path.join(source, 'report.md'));
    await fs.symlink(path.join(root, 'secret.md'), path.join(source, 'report.md'));
    expect(refusalOf(await run()).code).toBe('source_is_symlink');
  });

  it('a forced replace of the home directory or a folder holding the workspace file: refused, nothing changed', async () => {
    await oldManagedDestination();
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    const workspaceFile = path.join(dest, 'distributor-inspector.json');
    await fs.writeFile(workspaceFile, '{}');
    const before = await snapshotTree(root);
    expect(refusalOf(await run({ mode: 'force', homeDirectory: dest })).code).toBe('destination_is_home');
    expect(refusalOf(await run({ mode: 'force', protectedPaths: [workspaceFile] })).code).toBe('destination_contains_protected');
    expect(await snapshotTree(root)).toBe(before);
  });
});

describe('planReplace with something odd where the state file goes', () => {
  it('a forced replace removes a state file that is a symbolic link, as a link, and leaves its target', async () => {
    await fs.mkdir(dest);
    await fs.writeFile(path.join(root, 'elsewhere.json'), '{"not":"a state"}');
    await fs.symlink(path.join(root, 'elsewhere.json'), path.join(dest, '.distributor.json'));
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    expect(refusalOf(await run({ configured: { pipelineId: 'p', destinationId: 'd' } })).code).toBe('conflict_invalid_state');
    const plan = planOf(await run({ mode: 'force', configured: { pipelineId: 'p', destinationId: 'd' } }));
    expect(plan.deletes[0]).toMatchObject({ path: '.distributor.json', type: 'symlink' });
    const result = await applyPlan(plan);
    expect(result.error).toBeUndefined();
    expect(await fs.readFile(path.join(root, 'elsewhere.json'), 'utf8')).toBe('{"not":"a state"}');
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });

  it('a forced replace removes a folder where the state file goes', async () => {
    await fs.mkdir(path.join(dest, '.distributor.json', 'inner'), { recursive: true });
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    const plan = planOf(await run({ mode: 'force', configured: { pipelineId: 'p', destinationId: 'd' } }));
    const result = await applyPlan(plan);
    expect(result.error).toBeUndefined();
    expect((await fs.lstat(path.join(dest, '.distributor.json'))).isFile()).toBe(true);
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });
});

describe('a forced replace of a folder holding other managed destinations', () => {
  async function withNested() {
    await fs.mkdir(dest);
    await fs.writeFile(path.join(dest, 'stray.txt'), 'stray');
    const manifest = await writeBundle(path.join(root, 'inner-source'), { 'a.md': '# A' });
    await writeManagedDestination(path.join(dest, 'sites', 'inner'), { manifest, outputs: { 'a.html': 'a' } });
    await writeManagedDestination(path.join(dest, 'deep', 'er', 'other'), { manifest, outputs: { 'b.html': 'b' } });
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
  }
  const force = () => run({ mode: 'force', configured: { pipelineId: 'p', destinationId: 'd' } });

  it('names every nested managed destination in the plan', async () => {
    await withNested();
    expect(planOf(await force()).nestedDestinations).toEqual(['deep/er/other', 'sites/inner']);
  });

  it('refuses to apply unless they are acknowledged, changing nothing; applies when they are', async () => {
    await withNested();
    const plan = planOf(await force());
    const before = await snapshotTree(root);
    const refused = await applyPlan(plan);
    expect(refused.error?.code).toBe('nested_not_acknowledged');
    expect(refused.error?.message).toContain('sites/inner');
    expect(refused.mutations).toBe(0);
    expect(await snapshotTree(root)).toBe(before);
    const applied = await applyPlan(plan, { includeNested: true });
    expect(applied.error).toBeUndefined();
    expect((await fs.readdir(dest)).sort()).toEqual(['.distributor.json', 'report.html']);
  });

  it('refuses a forged plan that hides a nested destination', async () => {
    await withNested();
    const plan = planOf(await force());
    const result = await applyPlan({ ...plan, nestedDestinations: [] });
    expect(result.error?.code).toBe('invalid_plan');
    expect(result.changed).toBe(false);
  });

  it('plans no nested destinations for a plain tree', async () => {
    await fs.mkdir(path.join(dest, 'sub'), { recursive: true });
    await fs.writeFile(path.join(dest, 'sub', 'x.txt'), 'x');
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    expect(planOf(await force()).nestedDestinations).toEqual([]);
  });
});

describe('a normal replace flags recorded outputs changed on disk since published', () => {
  it('marks each output whose bytes no longer match its sha256 or size, and counts them', async () => {
    await oldManagedDestination();
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    // Same size, other bytes (hash) and other size: both are hand edits that the replace will lose.
    await fs.writeFile(path.join(dest, 'report.html'), 'OLD');
    await fs.writeFile(path.join(dest, 'pages', 'a.html'), 'a, edited by hand');
    const plan = planOf(await run());
    expect(plan.deletes.find((entry) => entry.path === 'report.html')?.changed).toBe('hash_mismatch');
    expect(plan.deletes.find((entry) => entry.path === 'pages/a.html')?.changed).toBe('size_mismatch');
    expect(plan.deletes.find((entry) => entry.path === '.distributor.json')?.changed).toBeUndefined();
    expect(plan.summary.changedCount).toBe(2);
  });

  it('hashes the recorded outputs in the worker pool it is given when its workers run, not on the main thread', async () => {
    await oldManagedDestination();
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    await fs.writeFile(path.join(dest, 'report.html'), 'OLD');
    const pool = new HashPool({ size: 1 });
    try {
      await pool.hash([{ root: dest, path: 'pages/a.html', expectedSize: 1 }]);
      const [threadId] = pool.threadIds;
      const plan = planOf(await run({ pool }));
      expect(pool.threadIds).toEqual([threadId]);
      expect(plan.deletes.find((entry) => entry.path === 'report.html')?.changed).toBe('hash_mismatch');
      expect(plan.deletes.find((entry) => entry.path === 'pages/a.html')?.changed).toBeUndefined();
    } finally {
      await pool.close();
    }
  });

  it('marks none when every output is as published', async () => {
    await oldManagedDestination();
    await writeBundle(source, { 'report.md': '# New' }, { created: NEW_CREATED });
    const plan = planOf(await run());
    expect(plan.deletes.every((entry) => entry.changed === undefined)).toBe(true);
    expect(plan.summary.changedCount).toBe(0);
  });
});
