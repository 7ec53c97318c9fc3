import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDirForTest } from '../testing/tempDirs';
import { EARLY_FLUSH_BYTES, earlyFlusher, nodeFsOps } from './fsOps';

let dir: string;
beforeEach(async () => {
  dir = await tempDirForTest('fs-ops-');
});

async function* chunksOf(parts: string[], failAfter?: number, closed?: { value: boolean }): AsyncGenerator<Buffer> {
  try {
    for (const [index, part] of parts.entries()) {
      if (index === failAfter) throw new Error('the source changed');
      await new Promise((resolve) => setImmediate(resolve));
      yield Buffer.from(part);
    }
  } finally {
    if (closed) closed.value = true;
  }
}

describe('nodeFsOps.writeFile with chunks', () => {
  it('writes every chunk in order into a new file', async () => {
    const file = path.join(dir, 'out.bin');
    await nodeFsOps.writeFile(file, chunksOf(['one ', 'two ', 'three']), { durable: false });
    expect(await fs.readFile(file, 'utf8')).toBe('one two three');
  });

  it('never writes into an existing file or through a link', async () => {
    const existing = path.join(dir, 'existing.txt');
    await fs.writeFile(existing, 'kept');
    await expect(nodeFsOps.writeFile(existing, chunksOf(['x']))).rejects.toMatchObject({ code: 'EEXIST' });
    await fs.symlink(path.join(dir, 'target.txt'), path.join(dir, 'link'));
    await expect(nodeFsOps.writeFile(path.join(dir, 'link'), chunksOf(['x']))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await fs.readFile(existing, 'utf8')).toBe('kept');
    await expect(fs.access(path.join(dir, 'target.txt'))).rejects.toThrow();
  });

  it("fails with the producer's error, leaving what was written for the caller to remove, and the producer closed", async () => {
    const file = path.join(dir, 'partial.bin');
    const closed = { value: false };
    await expect(nodeFsOps.writeFile(file, chunksOf(['one ', 'two ', 'three'], 2, closed))).rejects.toThrow('the source changed');
    expect(await fs.readFile(file, 'utf8')).toBe('one two ');
    expect(closed.value).toBe(true);
  });
});

describe('the early flushes of a large file written unflushed', () => {
  const MiB = 1024 * 1024;

  it('starts a flush every 64 MiB written, one in flight at a time, and waits for it before the file is closed', async () => {
    const done: ((cause: NodeJS.ErrnoException | null) => void)[] = [];
    const early = earlyFlusher(7, true, (_fd, callback) => void done.push(callback));
    early.wrote(EARLY_FLUSH_BYTES - MiB);
    expect(done).toHaveLength(0);
    early.wrote(MiB);
    expect(done).toHaveLength(1);
    early.wrote(EARLY_FLUSH_BYTES * 2);
    expect(done).toHaveLength(1);
    let idle = false;
    const waiting = early.idle().then(() => (idle = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    done[0]!(null);
    await waiting;
    early.wrote(EARLY_FLUSH_BYTES);
    expect(done).toHaveLength(2);
    done[1]!(null);
    await expect(early.settled()).resolves.toBeUndefined();
  });

  it('fails the write with the first flush that failed', async () => {
    const early = earlyFlusher(7, true, (_fd, callback) => callback(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' })));
    early.wrote(EARLY_FLUSH_BYTES);
    await expect(early.settled()).rejects.toMatchObject({ code: 'EIO' });
  });

  it('never flushes a file written to be flushed on its own', () => {
    const flush = (): void => {
      throw new Error('flushed');
    };
    const early = earlyFlusher(7, false, flush);
    expect(() => early.wrote(EARLY_FLUSH_BYTES * 4)).not.toThrow();
  });
});
