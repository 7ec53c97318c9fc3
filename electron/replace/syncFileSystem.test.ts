import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDirForTest } from '../testing/tempDirs';
import { pinDirectory } from './pinnedDir';
import { pathForChild, syncFileSystemsOf } from './syncFileSystem';

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('syncfs-');
});

const hasSync = process.platform === 'linux' && (existsSync('/usr/bin/sync') || existsSync('/bin/sync'));

describe('syncFileSystemsOf', () => {
  it('names our descriptor links by our pid, so that the sync child opens our folder and not its own descriptor', () => {
    expect(pathForChild('/proc/self/fd/17/page.html', 4242)).toBe('/proc/4242/fd/17/page.html');
    expect(pathForChild('/srv/dest/page.html', 4242)).toBe('/srv/dest/page.html');
  });

  it.skipIf(!hasSync)('flushes files reached through a pinned folder with one syncfs and says so', async () => {
    await fs.mkdir(path.join(root, 'a'));
    await fs.writeFile(path.join(root, 'a', 'one.txt'), 'one');
    await fs.writeFile(path.join(root, 'a', 'two.txt'), 'two');
    const pin = await pinDirectory(path.join(root, 'a'));
    try {
      expect(await syncFileSystemsOf([`${pin.path}/one.txt`, `${pin.path}/two.txt`])).toBe(true);
    } finally {
      await pin.close();
    }
  });

  it('leaves the flush to the caller off Linux, and when a folder cannot be reached', async () => {
    await fs.writeFile(path.join(root, 'one.txt'), 'one');
    expect(await syncFileSystemsOf([path.join(root, 'one.txt')], 'darwin')).toBe(false);
    expect(await syncFileSystemsOf([path.join(root, 'gone', 'one.txt')])).toBe(false);
    expect(await syncFileSystemsOf([])).toBe(false);
  });
});
