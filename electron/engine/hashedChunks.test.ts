import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
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

describe('hashedChunks', () => {
  it('yields the file in order and hashes exactly what it yields, for any size, chunk size and limit: at most one byte past the limit', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 4000 }),
        fc.integer({ min: 1, max: 700 }),
        fc.integer({ min: -3, max: 3 }),
        async (content, chunkBytes, slack) => {
          const file = path.join(dir, `f${run++}`);
          await fs.writeFile(file, content);
          const maxBytes = Math.max(0, content.length + slack);
          const handle = await fs.open(file, 'r');
          try {
            const hash = createHash('sha256');
            const seen: Buffer[] = [];
            let counted = 0;
            const chunks = hashedChunks(handle, hash, { maxBytes, chunkBytes, onBytes: (bytes) => (counted += bytes) });
            let next = await chunks.next();
            while (!next.done) {
              // A copy: the buffer turns again two chunks later.
              seen.push(Buffer.from(next.value));
              expect(next.value.length).toBeLessThanOrEqual(chunkBytes);
              next = await chunks.next();
            }
            const expected = Buffer.from(content).subarray(0, Math.min(content.length, maxBytes + 1));
            const read = Buffer.concat(seen);
            expect(read.equals(expected)).toBe(true);
            expect(next.value).toBe(expected.length);
            expect(counted).toBe(expected.length);
            expect(hash.digest('hex')).toBe(sha256Hex(expected));
          } finally {
            await handle.close();
            await fs.rm(file);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('leaves a yielded chunk untouched while the next one is read and hashed, so it can be written meanwhile', async () => {
    const content = Buffer.alloc(10 * 64);
    for (let i = 0; i < 10; i++) content.fill(i, i * 64, (i + 1) * 64);
    const file = path.join(dir, 'turns');
    await fs.writeFile(file, content);
    const handle = await fs.open(file, 'r');
    try {
      const chunks = hashedChunks(handle, createHash('sha256'), { maxBytes: content.length, chunkBytes: 64 });
      let held = await chunks.next();
      for (let i = 0; !held.done; i++) {
        const next = await chunks.next();
        // The chunk handed out before this one still holds its own bytes.
        expect(held.value.every((byte: number) => byte === i)).toBe(true);
        held = next;
      }
    } finally {
      await handle.close();
    }
  });

  it('lets the read in flight finish when the caller stops early, before the file is closed', async () => {
    const file = path.join(dir, 'early');
    await fs.writeFile(file, Buffer.alloc(5000, 1));
    const handle = await fs.open(file, 'r');
    const chunks = hashedChunks(handle, createHash('sha256'), { maxBytes: 5000, chunkBytes: 1000 });
    await chunks.next();
    await chunks.return(0);
    await handle.close();
    expect(await chunks.next()).toEqual({ done: true, value: undefined });
  });
});
