import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tokenFromFile } from './tokenFile';

const posix = process.platform !== 'win32';
let dir: string;
beforeEach(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'token-file-'))));
afterEach(async () => fs.rm(dir, { recursive: true, force: true }));

describe('tokenFromFile', () => {
  it('makes a random token in a file only its owner may read, then gives the same token every time', async () => {
    const file = path.join(dir, 'token');
    const made = await tokenFromFile(file);
    if (!made.ok) throw new Error(made.error);
    expect(made.value.created).toBe(true);
    expect(made.value.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    if (process.platform !== 'win32') expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await tokenFromFile(file)).toEqual({ ok: true, value: { token: made.value.token, created: false } });
  });

  it('refuses a token file other users may read, naming the file and the fix', async () => {
    if (process.platform === 'win32') return;
    const file = path.join(dir, 'token');
    await fs.writeFile(file, `${'a'.repeat(40)}\n`, { mode: 0o644 });
    await fs.chmod(file, 0o644);
    expect(await tokenFromFile(file)).toEqual({
      ok: false,
      error: `${file} may be read or written by other users (mode 644): chmod 600 it`,
    });
  });

  it('refuses a short or strange token rather than guarding the host with it', async () => {
    for (const text of ['short', 'has spaces in it and is long enough to pass', `${'a'.repeat(40)}#`]) {
      const file = path.join(dir, `token-${text.length}`);
      await fs.writeFile(file, text, { mode: 0o600 });
      const read = await tokenFromFile(file);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.error).toContain(file);
    }
  });

  it('refuses a folder where the file should be, and never writes over anything', async () => {
    const folder = path.join(dir, 'a-folder');
    await fs.mkdir(folder);
    expect(await tokenFromFile(folder)).toEqual({ ok: false, error: `${folder} is not a regular file` });
    expect(await fs.readdir(folder)).toEqual([]);
  });

  it('refuses a file under a folder others may write, unless the folder is sticky, and makes none there', async () => {
    if (!posix) return;
    const open = path.join(dir, 'open');
    await fs.mkdir(open);
    await fs.chmod(open, 0o777);
    const made = path.join(open, 'token');
    expect(await tokenFromFile(made)).toEqual({
      ok: false,
      error: `${open}, a folder above the token file ${made}, may be written by group or others without the sticky bit (mode 0777), who could replace the file: chmod go-w it, or keep the token file under a folder of your own`,
    });
    await expect(fs.lstat(made)).rejects.toThrow(/ENOENT/);
    await fs.chmod(open, 0o1777);
    expect((await tokenFromFile(made)).ok).toBe(true);
  });

  it("refuses a FIFO in the token file's place at once, never waiting for a writer", async () => {
    if (!posix) return;
    const fifo = path.join(dir, 'token');
    execFileSync('mkfifo', [fifo]);
    expect(await tokenFromFile(fifo)).toEqual({ ok: false, error: `${fifo} is not a regular file` });
  });

  it('refuses a symbolic link, even to a good token file of the same user', async () => {
    if (!posix) return;
    const real = path.join(dir, 'real-token');
    await fs.writeFile(real, `${'a'.repeat(40)}\n`, { mode: 0o600 });
    const link = path.join(dir, 'token');
    await fs.symlink(real, link);
    expect(await tokenFromFile(link)).toEqual({
      ok: false,
      error: `${link} is a symbolic link: give the token file itself, never a link to it`,
    });
  });

  it('refuses a file others may write though not read', async () => {
    if (!posix) return;
    const file = path.join(dir, 'token');
    await fs.writeFile(file, `${'a'.repeat(40)}\n`);
    await fs.chmod(file, 0o602);
    expect(await tokenFromFile(file)).toEqual({
      ok: false,
      error: `${file} may be read or written by other users (mode 602): chmod 600 it`,
    });
  });
});

describe.runIf(posix && process.getuid?.() === 0)('tokenFromFile, as root, against files of another user', () => {
  const nobody = 65534;

  it('refuses a private token file owned by another user, whose token that user chose', async () => {
    const file = path.join(dir, 'token');
    await fs.writeFile(file, `${'b'.repeat(40)}\n`, { mode: 0o600 });
    await fs.chown(file, nobody, nobody);
    expect(await tokenFromFile(file)).toEqual({
      ok: false,
      error: `${file} belongs to another user (uid ${nobody}; the server runs as uid 0), who chose its token: delete it to have one made, or chown it`,
    });
  });

  it('refuses a token file in a folder owned by another user, who could swap it', async () => {
    const theirs = path.join(dir, 'theirs');
    await fs.mkdir(theirs, { mode: 0o755 });
    await fs.chown(theirs, nobody, nobody);
    const file = path.join(theirs, 'token');
    const read = await tokenFromFile(file);
    expect(read).toEqual({
      ok: false,
      error: `${theirs}, a folder above the token file ${file}, belongs to another user (uid ${nobody}; the server runs as uid 0), who could put their own token there: keep the token file under a folder of your own`,
    });
    await expect(fs.lstat(file)).rejects.toThrow(/ENOENT/);
  });
});
