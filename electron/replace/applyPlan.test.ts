import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseState } from '../../shared/parseDocument';
import { applyResultSchema, type ApplyProgress, type ReplacePlan } from '../../shared/plan';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { applyPlan } from './applyPlan';
import { fingerprintPaths, lstatEntry, stateFileSha256 } from './fingerprint';
import { inspectDestination } from '../engine/inspectDestination';
import { planReplace, type PlanReplaceInput } from './planReplace';
import type { VerifiedOutputs } from './publish';
import { sha256Of } from './sourceFile';
import { snapshotTree, stateInvariantProblems, writeBundle, writeInterruptedStaging, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
let dest: string;
let source: string;

beforeEach(async () => {
  root = await tempDirForTest('apply-');
  dest = path.join(root, 'dest');
  source = path.join(root, 'source');
});

const OLD = { id: 'reports.example', created: '2026-06-04T11:55:00Z' };
const NEW = { id: 'reports.example', created: '2026-06-05T09:00:00Z' };

async function managedFixture(): Promise<void> {
  const oldManifest = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, OLD);
  await writeManagedDestination(dest, {
    manifest: oldManifest,
    outputs: { 'report.html': '<p>old</p>', 'pages/a.html': 'a', 'pages/deep/b.html': 'b' },
    extras: { 'notes.txt': 'operator notes', 'pages/keep.txt': 'keep me' },
  });
  await writeBundle(source, { 'report.md': '# Report\n\nHello <script>x</script>', 'data/table.csv': 'a,b\n1,2\n' }, NEW);
}

async function plan(overrides: Partial<PlanReplaceInput> = {}): Promise<ReplacePlan> {
  const outcome = await planReplace({ destinationPath: dest, sourcePath: source, mode: 'replace', ...overrides });
  if (!outcome.ok) throw new Error(`unexpected refusal: ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

async function parsedState() {
  const parsed = parseState(await fs.readFile(path.join(dest, '.distributor.json')));
  if (parsed.status !== 'managed') throw new Error('state not valid');
  return parsed.state;
}

describe('applyPlan, normal replace', () => {
  it('replaces recorded outputs, keeps extra files and removes only the folders it emptied', async () => {
    await managedFixture();
    const result = await applyPlan(await plan());
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.stateWritten).toBe(true);
    expect(result.stagingLeft).toBe(false);
    expect(await stateInvariantProblems(dest)).toEqual([]);
    const state = await parsedState();
    expect(state.outputs.map((o) => o.path).sort()).toEqual(['data/table.csv', 'report.html']);
    expect(state.source.manifest.created).toBe(NEW.created);
    expect(await fs.readFile(path.join(dest, 'notes.txt'), 'utf8')).toBe('operator notes');
    expect(await fs.readFile(path.join(dest, 'pages/keep.txt'), 'utf8')).toBe('keep me');
    await expect(fs.lstat(path.join(dest, 'pages/a.html'))).rejects.toThrow();
    await expect(fs.lstat(path.join(dest, 'pages/deep'))).rejects.toThrow();
    const html = await fs.readFile(path.join(dest, 'report.html'), 'utf8');
    expect(html).toContain('<title>Report</title>');
    expect(html).toContain('&lt;script&gt;');
    expect(result.deleted).toEqual(['.distributor.json', 'pages/deep/b.html', 'pages/a.html', 'report.html', 'pages/deep']);
    expect(result.written.sort()).toEqual(['data/table.csv', 'report.html']);
    expect((await inspectDestination(dest)).status).toBe('managed');
  });

  it('writes each of many outputs from its own source file, whatever order the manifest lists them in', async () => {
    // Source files are looked up in a Map built once per apply (verify and stage): held to what a
    // search of the manifest per write gave, byte for byte, with the manifest in reverse order.
    const names = Array.from({ length: 400 }, (_, i) => `data/part-${String(i).padStart(3, '0')}.txt`);
    const files = Object.fromEntries([...names].reverse().map((name, i) => [name, `part ${name} ${'x'.repeat(i % 7)}\n`]));
    const manifest = await writeBundle(source, files, NEW);
    expect(manifest.files.map((file) => file.path)).toEqual([...names].reverse());
    await fs.mkdir(dest);
    const planned = await plan({ configured: { pipelineId: 'reports', destinationId: 'archive' } });
    expect(planned.writes.map((write) => write.source_path).sort()).toEqual([...names].sort());
    const result = await applyPlan(planned);
    expect(result.error).toBeUndefined();
    expect(result.written.sort()).toEqual([...names].sort());
    for (const name of names) expect(await fs.readFile(path.join(dest, name), 'utf8')).toBe(files[name]);
    expect(await stateInvariantProblems(dest)).toEqual([]);
    expect((await parsedState()).outputs.map((output) => [output.path, output.source_path])).toEqual(
      planned.writes.map((write) => [write.path, write.source_path]),
    );
  }, 60_000);

  it('stamps published_at with the time of the apply, not of the plan', async () => {
    await managedFixture();
    const planned = await plan({ now: () => new Date('2026-06-05T10:00:00Z') });
    const result = await applyPlan(planned, { now: () => new Date('2026-06-05T10:05:00.123Z') });
    expect(result.ok).toBe(true);
    expect((await parsedState()).published_at).toBe('2026-06-05T10:05:00.123Z');
  });

  it('reports progress from check to done with counts that only grow', async () => {
    await managedFixture();
    const events: ApplyProgress[] = [];
    const result = await applyPlan(await plan(), { onProgress: (event) => events.push(event) });
    expect(result.ok).toBe(true);
    expect(events[0]?.phase).toBe('check');
    expect(events.at(-1)?.phase).toBe('done');
    expect(events.at(-1)?.done).toBe(events.at(-1)?.total);
    for (let i = 1; i < events.length; i++) expect(events[i]!.done).toBeGreaterThanOrEqual(events[i - 1]!.done);
  });

  it('names each phase with its own count: checking the source, staging n of n, deleting, moving into place, writing the state', async () => {
    await managedFixture();
    const events: ApplyProgress[] = [];
    const planned = await plan();
    const result = await applyPlan(planned, { onProgress: (event) => events.push(event) });
    expect(result.ok).toBe(true);
    const writes = planned.writes.length;
    const deletes = planned.deletes.length - 1; // the state file goes in its own phase
    // The last event of each phase, in order: every phase finishes its own count.
    const lastOfPhase = new Map(events.map((event) => [event.step.phase, event.step]));
    expect([...lastOfPhase.keys()]).toEqual([
      'check',
      'verify',
      'stage',
      'remove_state',
      'delete',
      'move',
      'write_state',
      'cleanup',
      'done',
    ]);
    expect(lastOfPhase.get('verify')).toEqual({ phase: 'verify', done: writes, total: writes });
    expect(lastOfPhase.get('stage')).toEqual({ phase: 'stage', done: writes, total: writes });
    expect(lastOfPhase.get('remove_state')).toEqual({ phase: 'remove_state', done: 1, total: 1 });
    expect(lastOfPhase.get('delete')).toEqual({ phase: 'delete', done: deletes, total: deletes });
    expect(lastOfPhase.get('move')).toEqual({ phase: 'move', done: writes, total: writes });
    expect(lastOfPhase.get('write_state')).toEqual({ phase: 'write_state', done: 1, total: 1 });
    // Each phase is announced at 0 before its first item, so a long one is named while it runs.
    expect(events.find((event) => event.step.phase === 'stage')?.step.done).toBe(0);
    for (const event of events) expect(event.step.phase).toBe(event.phase);
  });

  it('publishes into an empty destination folder that does not exist yet', async () => {
    await writeBundle(source, { 'index.md': '# Home' }, NEW);
    const planned = await plan({ configured: { pipelineId: 'reports', destinationId: 'archive' }, baseUrl: 'https://example.com/r' });
    expect(planned.comparison?.decision).toBe('publish');
    const result = await applyPlan(planned);
    expect(result.ok).toBe(true);
    const state = await parsedState();
    expect(state.links?.primary_url).toBe('https://example.com/r/index.html');
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });
});

describe('applyPlan refuses a stale plan and changes nothing', () => {
  it('refuses when the state file changed after planning', async () => {
    await managedFixture();
    const planned = await plan();
    const statePath = path.join(dest, '.distributor.json');
    const text = await fs.readFile(statePath, 'utf8');
    await fs.writeFile(statePath, text.replace('"test"', '"edited"'));
    const before = await snapshotTree(root);
    const result = await applyPlan(planned);
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.changed).toBe(false);
    expect(result.mutations).toBe(0);
    expect(await snapshotTree(root)).toBe(before);
  });

  it('refuses when a managed output changed after planning', async () => {
    await managedFixture();
    const planned = await plan();
    await fs.writeFile(path.join(dest, 'pages/a.html'), 'changed by someone');
    const before = await snapshotTree(root);
    const result = await applyPlan(planned);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.error?.message).toContain('pages/a.html');
    expect(await snapshotTree(root)).toBe(before);
  });

  it('refuses when a file appeared where a new output will go', async () => {
    await managedFixture();
    const planned = await plan();
    await fs.mkdir(path.join(dest, 'data'));
    await fs.writeFile(path.join(dest, 'data/table.csv'), 'an extra file now');
    const before = await snapshotTree(root);
    const result = await applyPlan(planned);
    expect(result.error?.code).toBe('stale_plan');
    expect(await snapshotTree(root)).toBe(before);
  });

  it('refuses a forced plan when anything in the tree changed', async () => {
    await managedFixture();
    const planned = await plan({ mode: 'force' });
    await fs.writeFile(path.join(dest, 'pages/new-extra.txt'), 'x');
    const before = await snapshotTree(root);
    const result = await applyPlan(planned);
    expect(result.error?.code).toBe('stale_plan');
    expect(await snapshotTree(root)).toBe(before);
  });
});

describe('applyPlan re-verifies the source', () => {
  it('refuses with source_changed when a source file is tampered after planning, changing nothing', async () => {
    await managedFixture();
    const planned = await plan();
    await fs.writeFile(path.join(source, 'data/table.csv'), 'a,b\n9,9\n');
    const before = await snapshotTree(root);
    const result = await applyPlan(planned);
    expect(result.error?.code).toBe('source_changed');
    expect(result.error?.message).toContain('table.csv');
    expect(result.changed).toBe(false);
    expect(await snapshotTree(root)).toBe(before);
  });
});

describe("applyPlan with the plan's own verified outputs (replace --yes)", () => {
  it('stages the bytes the plan verified, with the hashes it proved, without reading the source again', async () => {
    await managedFixture();
    const verified: VerifiedOutputs = new Map();
    const planned = await plan({ keepVerified: verified });
    expect([...verified.keys()].sort()).toEqual(['data/table.csv', 'report.html']);
    // Changed after the plan, same size: read again it would fail the apply (source_changed).
    await fs.writeFile(path.join(source, 'data/table.csv'), 'a,b\n9,9\n');
    const result = await applyPlan(planned, { verified });
    expect(result.error).toBeUndefined();
    expect(await fs.readFile(path.join(dest, 'data/table.csv'), 'utf8')).toBe('a,b\n1,2\n');
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });

  it('reads the source as always for held bytes proven to be other than the planned ones', async () => {
    await managedFixture();
    const verified: VerifiedOutputs = new Map();
    const planned = await plan({ keepVerified: verified });
    const held = (text: string) => ({ bytes: Buffer.from(text), sha256: sha256Of(Buffer.from(text)) });
    // The same size, another digest; and another size under the planned digest.
    verified.set('data/table.csv', held('a,b\n6,6\n'));
    verified.set('report.html', {
      bytes: Buffer.from('short'),
      sha256: planned.writes.find((write) => write.path === 'report.html')!.sha256,
    });
    expect((await applyPlan(planned, { verified })).error).toBeUndefined();
    expect(await fs.readFile(path.join(dest, 'data/table.csv'), 'utf8')).toBe('a,b\n1,2\n');
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });

  it('still fails with source_changed when the held bytes are not the planned ones and the source changed too, changing nothing', async () => {
    await managedFixture();
    const verified: VerifiedOutputs = new Map();
    const planned = await plan({ keepVerified: verified });
    verified.set('data/table.csv', { bytes: Buffer.from('a,b\n6,6\n'), sha256: sha256Of(Buffer.from('a,b\n6,6\n')) });
    await fs.writeFile(path.join(source, 'data/table.csv'), 'a,b\n9,9\n');
    const before = await snapshotTree(root);
    const result = await applyPlan(planned, { verified });
    expect(result.error?.code).toBe('source_changed');
    expect(await snapshotTree(root)).toBe(before);
  });
});

describe('applyPlan stages a large source file in chunks, verified as it is copied', () => {
  // Past the synchronous read (1 MiB): copied in chunks, never held whole (sourceFile.ts isStreamedSource).
  const BIG = `${'0123456789abcdef'.repeat(150_000)}end`;

  it('writes the large output byte for byte, with its bytes counted in the progress', async () => {
    await managedFixture();
    await writeBundle(source, { 'report.md': '# Report', 'media/big.bin': BIG }, NEW);
    const events: ApplyProgress[] = [];
    const result = await applyPlan(await plan(), { onProgress: (event) => events.push(event) });
    expect(result.error).toBeUndefined();
    expect(await fs.readFile(path.join(dest, 'media/big.bin'), 'utf8')).toBe(BIG);
    expect(await stateInvariantProblems(dest)).toEqual([]);
    const staged = events.filter((event) => event.phase === 'stage' && event.path === 'media/big.bin').map((event) => event.bytes);
    // One event per chunk read, the bytes growing to the file's size and beyond it by the other outputs only.
    expect(staged.length).toBeGreaterThan(2);
    expect(events.at(-1)!.bytes).toBeGreaterThanOrEqual(BIG.length);
  });

  for (const [name, spoil] of [
    ['one byte changed', (file: string) => fs.writeFile(file, `1${BIG.slice(1)}`)],
    ['grown', (file: string) => fs.appendFile(file, 'more')],
    [
      'swapped for a link to its own copy',
      async (file: string) => {
        await fs.writeFile(path.join(root, 'copy.bin'), BIG);
        await fs.rm(file);
        await fs.symlink(path.join(root, 'copy.bin'), file);
      },
    ],
  ] as const) {
    it(`fails with source_changed when the large source file is ${name} after planning: nothing old touched, its partial copy removed with the staging folder`, async () => {
      await managedFixture();
      await writeBundle(source, { 'report.md': '# Report', 'media/big.bin': BIG }, NEW);
      const planned = await plan();
      await spoil(path.join(source, 'media/big.bin'));
      const before = await snapshotTree(root);
      const result = await applyPlan(planned);
      expect(result.error?.code).toBe('source_changed');
      expect(result.error?.message).toMatch(/big\.bin .*; the source is not what the plan expects: plan again$/);
      expect(result.oldTouched).toBe(false);
      expect(result.stagingLeft).toBe(false);
      expect(await snapshotTree(root)).toBe(before);
    });
  }
});

describe('applyPlan refuses forged plans', () => {
  it('answers a value that is no plan with a whole ApplyResult that did nothing, naming the bad field', async () => {
    await managedFixture();
    const planned = await plan();
    const before = await snapshotTree(root);
    const result = await applyPlan({ ...planned, mode: 'force', writes: 'everything' } as unknown as ReplacePlan);
    expect(applyResultSchema.parse(result)).toEqual({
      ok: false,
      mode: 'force',
      destinationPath: planned.destinationPath,
      error: { code: 'invalid_plan', message: expect.stringContaining('writes') },
      changed: false,
      oldTouched: false,
      stateWritten: false,
      stagingLeft: false,
      deleted: [],
      written: [],
      mutations: 0,
      durationMs: expect.any(Number),
    });
    expect(await snapshotTree(root)).toBe(before);
  });

  it('never deletes a path outside the destination, even when the plan names one', async () => {
    await managedFixture();
    await fs.writeFile(path.join(root, 'x'), 'canary');
    const planned = await plan();
    const forged = { ...planned, deletes: [...planned.deletes, { path: '../x', type: 'file' as const, size: 6 }] };
    const before = await snapshotTree(root);
    const result = await applyPlan(forged);
    expect(result.error?.code).toBe('invalid_plan');
    expect(await snapshotTree(root)).toBe(before);
  });

  it('refuses a forced plan deleting a path its fingerprint never saw, before changing anything', async () => {
    await managedFixture();
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'canary.txt'), 'canary');
    await fs.symlink(outside, path.join(dest, 'linked'));
    const planned = await plan({ mode: 'force' });
    const forged = { ...planned, deletes: [...planned.deletes, { path: 'linked/canary.txt', type: 'file' as const, size: 6 }] };
    const before = await snapshotTree(root);
    const result = await applyPlan(forged);
    expect(result.error?.code).toBe('invalid_plan');
    expect(result.changed).toBe(false);
    expect(await snapshotTree(root)).toBe(before);
  });

  it('refuses as stale a forced plan whose forged fingerprint names a path through a link: the tree walk never enters links', async () => {
    await managedFixture();
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'canary.txt'), 'canary');
    await fs.symlink(outside, path.join(dest, 'linked'));
    const planned = await plan({ mode: 'force' });
    const throughLink = await lstatEntry(dest, 'linked/canary.txt');
    const forged = {
      ...planned,
      deletes: [{ path: 'linked/canary.txt', type: 'file' as const, size: 6 }, ...planned.deletes],
      fingerprint: { ...planned.fingerprint, entries: [...planned.fingerprint.entries, throughLink] },
    };
    const outsideBefore = await snapshotTree(outside);
    expect((await applyPlan(forged)).error?.code).toBe('stale_plan');
    expect(await snapshotTree(outside)).toBe(outsideBefore);
  });

  it('never deletes through a symlinked folder, even when the state records it and a forged fingerprint vouches for it', async () => {
    await managedFixture();
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'canary.txt'), 'canary');
    await fs.symlink(outside, path.join(dest, 'linked'));
    const planned = await plan();
    // A forger with full knowledge: the state now records the path, the fingerprint is fresh for it.
    const stateFile = path.join(dest, '.distributor.json');
    const state = JSON.parse(await fs.readFile(stateFile, 'utf8'));
    state.outputs.push({ ...state.outputs[0], path: 'linked/canary.txt' });
    await fs.writeFile(stateFile, JSON.stringify(state));
    const deletes = [
      ...planned.deletes.slice(0, 1),
      { path: 'linked/canary.txt', type: 'file' as const, size: 6 },
      ...planned.deletes.slice(1),
    ];
    const fingerprint = await fingerprintPaths(
      dest,
      [...planned.fingerprint.entries.map((entry) => entry.path), 'linked/canary.txt'],
      await stateFileSha256(dest),
    );
    const outsideBefore = await snapshotTree(outside);
    const result = await applyPlan({ ...planned, deletes, fingerprint });
    expect(result.error?.code).toBe('unsafe_path');
    expect(result.error?.message).toContain('linked/canary.txt');
    expect(await snapshotTree(outside)).toBe(outsideBefore);
  });

  it('refuses a normal plan that would delete an extra file', async () => {
    await managedFixture();
    const planned = await plan();
    const forged = { ...planned, deletes: [...planned.deletes, { path: 'notes.txt', type: 'file' as const, size: 14 }] };
    const before = await snapshotTree(root);
    const result = await applyPlan(forged);
    expect(result.error?.code).toBe('invalid_plan');
    expect(result.error?.message).toContain('notes.txt');
    expect(await snapshotTree(root)).toBe(before);
  });

  it('refuses a plan whose new state disagrees with its writes', async () => {
    await managedFixture();
    const planned = await plan();
    const forged = { ...planned, writes: planned.writes.map((w) => ({ ...w, sha256: `sha256:${'0'.repeat(64)}` })) };
    const before = await snapshotTree(root);
    expect((await applyPlan(forged)).error?.code).toBe('invalid_plan');
    expect(await snapshotTree(root)).toBe(before);
  });
});

describe('applyPlan, forced replace', () => {
  it('removes everything, links as links, and leaves the canary a link pointed at untouched', async () => {
    await managedFixture();
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'canary.txt'), 'do not delete');
    await fs.symlink(outside, path.join(dest, 'link-to-outside'));
    await fs.symlink(path.join(outside, 'canary.txt'), path.join(dest, 'pages/link-to-canary'));
    const outsideBefore = await snapshotTree(outside);
    const result = await applyPlan(await plan({ mode: 'force' }));
    expect(result.error).toBeUndefined();
    expect(await snapshotTree(outside)).toBe(outsideBefore);
    const names = (await fs.readdir(dest)).sort();
    expect(names).toEqual(['.distributor.json', 'data', 'report.html']);
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });

  it('clears a staging folder left by an interrupted replace', async () => {
    await managedFixture();
    await writeInterruptedStaging(dest, { 'pages/half.html': 'half' });
    expect((await planReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' })).ok).toBe(false);
    const planned = await plan({ mode: 'force' });
    // The leftover's name is taken: this apply stages under a fresh one.
    expect(planned.stagingName).toMatch(/^\.distributor-staging-[0-9a-f]{8}$/);
    const result = await applyPlan(planned);
    expect(result.ok).toBe(true);
    expect(result.stagingLeft).toBe(false);
    expect(result.deleted).toEqual(expect.arrayContaining([`${STAGING_DIR_NAME}/files/pages/half.html`, STAGING_DIR_NAME]));
    expect((await fs.readdir(dest)).filter((name) => name.startsWith('.distributor-staging'))).toEqual([]);
    expect((await inspectDestination(dest)).issues.filter((issue) => issue.code === 'interrupted')).toEqual([]);
  });

  it('takes over an unmanaged destination with the ids it is given', async () => {
    await fs.mkdir(dest);
    await fs.writeFile(path.join(dest, 'stray.txt'), 'stray');
    await writeBundle(source, { 'report.md': '# R' }, NEW);
    const planned = await plan({ mode: 'force', configured: { pipelineId: 'p', destinationId: 'd' } });
    expect(planned.comparison?.decision).toBe('unmanaged');
    const result = await applyPlan(planned);
    expect(result.ok).toBe(true);
    expect((await fs.readdir(dest)).sort()).toEqual(['.distributor.json', 'report.html']);
    expect((await parsedState()).destination_id).toBe('d');
  });

  it("stops a large source file's copy between two chunks when cancelled, and removes its staging folder", async () => {
    await managedFixture();
    const size = 8 * 1024 * 1024;
    await writeBundle(source, { 'report.md': '# Report', 'big.bin': 'x'.repeat(size) }, NEW);
    const planned = await plan({ mode: 'force' });
    const before = await snapshotTree(root);
    const controller = new AbortController();
    let staged = 0;
    const result = await applyPlan(planned, {
      signal: controller.signal,
      onProgress: (event) => {
        staged = event.bytes;
        if (event.phase === 'stage' && event.path === 'big.bin' && event.bytes > 0) controller.abort();
      },
    });
    expect(result.error?.code).toBe('cancelled');
    expect(result.stagingLeft).toBe(false);
    expect(staged).toBeLessThan(size);
    expect(await snapshotTree(root)).toBe(before);
  });

  it('stops before changing anything when cancelled, and removes its staging folder', async () => {
    await managedFixture();
    const planned = await plan({ mode: 'force' });
    const before = await snapshotTree(root);
    const controller = new AbortController();
    controller.abort();
    const result = await applyPlan(planned, { signal: controller.signal });
    expect(result.error?.code).toBe('cancelled');
    expect(result.stagingLeft).toBe(false);
    expect(await snapshotTree(root)).toBe(before);
  });
});
