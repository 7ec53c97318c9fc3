// Property: for any small destination (recorded outputs, extra files, in folders) and any source,
// a normal replace either refuses and changes nothing at all, or applies and leaves every extra
// file as it was, with a state whose outputs are all on disk, byte for byte.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPlan } from './applyPlan';
import { planReplace } from './planReplace';
import { makeTempDir, removeTempDir, snapshotTree, stateInvariantProblems, writeBundle, writeManagedDestination } from './testing/fixtures';

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
          await writeBundle(path.join(root, 'src'), Object.fromEntries(sources.map((p) => [p, `# source ${p}`])), { created: '2026-06-05T09:00:00Z' });

          const before = await snapshotTree(root);
          const outcome = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'src'), mode: 'replace' });
          if (!outcome.ok) {
            expect(await snapshotTree(root)).toBe(before);
            return;
          }
          const result = await applyPlan(outcome.plan);
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
  });
});
