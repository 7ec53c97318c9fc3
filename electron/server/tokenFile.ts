// The browser host's token kept in a file (`serve --token-file FILE`), so that a host started again
// (after a crash, an upgrade, a reboot) takes the same token and the tabs already open reconnect by
// themselves. Made on first use, 32 random bytes, mode 0600. As OpenSSH's StrictModes does for
// authorized_keys, a file someone else could have chosen or read is refused: it must be a regular
// file (opened without following a link, non-blocking, checked on the descriptor), owned by the user
// running the server, with no group or other permission, and every folder above it owned by that
// user or root and not writable by group or others unless sticky (as /tmp: there no one else may
// rename or remove the file). Never prints or logs the token; never overwrites a file it did not make.

import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Result } from '../../shared/result';

/** What a token may be: long enough not to guess, and only characters that travel in a URL fragment as they are. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,512}$/;
/** More than any token with its line break: a bigger file is not a token file, and is not read whole. */
const MAX_FILE_BYTES = 1024;
const GROUP_OR_OTHERS = 0o077;
const GROUP_OR_OTHERS_WRITE = 0o022;
const STICKY = 0o1000;
/** Windows has no owner or mode bits to check (ACLs), nor O_NOFOLLOW. */
const POSIX = process.platform !== 'win32';
const OPEN_FLAGS = constants.O_RDONLY | (POSIX ? constants.O_NOFOLLOW | constants.O_NONBLOCK : 0);

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0');

export interface TokenFileOptions {
  /** Who must own the file: the user running the server (a test may name another). */
  uid?: number;
}

/**
 * Why a folder above the token file lets someone else replace or rename the file, or undefined.
 * Walks from the file's real folder up to `/`.
 */
async function folderProblem(file: string, uid: number): Promise<string | undefined> {
  let dir = await fs.realpath(path.dirname(file));
  for (;;) {
    const stat = await fs.stat(dir);
    if (stat.uid !== uid && stat.uid !== 0)
      return `${dir}, a folder above the token file ${file}, belongs to another user (uid ${stat.uid}; the server runs as uid ${uid}), who could put their own token there: keep the token file under a folder of your own`;
    if ((stat.mode & GROUP_OR_OTHERS_WRITE) !== 0 && (stat.mode & STICKY) === 0)
      return `${dir}, a folder above the token file ${file}, may be written by group or others without the sticky bit (mode ${octal(stat.mode)}), who could replace the file: chmod go-w it, or keep the token file under a folder of your own`;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export async function tokenFromFile(
  file: string,
  options: TokenFileOptions = {},
): Promise<Result<{ token: string; created: boolean }, string>> {
  const uid = options.uid ?? process.getuid?.();
  const errno = (cause: unknown) => (cause as NodeJS.ErrnoException).code ?? String(cause);
  if (POSIX && uid !== undefined) {
    const unsafe = await folderProblem(file, uid).catch((cause) => `the folder of ${file} cannot be checked (${errno(cause)})`);
    if (unsafe) return { ok: false, error: unsafe };
  }
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, OPEN_FLAGS);
  } catch (cause) {
    const code = errno(cause);
    if (code === 'ELOOP') return { ok: false, error: `${file} is a symbolic link: give the token file itself, never a link to it` };
    if (code !== 'ENOENT') return { ok: false, error: `${file} cannot be read (${code})` };
    return createTokenFile(file);
  }
  let text: string;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { ok: false, error: `${file} is not a regular file` };
    if (POSIX && uid !== undefined && stat.uid !== uid)
      return {
        ok: false,
        error: `${file} belongs to another user (uid ${stat.uid}; the server runs as uid ${uid}), who chose its token: delete it to have one made, or chown it`,
      };
    // Anyone who can read the token can drive the inspector: like ssh with a private key, refuse a file others may read or write.
    if (POSIX && (stat.mode & GROUP_OR_OTHERS) !== 0)
      return { ok: false, error: `${file} may be read or written by other users (mode ${(stat.mode & 0o777).toString(8)}): chmod 600 it` };
    if (stat.size > MAX_FILE_BYTES) return { ok: false, error: notAToken(file) };
    text = (await handle.readFile()).toString('utf8');
  } catch (cause) {
    return { ok: false, error: `${file} cannot be read (${errno(cause)})` };
  } finally {
    await handle.close();
  }
  const token = text.trim();
  if (!TOKEN_PATTERN.test(token)) return { ok: false, error: notAToken(file) };
  return { ok: true, value: { token, created: false } };
}

const notAToken = (file: string) => `${file} must hold one token of 32 to 512 letters, digits, "-" or "_" (delete it to have one made)`;

async function createTokenFile(file: string): Promise<Result<{ token: string; created: boolean }, string>> {
  const token = randomBytes(32).toString('base64url');
  try {
    // 'wx' (O_EXCL): never over a file or a link that appeared meanwhile.
    await fs.writeFile(file, `${token}\n`, { flag: 'wx', mode: 0o600 });
  } catch (cause) {
    return { ok: false, error: `${file} cannot be created (${(cause as NodeJS.ErrnoException).code ?? String(cause)})` };
  }
  return { ok: true, value: { token, created: true } };
}
