// Where the demo lives, and whether a folder is safe to hold it. The default is private to the user
// (their cache folder, created 0700), never a fixed name in the shared temp folder, where another
// local user could create it first and swap its workspace file for one that aims a forced replace
// at the victim's own files. A folder owned by someone else, or writable by group or others, is
// refused, and so is one whose parent lets others rename it away (writable without the sticky bit).
// Windows has no owner or mode bits to check (ACLs); there only the symbolic-link rule applies.

import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Result } from '../../shared/result';
import { userAppFolder } from '../engine/userFolders';

/**
 * The per-user demo folder: `$XDG_CACHE_HOME/distributor-inspector/demo`, else the platform's cache
 * folder (`~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows).
 */
export function defaultDemoDir(
  env: Record<string, string | undefined> = process.env,
  home: string = os.homedir(),
  platform: NodeJS.Platform = process.platform,
): string {
  return path.join(userAppFolder('cache', env, home, platform), 'demo');
}

/** The folder is ready (and whether it was just made), or why it cannot hold the demo (a sentence). */
export type FolderCheck = Result<{ created: boolean }, string>;

const GROUP_OR_OTHERS_WRITE = 0o022;
const STICKY = 0o1000;

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/** The rules on the folder itself, from its lstat. Pure, so the tests can hand it any mode and owner. */
export function privateFolderProblem(
  dir: string,
  stat: { isDirectory(): boolean; isSymbolicLink(): boolean; uid: number; mode: number },
  uid: number | undefined,
): string | null {
  if (stat.isSymbolicLink()) return `${dir} is a symbolic link: give the demo a real folder`;
  if (!stat.isDirectory()) return `${dir} exists and is not a folder`;
  if (uid === undefined) return null;
  if (stat.uid !== uid)
    return `${dir} belongs to another user (uid ${stat.uid}, you are ${uid}): the demo only writes into a folder you own`;
  if ((stat.mode & GROUP_OR_OTHERS_WRITE) !== 0) {
    return `${dir} is writable by group or others (mode ${octal(stat.mode)}): another user could swap the demo's files; run chmod go-w on it, or choose another folder`;
  }
  return null;
}

/**
 * The rule on the parent: nobody else may rename the folder away and put another in its place. So the
 * parent belongs to the user or to root, and is not writable by group or others unless it has the
 * sticky bit (as /tmp has: there only a folder's owner may rename it).
 */
export function parentFolderProblem(parent: string, stat: { uid: number; mode: number }, uid: number | undefined): string | null {
  if (uid === undefined) return null;
  if (stat.uid !== uid && stat.uid !== 0) {
    return `${parent} (the demo folder's parent) belongs to another user (uid ${stat.uid}), who could replace the demo folder: choose a folder under your home`;
  }
  if ((stat.mode & GROUP_OR_OTHERS_WRITE) !== 0 && (stat.mode & STICKY) === 0) {
    return `${parent} (the demo folder's parent) is writable by group or others without the sticky bit (mode ${octal(stat.mode)}): another user could replace the demo folder; choose a folder under your home`;
  }
  return null;
}

/**
 * Makes sure `dir` exists and is private enough to hold the demo: creates it (and missing parents)
 * with mode 0700, or checks the one that is there. Never changes the mode of an existing folder.
 */
export async function preparePrivateFolder(dir: string, uid: number | undefined = process.getuid?.()): Promise<FolderCheck> {
  let created = false;
  let stat = await fs.lstat(dir).catch(() => undefined);
  if (!stat) {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    created = true;
    stat = await fs.lstat(dir);
  }
  const problem = privateFolderProblem(dir, stat, uid);
  if (problem) return { ok: false, error: problem };
  // The real parent: /tmp may be a link (macOS), and a link in the middle must not hide a shared folder.
  const parent = await fs.realpath(path.dirname(dir));
  const parentProblem = parentFolderProblem(parent, await fs.stat(parent), uid);
  if (parentProblem) return { ok: false, error: parentProblem };
  return { ok: true, value: { created } };
}
