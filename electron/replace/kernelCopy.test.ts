// The kernel's copy of a large file (kernelCopy.ts): byte for byte into the file we opened, stopping at
// the source's end even when it shrank after its size was seen (where libuv's copyfile spins), and
// never writing far past the bytes expected. Real files in a temp folder.

import { closeSync, constants, openSync, promises as fs, readFileSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { canCopyInKernel, copyInKernel, copyInProcess } from './kernelCopy';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('kernel-copy-');
});

const CREATE = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const bytesOf = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + (i >> 9)) & 0xff));

/** Opens `source` for reading and creates `target` (mode 0644), runs `copy`, closes both. */
async function withOpenFiles<T>(source: string, target: string, copy: (from: number, to: number) => Promise<T>): Promise<T> {
  const from = openSync(source, 'r');
  const to = openSync(target, CREATE, 0o644);
  try {
    return await copy(from, to);
  } finally {
    closeSync(from);
    closeSync(to);
  }
}

describe.skipIf(!canCopyInKernel())('copyInKernel', () => {
  it('copies the open file byte for byte into the file we created, keeping that file’s mode', async () => {
    const bytes = bytesOf(3 * 1024 * 1024 + 5);
    const source = path.join(root, 'source.bin');
    await fs.writeFile(source, bytes, { mode: 0o600 });
    const target = path.join(root, 'target.bin');
    expect(await withOpenFiles(source, target, (from, to) => copyInKernel(from, to, bytes.length))).toBe(true);
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(statSync(target).mode & 0o777).toBe(0o644 & ~process.umask());
  });

  it('stops at the end of a source that shrank after it was opened, instead of waiting for the bytes it was promised', async () => {
    const source = path.join(root, 'source.bin');
    await fs.writeFile(source, bytesOf(256 * 1024));
    const target = path.join(root, 'target.bin');
    const copied = await withOpenFiles(source, target, (from, to) => {
      truncateSync(source, 1000);
      return copyInKernel(from, to, 256 * 1024);
    });
    expect(copied).toBe(true);
    expect(statSync(target).size).toBe(1000);
  }, 10_000);

  it('writes no more than a block past the bytes expected from a source larger than them, and says it failed', async () => {
    const source = path.join(root, 'source.bin');
    await fs.writeFile(source, bytesOf(1024 * 1024));
    const target = path.join(root, 'target.bin');
    expect(await withOpenFiles(source, target, (from, to) => copyInKernel(from, to, 1000))).toBe(false);
    expect(statSync(target).size).toBeGreaterThan(1000);
    expect(statSync(target).size).toBeLessThanOrEqual(2048);
  });

  it('kills the copy and rejects with the reason when cancelled', async () => {
    const source = path.join(root, 'source.bin');
    await fs.writeFile(source, bytesOf(1024));
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the test'));
    await expect(
      withOpenFiles(source, path.join(root, 'target.bin'), (from, to) => copyInKernel(from, to, 1024, controller.signal)),
    ).rejects.toThrow('cancelled by the test');
  });
});

describe('copyInProcess', () => {
  it('replaces what the target holds with the source’s bytes, reading at most one byte past those expected', async () => {
    const bytes = bytesOf(300 * 1024 + 3);
    const source = path.join(root, 'source.bin');
    await fs.writeFile(source, bytes);
    const target = path.join(root, 'target.bin');
    await withOpenFiles(source, target, async (from, to) => {
      await fs.appendFile(target, 'left by a failed copy');
      await copyInProcess(from, to, bytes.length);
    });
    expect(readFileSync(target).equals(bytes)).toBe(true);
    await fs.rm(target);
    await withOpenFiles(source, target, (from, to) => copyInProcess(from, to, 1000));
    expect(statSync(target).size).toBe(1001);
  });
});
