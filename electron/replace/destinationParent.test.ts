// A replace into a missing destination creates only the destination folder, inside a real folder.
// The refusal says what its parent is: missing, a file, or a symbolic link (and to where).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PlanOutcome } from '../../shared/plan';
import { planReplace } from './planReplace';
import { snapshotTree, writeBundle } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('parent-');
  await writeBundle(path.join(root, 'source'), { 'index.md': '# Home' });
});

const plan = (dest: string, mode: 'replace' | 'force' = 'replace') =>
  planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode, configured: { pipelineId: 'p', destinationId: 'd' } });

function refusalOf(outcome: PlanOutcome) {
  if (outcome.ok) throw new Error('expected a refusal');
  return outcome.error;
}

describe('the parent of a missing destination', () => {
  it('a symbolic link: refused, saying it is a link, to where, and why, never "neither does its parent folder"', async () => {
    await fs.mkdir(path.join(root, 'real'));
    await fs.symlink(path.join(root, 'real'), path.join(root, 'linked'));
    const dest = path.join(root, 'linked', 'site');
    for (const mode of ['replace', 'force'] as const) {
      const refusal = refusalOf(await plan(dest, mode));
      expect(refusal.code).toBe('destination_parent_is_symlink');
      expect(refusal.message).toBe(
        `${dest} does not exist, and its parent folder ${path.join(root, 'linked')} is a symbolic link (to ${path.join(root, 'real')}): a replace never creates a destination through a link, so that what it deletes later cannot be redirected; name the real folder instead: ${path.join(root, 'real', 'site')}`,
      );
      expect(refusal.message).not.toContain('neither does its parent folder');
    }
    expect(await fs.readdir(path.join(root, 'real'))).toEqual([]);
  });

  it('a file: refused, saying the parent is a file', async () => {
    await fs.writeFile(path.join(root, 'file'), 'x');
    const dest = path.join(root, 'file', 'site');
    const refusal = refusalOf(await plan(dest));
    expect(refusal.code).toBe('destination_parent_not_directory');
    expect(refusal.message).toBe(`${dest} does not exist, and its parent ${path.join(root, 'file')} is a regular file, not a folder`);
  });

  it('missing: refused, saying neither exists, and nothing is created', async () => {
    const dest = path.join(root, 'nowhere', 'site');
    const before = await snapshotTree(root);
    const refusal = refusalOf(await plan(dest));
    expect(refusal.code).toBe('destination_parent_missing');
    expect(refusal.message).toBe(
      `${dest} does not exist, and neither does its parent folder ${path.join(root, 'nowhere')}; a replace creates only the destination folder itself`,
    );
    expect(await snapshotTree(root)).toBe(before);
  });
});
