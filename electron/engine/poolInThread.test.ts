import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, sha256Of, writeManagedDestination } from '../testing/fixtureTrees';
import { HashPool } from './hashPool';
import { runInThread } from './poolInThread';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('pool-in-thread')));
afterEach(async () => remove());

/** Destinations every verify outcome can come from: intact, drifted, a link, a big file, not managed. */
function destinations(): string[] {
  const intact = path.join(dir, 'intact');
  writeManagedDestination(intact, { 'index.html': 'home', 'pages/a.html': 'a' });
  const drifted = path.join(dir, 'drifted');
  writeManagedDestination(drifted, { 'index.html': 'home', 'gone.html': 'g', 'link.html': 'l' });
  writeFileSync(path.join(drifted, 'index.html'), 'HOME');
  writeFileSync(path.join(drifted, 'extra.txt'), 'extra');
  rmSync(path.join(drifted, 'gone.html'));
  rmSync(path.join(drifted, 'link.html'));
  symlinkSync('index.html', path.join(drifted, 'link.html'));
  const big = path.join(dir, 'big');
  writeManagedDestination(big, { 'big.bin': Buffer.alloc(3 * 1024 * 1024 + 5, 7), 'after.html': 'after' });
  const unmanaged = path.join(dir, 'unmanaged');
  mkdirSync(unmanaged);
  writeFileSync(path.join(unmanaged, 'index.html'), 'hand made');
  return [intact, drifted, big, unmanaged];
}

describe('a HashPool that runs a lone batch in its own thread', () => {
  it('verifies destinations exactly as its workers do, starting no worker', async () => {
    const paths = destinations();
    const here = new HashPool({ runHere: runInThread });
    const workers = new HashPool({ size: 1 });
    try {
      let hereFiles = 0;
      let hereBytes = 0;
      const inThread = await here.inspect(paths, {
        withState: true,
        verify: true,
        onProgress: (delta) => {
          hereFiles += delta.files;
          hereBytes += delta.bytes;
        },
      });
      expect(here.workerCount).toBe(0);
      expect(inThread).toEqual(await workers.inspect(paths, { withState: true, verify: true }));
      expect(workers.workerCount).toBe(1);
      expect(inThread.map((outcome) => (outcome.kind === 'inspected' ? outcome.verify?.status : outcome.kind))).toEqual([
        'intact',
        'drifted',
        'intact',
        undefined,
      ]);
      expect(hereFiles).toBe(4);
      // Every byte of every output hashed: the big file's three buffers and more, the small ones.
      expect(hereBytes).toBe(3 * 1024 * 1024 + 5 + 'after'.length + 'home'.length + 'a'.length + 'HOME'.length);
    } finally {
      await Promise.all([here.close(), workers.close()]);
    }
  });

  it('hashes a big file here with reading ahead, and small files after it, in task order', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024 + 1, 3);
    writeFileSync(path.join(dir, 'big.bin'), big);
    writeFileSync(path.join(dir, 'small.txt'), 'small');
    const pool = new HashPool({ runHere: runInThread });
    try {
      const outcomes = await pool.hash([
        { root: dir, path: 'big.bin' },
        { root: dir, path: 'small.txt' },
      ]);
      expect(outcomes).toEqual([
        { kind: 'file', size: big.length, sha256: `sha256:${createHash('sha256').update(big).digest('hex')}` },
        { kind: 'file', size: 5, sha256: sha256Of('small') },
      ]);
      expect(pool.workerCount).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('sends a request of more than one batch to its workers', async () => {
    const tasks = Array.from({ length: 65 }, (_, i) => {
      writeFileSync(path.join(dir, `f${i}`), `file ${i}`);
      return { root: dir, path: `f${i}` };
    });
    const pool = new HashPool({ size: 1, runHere: runInThread });
    try {
      const outcomes = await pool.hash(tasks);
      expect(outcomes.every((outcome) => outcome.kind === 'file')).toBe(true);
      expect(pool.workerCount).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('rejects with the abort reason between jobs and runs none after it', async () => {
    for (const name of ['a', 'b', 'c']) writeFileSync(path.join(dir, name), name);
    const pool = new HashPool({ runHere: runInThread });
    const controller = new AbortController();
    const reason = new Error('stopped by the user');
    let files = 0;
    try {
      const hashing = pool.hash(
        ['a', 'b', 'c'].map((name) => ({ root: dir, path: name })),
        {
          signal: controller.signal,
          onProgress: (delta) => {
            files += delta.files;
            if (files === 1) controller.abort(reason);
          },
        },
      );
      await expect(hashing).rejects.toBe(reason);
      expect(files).toBe(1);
    } finally {
      await pool.close();
    }
  });
});
