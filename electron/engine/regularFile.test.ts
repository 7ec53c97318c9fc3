import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs, readdirSync, type Dirent } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRegularFile, readRegularFileSync, type RegularFileRead } from './regularFile';

const posix = process.platform !== 'win32';
const isRoot = process.getuid?.() === 0;
const repo = fileURLToPath(new URL('../..', import.meta.url));

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'regular-file-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** The read, or 'hung' when it has not answered within the time a hang would take. */
function within<T>(promise: Promise<T>, ms = 3000): Promise<T | 'hung'> {
  return Promise.race([promise, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), ms))]);
}

/** readRegularFileSync in a child process, so that a blocking open would be caught by a timeout, not hang the tests. */
function readSyncInChild(file: string): RegularFileRead | 'hung' {
  const script = `import { readRegularFileSync } from ${JSON.stringify(path.join(repo, 'electron/engine/regularFile.ts'))};
const read = readRegularFileSync(${JSON.stringify(file)});
process.stdout.write(JSON.stringify(read.kind === 'bytes' ? { kind: 'bytes' } : read));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (child.error || child.signal) return 'hung';
  return JSON.parse(child.stdout);
}

describe('reading a file a user controls', () => {
  it('reads a regular file, in both forms', async () => {
    const file = path.join(root, 'state.json');
    await fs.writeFile(file, '{"a":1}');
    expect(await readRegularFile(file)).toEqual({ kind: 'bytes', bytes: Buffer.from('{"a":1}') });
    expect(readRegularFileSync(file)).toEqual({ kind: 'bytes', bytes: Buffer.from('{"a":1}') });
  });

  it('reads an empty file, a one-byte file and a 3 MiB file byte for byte, synchronously as asynchronously', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 12)) & 0xff;
    for (const [name, bytes] of [
      ['empty', Buffer.alloc(0)],
      ['one', Buffer.from('x')],
      ['big', big],
    ] as const) {
      const file = path.join(root, name);
      await fs.writeFile(file, bytes);
      const read = readRegularFileSync(file);
      expect(read.kind).toBe('bytes');
      expect(read.kind === 'bytes' && Buffer.compare(read.bytes, bytes)).toBe(0);
      const asynchronously = await readRegularFile(file);
      expect(asynchronously.kind === 'bytes' && Buffer.compare(asynchronously.bytes, bytes)).toBe(0);
    }
  });

  it('calls a missing file missing, also under a parent that is a file', async () => {
    await fs.writeFile(path.join(root, 'file'), '');
    for (const file of [path.join(root, 'none'), path.join(root, 'file', 'child')]) {
      expect(await readRegularFile(file)).toEqual({ kind: 'missing' });
      expect(readRegularFileSync(file)).toEqual({ kind: 'missing' });
    }
  });

  it.skipIf(!posix)('names a FIFO and answers at once, never opening it (async and sync)', async () => {
    const fifo = path.join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await within(readRegularFile(fifo))).toEqual({ kind: 'not_a_file', what: 'a FIFO (named pipe)' });
    expect(await within(readRegularFile(fifo, { followLinks: true }))).toEqual({ kind: 'not_a_file', what: 'a FIFO (named pipe)' });
    expect(readSyncInChild(fifo)).toEqual({ kind: 'not_a_file', what: 'a FIFO (named pipe)' });
  });

  it.skipIf(!posix)('does not follow a link to a FIFO unless asked, and then still refuses the FIFO', async () => {
    const fifo = path.join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await fs.symlink(fifo, path.join(root, 'link'));
    expect(await within(readRegularFile(path.join(root, 'link')))).toEqual({
      kind: 'not_a_file',
      what: 'a symbolic link',
      isSymlink: true,
    });
    expect(await within(readRegularFile(path.join(root, 'link'), { followLinks: true }))).toEqual({
      kind: 'not_a_file',
      what: 'a FIFO (named pipe)',
    });
  });

  it('follows a link to a regular file only when asked', async () => {
    await fs.writeFile(path.join(root, 'real'), 'x');
    await fs.symlink(path.join(root, 'real'), path.join(root, 'link'));
    expect(await readRegularFile(path.join(root, 'link'))).toEqual({ kind: 'not_a_file', what: 'a symbolic link', isSymlink: true });
    expect(readRegularFileSync(path.join(root, 'link'))).toEqual({ kind: 'not_a_file', what: 'a symbolic link', isSymlink: true });
    expect(await readRegularFile(path.join(root, 'link'), { followLinks: true })).toEqual({ kind: 'bytes', bytes: Buffer.from('x') });
  });

  it.skipIf(!posix)('names a socket and a directory', async () => {
    const socket = path.join(root, 'sock');
    const server = net.createServer().listen(socket);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      expect(await readRegularFile(socket)).toEqual({ kind: 'not_a_file', what: 'a socket' });
    } finally {
      server.close();
    }
    expect(await readRegularFile(root)).toEqual({ kind: 'not_a_file', what: 'a directory' });
  });

  it.skipIf(!isRoot)('names a character device without opening it (mknod needs root)', async () => {
    const device = path.join(root, 'tty-like');
    execFileSync('mknod', [device, 'c', '1', '3']);
    expect(await readRegularFile(device)).toEqual({ kind: 'not_a_file', what: 'a character device' });
    expect(readSyncInChild(device)).toEqual({ kind: 'not_a_file', what: 'a character device' });
  });

  it('refuses a file over the size limit before reading it', async () => {
    const file = path.join(root, 'big');
    await fs.writeFile(file, 'x'.repeat(100));
    expect(await readRegularFile(file, { maxBytes: 99 })).toEqual({ kind: 'too_large', sizeBytes: 100 });
    expect(readRegularFileSync(file, { maxBytes: 100 })).toEqual({ kind: 'bytes', bytes: Buffer.from('x'.repeat(100)) });
  });
});

describe('reading a file from its entry in the folder listing (the scan reader)', () => {
  /** The entry of `name` in a listing of root taken now, as the scan reader takes it. */
  function entryOf(name: string): Dirent {
    const entry = readdirSync(root, { withFileTypes: true }).find((candidate) => candidate.name === name);
    if (!entry) throw new Error(`${name} is not listed`);
    return entry;
  }

  it('reads a regular file as the lstat path does, and applies the size limit to the opened file', async () => {
    const file = path.join(root, 'state.json');
    await fs.writeFile(file, 'x'.repeat(100));
    const entry = entryOf('state.json');
    expect(readRegularFileSync(file, {}, entry)).toEqual(readRegularFileSync(file));
    expect(readRegularFileSync(file, { maxBytes: 99 }, entry)).toEqual({ kind: 'too_large', sizeBytes: 100 });
    expect(readRegularFileSync(file, { maxBytes: 100 }, entry)).toEqual({ kind: 'bytes', bytes: Buffer.from('x'.repeat(100)) });
  });

  it.skipIf(!posix)('names a link, a directory, a FIFO and a socket from the entry, never opening them', async () => {
    await fs.writeFile(path.join(root, 'real'), 'x');
    await fs.symlink(path.join(root, 'real'), path.join(root, 'link'));
    await fs.mkdir(path.join(root, 'folder'));
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const socket = path.join(root, 'sock');
    const server = net.createServer().listen(socket);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      for (const name of ['link', 'folder', 'pipe', 'sock']) {
        const file = path.join(root, name);
        expect(readRegularFileSync(file, {}, entryOf(name))).toEqual(readRegularFileSync(file));
      }
    } finally {
      server.close();
    }
    expect(readRegularFileSync(path.join(root, 'link'), {}, entryOf('link'))).toEqual({
      kind: 'not_a_file',
      what: 'a symbolic link',
      isSymlink: true,
    });
    expect(readRegularFileSync(path.join(root, 'pipe'), {}, entryOf('pipe'))).toEqual({ kind: 'not_a_file', what: 'a FIFO (named pipe)' });
  });

  it.skipIf(!posix)(
    'refuses what a listed regular file was swapped for before the open: a link, a FIFO, a directory, nothing',
    async () => {
      const file = path.join(root, 'state.json');
      const swaps: [string, () => Promise<void>, RegularFileRead][] = [
        ['a link', () => fs.symlink(path.join(root, 'other'), file), { kind: 'not_a_file', what: 'a symbolic link', isSymlink: true }],
        ['a FIFO', async () => void execFileSync('mkfifo', [file]), { kind: 'not_a_file', what: 'a FIFO (named pipe)' }],
        ['a directory', () => fs.mkdir(file), { kind: 'not_a_file', what: 'a directory' }],
        ['nothing', async () => {}, { kind: 'missing' }],
      ];
      await fs.writeFile(path.join(root, 'other'), 'other');
      for (const [, swap, expected] of swaps) {
        await fs.writeFile(file, '{}');
        const entry = entryOf('state.json');
        await fs.rm(file);
        await swap();
        // Opened non-blocking: a FIFO answers at once, never waits for a writer.
        expect(readRegularFileSync(file, {}, entry)).toEqual(expected);
        await fs.rm(file, { recursive: true, force: true });
      }
    },
  );
});

describe('reading into the buffer a thread reuses (the scan reader)', () => {
  it('reads each file whole into it, the next read taking its place, and a large one into its own', async () => {
    const first = path.join(root, 'first.json');
    const second = path.join(root, 'second.json');
    const large = path.join(root, 'large.bin');
    await fs.writeFile(first, '{"a":1}');
    await fs.writeFile(second, '{"b":22}');
    await fs.writeFile(large, Buffer.alloc(2 * 1024 * 1024, 7));
    const one = readRegularFileSync(first, { reuseBuffer: true });
    expect(one).toEqual({ kind: 'bytes', bytes: Buffer.from('{"a":1}') });
    const two = readRegularFileSync(second, { reuseBuffer: true });
    expect(two).toEqual({ kind: 'bytes', bytes: Buffer.from('{"b":22}') });
    if (one.kind !== 'bytes' || two.kind !== 'bytes') throw new Error('both are regular files');
    expect(one.bytes.buffer).toBe(two.bytes.buffer);
    const big = readRegularFileSync(large, { reuseBuffer: true });
    if (big.kind !== 'bytes') throw new Error('a regular file');
    expect(big.bytes.buffer).not.toBe(two.bytes.buffer);
    expect(big.bytes.length).toBe(2 * 1024 * 1024);
  });
});
