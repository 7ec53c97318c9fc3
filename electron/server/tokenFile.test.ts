import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tokenFromFile } from './tokenFile';

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
    expect(await tokenFromFile(file)).toEqual({ ok: false, error: `${file} may be read by other users (mode 644): chmod 600 it` });
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
});
