// On Windows a replace refuses, when planning, the paths the contract allows but Windows does not keep
// as written (the `not_portable` warning of shared/cleanPath.ts). The platform is passed in.
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PlanOutcome } from '../../shared/plan';
import { planReplace } from './planReplace';
import { snapshotTree, writeBundle } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('portable-');
});

const plan = (platform: NodeJS.Platform, mode: 'replace' | 'force' = 'replace') =>
  planReplace({
    destinationPath: path.join(root, 'dest'),
    sourcePath: path.join(root, 'source'),
    mode,
    configured: { pipelineId: 'p', destinationId: 'd' },
    platform,
  });

function refusalOf(outcome: PlanOutcome) {
  if (outcome.ok) throw new Error('expected a refusal');
  return outcome.error;
}

describe('names Windows does not keep', () => {
  it('on win32: refuses a source whose paths carry the not_portable warning, naming the first and why, listing all', async () => {
    await writeBundle(path.join(root, 'source'), {
      'index.md': '# Home',
      'notes/.../report.md': '# Dots',
      'docs/ /a.txt': 'space',
      'CON.md': '# Device',
    });
    const before = await snapshotTree(root);
    for (const mode of ['replace', 'force'] as const) {
      const refusal = refusalOf(await plan('win32', mode));
      expect(refusal.code).toBe('not_portable');
      expect(refusal.message).toMatch(
        /^source file "[^"]+"( \(published as "[^"]+"\))? has the name .+; a replace on Windows refuses such names \(and 2 more such paths, listed in the details\)$/,
      );
      expect((refusal.details?.paths as { source_path: string }[]).map((entry) => entry.source_path).sort()).toEqual([
        'CON.md',
        'docs/ /a.txt',
        'notes/.../report.md',
      ]);
    }
    expect(await snapshotTree(root)).toBe(before);
  });

  it('says why for one path: a trailing dot, Windows drops it', async () => {
    await writeBundle(path.join(root, 'source'), { 'index.md': '# Home', 'notes/.../report.md': '# Dots' });
    expect(refusalOf(await plan('win32')).message).toBe(
      'source file "notes/.../report.md" (published as "notes/.../report.html") has the name "...", which ends with a dot: Windows drops trailing dots and spaces, so it would name another file there; a replace on Windows refuses such names',
    );
  });

  it('elsewhere: the same source plans, the names being only a warning', async () => {
    await writeBundle(path.join(root, 'source'), { 'index.md': '# Home', 'notes/.../report.md': '# Dots', 'docs/ /a.txt': 'space' });
    const outcome = await plan('linux');
    expect(outcome.ok).toBe(true);
  });
});
