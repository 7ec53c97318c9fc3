// Property: for any small destination (recorded outputs, extra files, in folders) and any source,
// a normal replace either refuses and changes nothing at all, or applies and leaves every extra
// file as it was, with a state whose outputs are all on disk, byte for byte. A forced replace of any
// small tree, symbolic links to outside files and folders included, leaves exactly the new outputs and
// state, and changes nothing outside.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPlan } from './applyPlan';
import { planReplace } from './planReplace';
import {
  makeTempDir,
  removeTempDir,
  snapshotTree,
  stateInvariantProblems,
  writeBundle,
  writeManagedDestination,
} from '../testing/fixtures';

const SEGMENTS = ['a', 'b', 'x.md', 'x.html', 'y.txt'];
const pathArbitrary = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 2 }).map((segments) => segments.join('/'));

/** Keeps the paths that can coexist as files in one tree (no file is another's folder). */
function asFileTree(paths: string[], taken: Set<string> = new Set()): string[] {
  const kept: string[] = [];
  for (const candidate of paths) {
    const clashes = [...taken].some((file) => file === candidate || candidate.startsWith(`${file}/`) || file.startsWith(`${candidate}/`));
    if (clashes) continue;
    taken.add(candidate);
    kept.push(candidate);
  }
  return kept;
}

const scenario = fc.record({
  outputs: fc.array(pathArbitrary, { maxLength: 5 }),
  extras: fc.array(pathArbitrary, { maxLength: 4 }),
  sources: fc.array(pathArbitrary, { minLength: 1, maxLength: 4 }),
});

describe('normal replace bounds', () => {
  it('either refuses with nothing changed, or keeps every extra file and a true state', async () => {
    const outcomes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(scenario, async (generated) => {
        const root = await makeTempDir('bounds-');
        try {
          const destinationFiles = new Set<string>();
          const outputs = asFileTree(generated.outputs, destinationFiles);
          const extras = asFileTree(generated.extras, destinationFiles);
          const sources = asFileTree(generated.sources);
          const dest = path.join(root, 'dest');
          const oldManifest = await writeBundle(path.join(root, 'old'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
          await writeManagedDestination(dest, {
            manifest: oldManifest,
            outputs: Object.fromEntries(outputs.map((p) => [p, `output ${p}`])),
            extras: Object.fromEntries(extras.map((p) => [p, `extra ${p}`])),
          });
          await writeBundle(path.join(root, 'src'), Object.fromEntries(sources.map((p) => [p, `# source ${p}`])), {
            created: '2026-06-05T09:00:00Z',
          });

          const before = await snapshotTree(root);
          const outcome = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'src'), mode: 'replace' });
          outcomes.add(outcome.ok ? 'applied' : 'refused');
          if (!outcome.ok) {
            expect(await snapshotTree(root)).toBe(before);
            return;
          }
          const result = await applyPlan(outcome.value);
          expect(result.error).toBeUndefined();
          for (const extra of extras) expect(await fs.readFile(path.join(dest, ...extra.split('/')), 'utf8')).toBe(`extra ${extra}`);
          expect(await stateInvariantProblems(dest)).toEqual([]);
          expect(result.stagingLeft).toBe(false);
        } finally {
          await removeTempDir(root);
        }
      }),
      { numRuns: 60 },
    );
    // Both halves of the property were tried.
    expect([...outcomes].sort()).toEqual(['applied', 'refused']);
    // 60 real plans and applies (each now verifying the outputs behind a matching manifest): 15 s alone,
    // past 30 s beside the rest of the suite on 2 cores. A timeout there is load, not a failure.
  }, 120_000);

  it('a forced replace leaves exactly the new outputs and state, and nothing outside changes, links or not', async () => {
    const forceScenario = fc.record({
      entries: fc.array(fc.record({ path: pathArbitrary, link: fc.constantFrom('none', 'file', 'folder') }), { maxLength: 6 }),
      sources: fc.array(pathArbitrary, { minLength: 1, maxLength: 4 }),
    });
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(forceScenario, async (generated) => {
        const root = await makeTempDir('bounds-force-');
        try {
          const dest = path.join(root, 'dest');
          const outside = path.join(root, 'outside');
          await fs.mkdir(path.join(outside, 'folder'), { recursive: true });
          await fs.writeFile(path.join(outside, 'canary.txt'), 'canary');
          await fs.writeFile(path.join(outside, 'folder', 'canary.txt'), 'canary in a folder');
          await fs.mkdir(dest);
          const taken = new Set<string>();
          for (const entry of generated.entries) {
            if (asFileTree([entry.path], taken).length === 0) continue;
            const full = path.join(dest, ...entry.path.split('/'));
            await fs.mkdir(path.dirname(full), { recursive: true });
            if (entry.link === 'none') await fs.writeFile(full, `stray ${entry.path}`);
            else await fs.symlink(entry.link === 'file' ? path.join(outside, 'canary.txt') : path.join(outside, 'folder'), full);
          }
          const sources = asFileTree(generated.sources);
          await writeBundle(path.join(root, 'src'), Object.fromEntries(sources.map((p) => [p, `# source ${p}`])));
          const outsideBefore = await snapshotTree(outside);
          const outcome = await planReplace({
            destinationPath: dest,
            sourcePath: path.join(root, 'src'),
            mode: 'force',
            configured: { pipelineId: 'p', destinationId: 'd' },
          });
          if (outcome.ok) {
            applied++;
            const result = await applyPlan(outcome.value);
            expect(result.error).toBeUndefined();
            expect(await stateInvariantProblems(dest)).toEqual([]);
            const expected = ['.distributor.json', ...(outcome.value.newState?.outputs ?? []).map((o) => o.path)].sort();
            const onDisk = (await snapshotTree(dest))
              .split('\n')
              .filter((line) => / file /.test(line))
              .map((line) => line.split(' file ')[0] as string)
              .sort();
            expect(onDisk).toEqual(expected);
            expect((await snapshotTree(dest)).includes(' link ')).toBe(false);
          }
          expect(await snapshotTree(outside)).toBe(outsideBefore);
        } finally {
          await removeTempDir(root);
        }
      }),
      { numRuns: 40 },
    );
    // Most scenarios are applied; the checks above are not all skipped by refusals.
    expect(applied).toBeGreaterThan(20);
  });
});
