// The browser host's token kept in a file (`serve --token-file FILE`), so that a host started again
// (after a crash, an upgrade, a reboot) takes the same token and the tabs already open reconnect by
// themselves. Made on first use, 32 random bytes, mode 0600; a file others may read is refused.
// Never prints or logs the token; never overwrites a file it did not make.

import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { Result } from '../../shared/result';

/** What a token may be: long enough not to guess, and only characters that travel in a URL fragment as they are. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,512}$/;

export async function tokenFromFile(file: string): Promise<Result<{ token: string; created: boolean }, string>> {
  let text: string;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return { ok: false, error: `${file} is not a regular file` };
    // Anyone who can read the token can drive the inspector: like ssh with a private key, refuse a file others may read.
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0)
      return { ok: false, error: `${file} may be read by other users (mode ${(stat.mode & 0o777).toString(8)}): chmod 600 it` };
    text = await fs.readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return { ok: false, error: `${file} cannot be read (${code ?? String(cause)})` };
    const token = randomBytes(32).toString('base64url');
    try {
      // 'wx': never over a file that appeared meanwhile.
      await fs.writeFile(file, `${token}\n`, { flag: 'wx', mode: 0o600 });
    } catch (writeCause) {
      return { ok: false, error: `${file} cannot be created (${(writeCause as NodeJS.ErrnoException).code ?? String(writeCause)})` };
    }
    return { ok: true, value: { token, created: true } };
  }
  const token = text.trim();
  if (!TOKEN_PATTERN.test(token))
    return { ok: false, error: `${file} must hold one token of 32 to 512 letters, digits, "-" or "_" (delete it to have one made)` };
  return { ok: true, value: { token, created: false } };
}
