import { createHash } from 'node:crypto';
import { closeSync, openSync, promises as fs } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { hashedChunks } from './hashedChunks';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('hashed-chunks-');
});
afterAll(async () => removeTempDir(dir));

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function withFile<T>(name: string, content: Uint8Array, use: (fd: number) => Promise<T>): Promise<T> {
  const file = path.join(dir, name);
  await fs.writeFile(file, content);
  const fd = openSync(file, 'r');
  try {
    return await use(fd);
  } finally {
    closeSync(fd);
    await fs.rm(file);
  }
}

describe('hashedChunks', () => {
  it("keeps each chunk's bytes while the next is read, so a writer can still be writing it", async () => {
    const content = Buffer.from('aaaabbbbccccdddde');
    await withFile('turns', content, async (fd) => {
      const chunks = hashedChunks(fd, createHash('sha256'), { maxBytes: content.length, chunkBytes: 4 });
      let previous = await chunks.next();
      let index = 0;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        expect(next.value.toString()).toBe(content.subarray((index + 1) * 4, (index + 2) * 4).toString());
        expect((previous.value as Buffer).toString()).toBe(content.subarray(index * 4, (index + 1) * 4).toString());
        previous = next;
        index += 1;
      }
      expect(index).toBe(4);
    });
  });

  it('yields the file in order and hashes exactly what it yields, for any size, chunk size and limit: at most one byte past the limit', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 4000 }),
        fc.integer({ min: 1, max: 700 }),
        fc.integer({ min: -3, max: 3 }),
        async (content, chunkBytes, slack) =>
          withFile(`f${run++}`, content, async (fd) => {
            const maxBytes = Math.max(0, content.length + slack);
            const hash = createHash('sha256');
            const seen: Buffer[] = [];
            let counted = 0;
            const chunks = hashedChunks(fd, hash, { maxBytes, chunkBytes, onBytes: (bytes) => (counted += bytes) });
            let next = await chunks.next();
            while (!next.done) {
              // A copy: the buffer is read into again for the next chunk.
              seen.push(Buffer.from(next.value));
              expect(next.value.length).toBeLessThanOrEqual(chunkBytes);
              next = await chunks.next();
            }
            const expected = Buffer.from(content).subarray(0, Math.min(content.length, maxBytes + 1));
            expect(Buffer.concat(seen).equals(expected)).toBe(true);
            expect(next.value).toBe(expected.length);
            expect(counted).toBe(expected.length);
            expect(hash.digest('hex')).toBe(sha256Hex(expected));
          }),
      ),
      { numRuns: 150 },
    );
  });

  it('lets the event loop turn while it reads: a long file never holds it for the whole read', async () => {
    const content = Buffer.alloc(100 * 1024, 7);
    await withFile('long', content, async (fd) => {
      let turns = 0;
      const ticking = setInterval(() => turns++, 0);
      try {
        // About 2 ms of work per chunk: 100 chunks are ten slices of the event loop's 20 ms.
        const busy = () => {
          for (const started = performance.now(); performance.now() - started < 2;);
        };
        for await (const _chunk of hashedChunks(fd, createHash('sha256'), { maxBytes: content.length, chunkBytes: 1024, onBytes: busy }));
      } finally {
        clearInterval(ticking);
      }
      expect(turns).toBeGreaterThanOrEqual(3);
    });
  });

  it('reads nothing more once the caller stops early', async () => {
    await withFile('early', Buffer.alloc(5000, 1), async (fd) => {
      let counted = 0;
      const chunks = hashedChunks(fd, createHash('sha256'), { maxBytes: 5000, chunkBytes: 1000, onBytes: (bytes) => (counted += bytes) });
      await chunks.next();
      await chunks.return(0);
      expect(await chunks.next()).toEqual({ done: true, value: undefined });
      expect(counted).toBe(1000);
    });
  });
});
