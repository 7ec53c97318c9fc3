import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, readSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../testing/fixtureTrees';
import { examineAndHash, hashListedFile, type Hasher } from './hashTask';

// Small, so that files on either side of the buffer's size stay small too.
const BUFFER = 4096;
let dir: string;
let remove: () => Promise<void>;

beforeAll(async () => ({ dir, remove } = await makeTempDir('hash-task')));
afterAll(() => remove());

function hasher(): Hasher & { bytes: number } {
  const made = {
    buffer: Buffer.alloc(BUFFER),
    checkedDirs: new Set<string>(),
    bytes: 0,
    onBytes: (bytes: number) => (made.bytes += bytes),
  };
  return made;
}

const sha = (bytes: Buffer | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** A file written at `name`, as a listing would have just seen it; returns its task. */
function listed(name: string, bytes: Buffer | string, expectedSize: number) {
  writeFileSync(path.join(dir, name), bytes);
  return { root: dir, path: name, expectedSize };
}

describe('hashing an output the listing showed to be a regular file', () => {
  it.each([0, 1, BUFFER - 1, BUFFER, BUFFER + 1, 3 * BUFFER])(
    'hashes a file of %i bytes of its recorded size, counting each byte once, as the lstat path does',
    (size) => {
      const bytes = Buffer.alloc(size, size % 251);
      const task = listed(`exact-${size}`, bytes, size);
      const reading = hasher();
      expect(hashListedFile(task, reading)).toEqual({ kind: 'file', size, sha256: sha(bytes) });
      expect(reading.bytes).toBe(size);
      expect(examineAndHash(task, hasher())).toEqual({ kind: 'file', size, sha256: sha(bytes) });
    },
  );

  it('never reads a path that climbs out of its root, and reads one whose climb stays inside', () => {
    mkdirSync(path.join(dir, 'root', 'pages'), { recursive: true });
    writeFileSync(path.join(dir, 'secret'), 'secret');
    writeFileSync(path.join(dir, 'root', 'inside'), 'inside');
    const root = path.join(dir, 'root');
    for (const outside of ['../secret', 'pages/../../secret', path.join(dir, 'secret')]) {
      for (const read of [hashListedFile, examineAndHash])
        expect(read({ root, path: outside, expectedSize: 6 }, hasher())).toEqual({
          kind: 'error',
          message: `${outside} is not inside ${root}; not read`,
        });
    }
    expect(hashListedFile({ root, path: 'pages/../inside', expectedSize: 6 }, hasher())).toEqual({
      kind: 'file',
      size: 6,
      sha256: sha('inside'),
    });
  });

  it('reports the size of a file that grew or shrank since it was recorded, with no hash and no bytes counted', () => {
    const reading = hasher();
    expect(hashListedFile(listed('grew', 'recorded!', 8), reading)).toEqual({ kind: 'file', size: 9 });
    expect(hashListedFile(listed('shrank', 'recorded', 9), reading)).toEqual({ kind: 'file', size: 8 });
    expect(hashListedFile(listed('emptied', '', 3), reading)).toEqual({ kind: 'file', size: 0 });
    expect(hashListedFile(listed('filled', 'x', 0), reading)).toEqual({ kind: 'file', size: 1 });
    // Grown past the buffer: still its size, from the fstat.
    expect(hashListedFile(listed('grew-big', Buffer.alloc(BUFFER + 10), BUFFER - 1), reading)).toEqual({ kind: 'file', size: BUFFER + 10 });
    expect(reading.bytes).toBe(0);
  });

  it('reports a link that replaced the file after the listing, never reading what it names', () => {
    writeFileSync(path.join(dir, 'secret'), 'secret');
    symlinkSync(path.join(dir, 'secret'), path.join(dir, 'now-a-link'));
    const reading = hasher();
    expect(hashListedFile({ root: dir, path: 'now-a-link', expectedSize: 6 }, reading)).toEqual({
      kind: 'symlink',
      linkTarget: path.join(dir, 'secret'),
    });
    expect(reading.bytes).toBe(0);
  });

  it('reports a folder that replaced the file after the listing', () => {
    mkdirSync(path.join(dir, 'now-a-folder'));
    expect(hashListedFile({ root: dir, path: 'now-a-folder', expectedSize: 4 }, hasher())).toMatchObject({ kind: 'directory' });
  });

  it('reports a FIFO that replaced the file after the listing, even one holding exactly the recorded bytes, and leaves them unread', () => {
    const fifo = path.join(dir, 'now-a-fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      const reading = hasher();
      expect(hashListedFile({ root: dir, path: 'now-a-fifo', expectedSize: 4 }, reading)).toMatchObject({ kind: 'fifo' });
      writeSync(writer, 'four');
      expect(hashListedFile({ root: dir, path: 'now-a-fifo', expectedSize: 4 }, reading)).toMatchObject({ kind: 'fifo' });
      expect(reading.bytes).toBe(0);
      const left = Buffer.alloc(8);
      expect(left.subarray(0, readSync(reader, left)).toString()).toBe('four');
    } finally {
      closeSync(writer);
      closeSync(reader);
      rmSync(fifo);
    }
  });
});
