import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { execFileSync } from 'node:child_process';
import { pinDirectory } from './pinnedDir';
import { removeListedFile, removeTree } from './removeTree';

let root: string;
beforeEach(async () => {
  root = await makeTempDir('remove-tree-');
});
afterEach(async () => {
  await removeTempDir(root);
});

async function writeTree(base: string, folders: number, filesEach: number): Promise<void> {
  for (let f = 0; f < folders; f++) {
    await fs.mkdir(path.join(base, 'pages', `f${f}`, 'deeper'), { recursive: true });
    for (let i = 0; i < filesEach; i++) await fs.writeFile(path.join(base, 'pages', `f${f}`, `page-${i}.html`), `page ${f}/${i}`);
    await fs.writeFile(path.join(base, 'pages', `f${f}`, 'deeper', 'last.txt'), 'last');
  }
}

describe('removeTree', () => {
  it('removes a folder of many files and folders, counting every entry it removed', async () => {
    const tree = path.join(root, 'tree');
    await writeTree(tree, 3, 40);
    // 3 × (40 files + deeper + last.txt + the folder) + pages + the tree itself.
    expect(await removeTree(tree)).toBe(3 * 43 + 2);
    await expect(fs.lstat(tree)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes a link to a folder outside as a link, never what it points at', async () => {
    const outside = path.join(root, 'outside');
    await writeTree(outside, 1, 5);
    const tree = path.join(root, 'tree');
    await fs.mkdir(tree);
    for (let i = 0; i < 20; i++) await fs.symlink(outside, path.join(tree, `link-${i}`));
    await fs.symlink(path.join(outside, 'pages', 'f0', 'page-0.html'), path.join(tree, 'file-link'));
    await removeTree(tree);
    await expect(fs.lstat(tree)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await fs.readdir(path.join(outside, 'pages', 'f0'))).length).toBe(6);
  });

  it('refuses a tree whose top folder is a link, removing nothing through it', async () => {
    const outside = path.join(root, 'outside');
    await writeTree(outside, 1, 5);
    const link = path.join(root, 'tree');
    await fs.symlink(outside, link);
    await expect(removeTree(link)).rejects.toThrow();
    expect((await fs.readdir(path.join(outside, 'pages', 'f0'))).length).toBe(6);
  });

  it('unlinks what its listing showed as a file at once; a folder or link swapped in since goes as itself, nothing outside', async () => {
    const outside = path.join(root, 'outside');
    await writeTree(outside, 1, 5);
    const tree = path.join(root, 'tree');
    await fs.mkdir(tree);
    // As they stand when removeListedFile reaches them, each listed as a file a moment before.
    await fs.writeFile(path.join(tree, 'plain.txt'), 'plain');
    await fs.mkdir(path.join(tree, 'now-a-folder'));
    await fs.writeFile(path.join(tree, 'now-a-folder', 'inner.txt'), 'inner');
    await fs.symlink(path.join(outside, 'pages'), path.join(tree, 'now-a-link'));
    execFileSync('mkfifo', [path.join(tree, 'now-a-fifo')]);
    const pin = await pinDirectory(tree);
    const walk = { dev: pin.dev, mounts: new Set<string>(), removed: 0 };
    try {
      for (const name of ['plain.txt', 'now-a-folder', 'now-a-link', 'now-a-fifo', 'gone-already']) await removeListedFile(pin, name, walk);
    } finally {
      await pin.close();
    }
    expect(await fs.readdir(tree)).toEqual([]);
    // plain.txt, inner.txt and its folder, the link, the FIFO.
    expect(walk.removed).toBe(5);
    expect((await fs.readdir(path.join(outside, 'pages', 'f0'))).length).toBe(6);
  });
});
