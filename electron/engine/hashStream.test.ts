import { createHash } from 'node:crypto';
import { fstatSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { examineAndHash, type Hasher } from './hashTask';
import { hashRestReadingAhead } from './hashStream';
import { verifyHere, type RecordedOutput } from './judgeOutputs';

const BUFFER = 64 * 1024;
let dir: string;
let remove: () => Promise<void>;

beforeAll(async () => ({ dir, remove } = await makeTempDir('hash-stream')));
afterAll(() => remove());

function hasher(): Hasher & { spare: Buffer; bytes: number } {
  const made = {
    buffer: Buffer.alloc(BUFFER),
    spare: Buffer.alloc(BUFFER),
    checkedDirs: new Set<string>(),
    bytes: 0,
    onBytes: (bytes: number) => (made.bytes += bytes),
  };
  return made;
}

/** Bytes that differ from chunk to chunk, so a chunk hashed twice or out of order changes the digest. */
function bytesOf(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed + Math.floor(i / 977)) & 0xff;
  return bytes;
}

const sha = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describe('hashing a big file while reading ahead', () => {
  it.each([BUFFER + 1, 2 * BUFFER, 2 * BUFFER + 7, 3.5 * BUFFER])(
    'hashes a file of %i bytes to the digest and size of reading it in one pass, counting every byte',
    async (size) => {
      const bytes = bytesOf(size, size);
      writeFileSync(path.join(dir, `file-${size}`), bytes);
      const reading = hasher();
      const outcome = examineAndHash({ root: dir, path: `file-${size}`, expectedSize: size }, reading, true);
      expect(outcome).toBeInstanceOf(Promise);
      expect(await outcome).toEqual({ kind: 'file', size, sha256: sha(bytes) });
      expect(reading.bytes).toBe(size);
      // Without reading ahead, the same answer, synchronously.
      expect(examineAndHash({ root: dir, path: `file-${size}`, expectedSize: size }, hasher())).toEqual(await outcome);
    },
  );

  it('answers a file that fits in the buffer at once, without a promise', () => {
    writeFileSync(path.join(dir, 'small'), 'small');
    const outcome = examineAndHash({ root: dir, path: 'small', expectedSize: 5 }, hasher(), true);
    expect(outcome).toEqual({ kind: 'file', size: 5, sha256: sha(Buffer.from('small')) });
  });

  it('closes the file once its last read has returned, also when a read fails', async () => {
    writeFileSync(path.join(dir, 'closed'), bytesOf(3 * BUFFER, 1));
    const reading = hasher();
    const fd = openSync(path.join(dir, 'closed'), 'r');
    await hashRestReadingAhead(fd, reading, createHash('sha256').update(reading.buffer.fill(0)), BUFFER);
    expect(() => fstatSync(fd)).toThrow(expect.objectContaining({ code: 'EBADF' }));

    mkdirSync(path.join(dir, 'a-folder'));
    const folder = openSync(path.join(dir, 'a-folder'), 'r');
    await expect(hashRestReadingAhead(folder, reading, createHash('sha256'), BUFFER)).rejects.toMatchObject({ code: 'EISDIR' });
    expect(() => fstatSync(folder)).toThrow(expect.objectContaining({ code: 'EBADF' }));
  });

  it('verifies a destination with big files among small ones exactly as without reading ahead', async () => {
    const at = path.join(dir, 'destination');
    const state = writeManagedDestination(at, {
      'a.html': 'a',
      'big/one.bin': bytesOf(3 * BUFFER + 5, 2),
      'b.html': 'b',
      'big/two.bin': bytesOf(2 * BUFFER, 3),
      'big/changed.bin': bytesOf(2 * BUFFER, 4),
      'big/shorter.bin': bytesOf(2 * BUFFER, 5),
      'c.html': 'c',
    });
    // Same size, other bytes; and a file cut short: a hash mismatch and a size mismatch.
    writeFileSync(path.join(at, 'big/changed.bin'), bytesOf(2 * BUFFER, 6));
    writeFileSync(path.join(at, 'big/shorter.bin'), bytesOf(BUFFER, 5));
    const outputs = state.outputs as RecordedOutput[];
    const readingAhead = verifyHere(at, outputs, hasher(), undefined, undefined, true);
    expect(readingAhead).toBeInstanceOf(Promise);
    const report = await readingAhead;
    expect(report).toEqual(verifyHere(at, outputs, hasher()));
    expect(report.outputs.map((output) => output.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'hash_mismatch', 'size_mismatch', 'ok']);
  });
});
