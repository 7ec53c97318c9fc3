import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashPool } from '../engine/hashPool';
import { snapshotTree, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { applyPlan } from './applyPlan';
import { changedOf, changedOnDisk, hashInThread } from './changedOutputs';
import { planReplace } from './planReplace';

const recorded = { size: 3, sha256: `sha256:${'a'.repeat(64)}` };

describe('what a hash outcome says about a recorded output', () => {
  it('is unchanged only when the file has the recorded size and sha256', () => {
    expect(changedOf(recorded, { kind: 'file', size: 3, sha256: recorded.sha256 })).toBeUndefined();
    expect(changedOf(recorded, { kind: 'file', size: 3, sha256: `sha256:${'b'.repeat(64)}` })).toBe('hash_mismatch');
  });

  it('calls a file of another size (not read, so with no hash) a size mismatch', () => {
    expect(changedOf(recorded, { kind: 'file', size: 4 })).toBe('size_mismatch');
    expect(changedOf(recorded, { kind: 'file', size: 3 })).toBe('size_mismatch');
  });

  it('calls anything not read as a regular file not_a_file: gone, a link, a FIFO, a link on the way, an error', () => {
    for (const outcome of [
      { kind: 'missing' },
      { kind: 'symlink' },
      { kind: 'fifo' },
      { kind: 'link_in_path' },
      { kind: 'error', message: 'cannot be read (EACCES)' },
    ] as const)
      expect(changedOf(recorded, outcome), outcome.kind).toBe('not_a_file');
  });
});

describe('hashing in this thread without a pool', () => {
  it('gives the pool’s outcome for every kind of output: intact, edited, resized, a link, a link on the way, a FIFO, missing', async () => {
    const root = await tempDirForTest('changed-');
    const pool = new HashPool({ size: 1 });
    try {
      await fs.mkdir(path.join(root, 'pages'));
      await fs.mkdir(path.join(root, 'elsewhere'));
      await fs.writeFile(path.join(root, 'pages', 'intact.html'), 'abc');
      await fs.writeFile(path.join(root, 'pages', 'edited.html'), 'abd');
      await fs.writeFile(path.join(root, 'pages', 'resized.html'), 'abcdef');
      await fs.writeFile(path.join(root, 'elsewhere', 'x.html'), 'abc');
      await fs.symlink(path.join(root, 'pages', 'intact.html'), path.join(root, 'pages', 'link.html'));
      await fs.symlink(path.join(root, 'elsewhere'), path.join(root, 'linked'));
      execFileSync('mkfifo', [path.join(root, 'pages', 'fifo.html')]);
      const outputs = [
        'pages/intact.html',
        'pages/edited.html',
        'pages/resized.html',
        'pages/link.html',
        'linked/x.html',
        'pages/fifo.html',
        'pages/gone.html',
      ].map((p) => ({ path: p, size: 3 }));
      const inThread = await hashInThread(root, outputs);
      const inPool = await pool.hash(outputs.map((output) => ({ root, path: output.path, expectedSize: output.size })));
      expect(inThread).toEqual(inPool);
      expect(inThread.map((outcome) => outcome.kind)).toEqual(['file', 'file', 'file', 'symlink', 'link_in_path', 'fifo', 'missing']);
    } finally {
      await pool.close();
    }
  });
});

describe("hashing outputs the plan has just lstat'ed as regular files", () => {
  it('opens them without a second lstat, and never reads what was swapped in since as the output: a link, a FIFO, a folder', async () => {
    const root = await tempDirForTest('changed-');
    await fs.mkdir(path.join(root, 'pages'));
    for (const name of ['intact', 'edited', 'resized', 'link', 'fifo', 'folder', 'gone'])
      await fs.writeFile(path.join(root, 'pages', `${name}.html`), name === 'edited' ? 'abd' : name === 'resized' ? 'abcdef' : 'abc');
    const outputs = ['intact', 'edited', 'resized', 'link', 'fifo', 'folder', 'gone'].map((name) => ({
      path: `pages/${name}.html`,
      size: 3,
      sha256: `sha256:${createHash('sha256').update('abc').digest('hex')}`,
    }));
    // Swapped after the plan's lstat saw regular files of the recorded size.
    await fs.writeFile(path.join(root, 'target.html'), 'abc');
    for (const name of ['link', 'fifo', 'folder', 'gone']) await fs.rm(path.join(root, 'pages', `${name}.html`));
    await fs.symlink(path.join(root, 'target.html'), path.join(root, 'pages', 'link.html'));
    execFileSync('mkfifo', [path.join(root, 'pages', 'fifo.html')]);
    await fs.mkdir(path.join(root, 'pages', 'folder.html'));
    const listed = await hashInThread(root, outputs, true);
    expect(listed.map((outcome) => outcome.kind)).toEqual(['file', 'file', 'file', 'symlink', 'fifo', 'directory', 'missing']);
    expect(await changedOnDisk(root, outputs, undefined, undefined, true)).toEqual([
      undefined,
      'hash_mismatch',
      'size_mismatch',
      'not_a_file',
      'not_a_file',
      'not_a_file',
      'not_a_file',
    ]);
  });
});

describe("a plan's hash without a second lstat, and the stale-plan check behind it", () => {
  it("an output's folder swapped after planning for a link to the same files outside: the apply refuses, touching nothing", async () => {
    const root = await tempDirForTest('changed-');
    const dest = path.join(root, 'dest');
    const source = path.join(root, 'source');
    const old = await writeBundle(path.join(root, 'old-source'), { 'a.txt': 'a' }, { id: 'site', created: '2026-06-04T11:55:00Z' });
    await writeManagedDestination(dest, { manifest: old, outputs: { 'pages/a.html': 'a', 'pages/deep/b.html': 'b' } });
    await writeBundle(source, { 'pages/a.html': 'new a' }, { id: 'site', created: '2026-06-05T09:00:00Z' });
    const planned = await planReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' });
    if (!planned.ok) throw new Error(planned.error.message);
    // The plan opened pages/deep/b.html without an lstat of its own: the fingerprint's lstat of
    // pages/deep (a folder then) is what the apply compares.
    await fs.rename(path.join(dest, 'pages/deep'), path.join(root, 'outside-deep'));
    await fs.symlink(path.join(root, 'outside-deep'), path.join(dest, 'pages/deep'));
    const before = await snapshotTree(root);
    const result = await applyPlan(planned.value);
    expect(result.error?.code).toBe('stale_plan');
    expect(await snapshotTree(root)).toBe(before);
    expect(await fs.readFile(path.join(root, 'outside-deep/b.html'), 'utf8')).toBe('b');
  });
});

describe('hashing with a pool given', () => {
  it('hashes small outputs in this thread while the pool has no worker running, and starts none', async () => {
    const root = await tempDirForTest('changed-');
    const pool = new HashPool({ size: 1 });
    try {
      await fs.writeFile(path.join(root, 'intact.html'), 'abc');
      await fs.writeFile(path.join(root, 'edited.html'), 'abd');
      const sha256 = `sha256:${createHash('sha256').update('abc').digest('hex')}`;
      const outputs = ['intact.html', 'edited.html'].map((p) => ({ path: p, size: 3, sha256 }));
      expect(await changedOnDisk(root, outputs, pool)).toEqual([undefined, 'hash_mismatch']);
      expect(pool.workerCount).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
