import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan } from './applyPlan';
import { nodeFsOps, type FsOps } from './fsOps';
import { PinCache } from './pinCache';
import { fdAnchoringWorks, pinDirectory, type PinnedDir } from './pinnedDir';
import { planReplace } from './planReplace';
import { writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
let dest: string;
let destPin: PinnedDir;
let cache: PinCache;

beforeEach(async () => {
  root = await tempDirForTest('pin-cache-');
  dest = path.join(root, 'dest');
  await fs.mkdir(path.join(dest, 'pages/deep'), { recursive: true });
  await fs.mkdir(path.join(dest, '.staging/files'), { recursive: true });
  destPin = await pinDirectory(dest);
  cache = new PinCache('.staging');
});
afterEach(async () => {
  await cache.closeAll();
  await destPin.close();
});

const inode = async (full: string) => (await fs.lstat(full, { bigint: true })).ino;

describe.runIf(process.platform === 'linux')('PinCache', () => {
  it('holds a destination folder open across uses while it stands where it was pinned', async () => {
    expect(await fdAnchoringWorks()).toBe(true);
    const first = await cache.pin(destPin, 'pages/deep');
    const second = await cache.pin(destPin, 'pages/deep');
    expect(second.pin.path).toBe(first.pin.path);
    expect(second.pin.ino).toBe(await inode(path.join(dest, 'pages/deep')));
  });

  it('pins afresh a folder renamed out of the destination since its last use, never acting in it where it went', async () => {
    const before = await cache.pin(destPin, 'pages/deep');
    await fs.rename(path.join(dest, 'pages/deep'), path.join(root, 'moved'));
    await fs.mkdir(path.join(dest, 'pages/deep'));
    const after = await cache.pin(destPin, 'pages/deep');
    expect(after.pin.path).not.toBe(before.pin.path);
    expect(after.pin.ino).toBe(await inode(path.join(dest, 'pages/deep')));
    await fs.writeFile(path.join(after.pin.path, 'new.txt'), 'x');
    expect(await fs.readdir(path.join(root, 'moved'))).toEqual([]);
    await after.release();
  });

  it('checks every folder on the way: a parent renamed out fails the next use as a missing folder', async () => {
    await cache.pin(destPin, 'pages/deep');
    await fs.rename(path.join(dest, 'pages'), path.join(root, 'moved'));
    await expect(cache.pin(destPin, 'pages/deep')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('never enters a folder swapped for a link since its last use', async () => {
    await fs.mkdir(path.join(root, 'outside'));
    await cache.pin(destPin, 'pages/deep');
    await fs.rename(path.join(dest, 'pages/deep'), path.join(root, 'moved'));
    await fs.symlink(path.join(root, 'outside'), path.join(dest, 'pages/deep'));
    await expect(cache.pin(destPin, 'pages/deep')).rejects.toMatchObject({ code: expect.stringMatching(/^(ELOOP|ENOTDIR)$/) });
  });

  it('keeps folders of its own staging folder as pinned, without a check per use', async () => {
    const first = await cache.pin(destPin, '.staging/files');
    const second = await cache.pin(destPin, '.staging/files');
    expect(second.pin.path).toBe(first.pin.path);
  });
});

describe.runIf(process.platform === 'linux')('an apply that holds destination folders open', () => {
  it('moves nothing into a folder renamed out of the destination between its deletes and its moves', async () => {
    const source = path.join(root, 'source');
    const oldManifest = await writeBundle(path.join(root, 'old-source'), { 'pages/a.txt': 'old a' }, { created: '2026-06-04T11:55:00Z' });
    await fs.rm(dest, { recursive: true });
    await writeManagedDestination(dest, {
      manifest: oldManifest,
      outputs: { 'pages/a.txt': 'old a', 'pages/b.txt': 'old b', 'gone/x.txt': 'x' },
    });
    await writeBundle(
      source,
      { 'pages/a.txt': 'new a', 'pages/b.txt': 'new b', 'pages/c.txt': 'new c' },
      { created: '2026-06-05T09:00:00Z' },
    );
    const planned = await planReplace({ destinationPath: dest, sourcePath: source, mode: 'replace' });
    if (!planned.ok) throw new Error(planned.error.message);
    const moved = path.join(root, 'moved-pages');
    // The last delete empties "gone"; right after it, the folder the deletes used is swapped for a new one.
    let swapped = false;
    const swapping: FsOps = {
      ...nodeFsOps,
      rmdir: async (dir) => {
        await nodeFsOps.rmdir(dir);
        if (swapped) return;
        swapped = true;
        await fs.rename(path.join(dest, 'pages'), moved);
        await fs.mkdir(path.join(dest, 'pages'));
      },
    };
    const result = await applyPlan(planned.value, { fs: swapping });
    expect(result.error).toBeUndefined();
    expect(swapped).toBe(true);
    expect(await fs.readdir(moved)).toEqual([]);
    expect((await fs.readdir(path.join(dest, 'pages'))).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(await fs.readFile(path.join(dest, 'pages/c.txt'), 'utf8')).toBe('new c');
  });
});
