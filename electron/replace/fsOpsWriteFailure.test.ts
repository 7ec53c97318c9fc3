import type * as NodeFs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDirForTest } from '../testing/tempDirs';

// The chunked write's failure path: the write runs in libuv's thread while the next chunk is made,
// so its error must still fail the file (never an unhandled rejection), once the write ends.
const failing = vi.hoisted(() => ({ afterCalls: Infinity, calls: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof NodeFs>();
  const write = ((...args: unknown[]) => {
    failing.calls += 1;
    if (failing.calls > failing.afterCalls) {
      const callback = args[args.length - 1] as (cause: NodeJS.ErrnoException) => void;
      setImmediate(() => callback(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' })));
      return;
    }
    return (real.write as (...all: unknown[]) => void)(...args);
  }) as typeof real.write;
  return { ...real, default: { ...real, write }, write };
});

const { nodeFsOps } = await import('./fsOps');
const { promises: fs } = await import('node:fs');

let dir: string;
beforeEach(async () => {
  dir = await tempDirForTest('fs-ops-write-');
  failing.calls = 0;
});

async function* chunks(parts: string[], asked: { count: number; closed: boolean }): AsyncGenerator<Buffer> {
  try {
    for (const part of parts) {
      asked.count += 1;
      yield Buffer.from(part);
    }
  } finally {
    asked.closed = true;
  }
}

describe('nodeFsOps.writeFile with chunks, when a write fails', () => {
  it("fails with the write's error, asks for no chunk past the next, and closes the producer", async () => {
    failing.afterCalls = 1;
    const asked = { count: 0, closed: false };
    const file = path.join(dir, 'out.bin');
    await expect(nodeFsOps.writeFile(file, chunks(['one ', 'two ', 'three ', 'four'], asked), { durable: false })).rejects.toMatchObject({
      code: 'EIO',
    });
    expect(asked.count).toBeLessThanOrEqual(3);
    expect(asked.closed).toBe(true);
    expect(await fs.readFile(file, 'utf8')).toBe('one ');
  });

  it('writes every chunk when no write fails', async () => {
    failing.afterCalls = Infinity;
    const asked = { count: 0, closed: false };
    const file = path.join(dir, 'whole.bin');
    await nodeFsOps.writeFile(file, chunks(['one ', 'two ', 'three'], asked));
    expect(await fs.readFile(file, 'utf8')).toBe('one two three');
    expect(asked.closed).toBe(true);
  });
});
