// Where a replace may never run (CONTRACT.md: Replacement). Forced replace deletes everything in
// the destination, so it refuses a filesystem root, a system folder (/etc, /usr, C:\Windows, …), any
// user's home (from /etc/passwd, not only $HOME) or a folder holding one, a folder owned by another
// user (unless allowed), a symbolic link, and a folder holding the source bundle or a protected path
// (the workspace file). Both modes refuse a destination inside the source bundle, or holding it.
// Containment is decided by device and inode as well as by real path: a bind mount shows the same
// folder under another path, and only its inode gives it away. Read-only.

import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PlanRefusal, ReplaceMode } from '../../shared/plan';
import { isInsideOrEqual } from '../engine/pathInside';
import { isUnderHomeRoot, matchingSystemFolder, passwdHomes, readPasswd, systemFoldersFor, type PasswdEntry } from './systemFolders';
import { planKindOf } from '../../shared/planKinds';

export { isInsideOrEqual } from '../engine/pathInside';

/** The real path of a path that may not exist yet: the real path of its nearest existing ancestor, plus the rest. */
export async function realPathOf(target: string): Promise<string> {
  const resolved = path.resolve(target);
  const real = await fs.realpath(resolved).catch(() => undefined);
  if (real !== undefined) return real;
  const parent = path.dirname(resolved);
  if (parent === resolved) return resolved;
  return path.join(await realPathOf(parent), path.basename(resolved));
}

interface Identity {
  dev: bigint;
  ino: bigint;
}

async function identityOf(target: string): Promise<Identity | undefined> {
  const stat = await fs.stat(target, { bigint: true }).catch(() => undefined);
  return stat ? { dev: stat.dev, ino: stat.ino } : undefined;
}

const sameIdentity = (a: Identity | undefined, b: Identity | undefined) =>
  a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;

/**
 * Whether `inner` is `outer` or lies below it, by path or by inode: some folder on the way up from
 * inner's real path is outer itself (the same device and inode), also when reached through a bind mount.
 */
export async function containsByIdentity(outer: string, inner: string): Promise<boolean> {
  const outerReal = await realPathOf(outer);
  let current = await realPathOf(inner);
  if (isInsideOrEqual(current, outerReal)) return true;
  const outerId = await identityOf(outerReal);
  if (!outerId) return false;
  for (;;) {
    if (sameIdentity(await identityOf(current), outerId)) return true;
    const parent = path.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

export interface DestinationSafetyInput {
  /** Absolute, resolved destination path (not yet realpath'd). */
  destinationPath: string;
  sourceRealPath: string;
  mode: ReplaceMode;
  protectedPaths?: string[];
  /** A forced replace of a folder owned by another user is refused unless this is set. */
  allowOtherOwner?: boolean;
  /** For tests; defaults to os.homedir(). */
  homeDirectory?: string;
  /** For tests; defaults to /etc/passwd. */
  passwdFile?: string;
}

function refused(code: string, message: string, details: Record<string, unknown>): PlanRefusal {
  return { code, message, details };
}

async function systemFolderRefusal(dest: string, destReal: string): Promise<PlanRefusal | null> {
  const byPath = matchingSystemFolder(destReal, process.platform) ?? matchingSystemFolder(dest, process.platform);
  let folder = byPath;
  if (!folder) {
    // By inode too: /etc reached through a bind mount, or spelt in another letter case.
    const destId = await identityOf(destReal);
    for (const candidate of systemFoldersFor(process.platform, destReal)) {
      if (sameIdentity(await identityOf(candidate), destId)) {
        folder = candidate;
        break;
      }
    }
  }
  if (!folder) return null;
  return refused('destination_is_system_folder', `${dest} is the system folder ${folder}; a forced replace there is never allowed`, {
    destination: dest,
    folder,
  });
}

async function homeRefusal(
  dest: string,
  destReal: string,
  input: DestinationSafetyInput,
  users: PasswdEntry[],
): Promise<PlanRefusal | null> {
  const own = input.homeDirectory ?? os.homedir();
  // A test that names its own home and no passwd file is not judged by this machine's users.
  const homes = [own, ...(input.homeDirectory === undefined || input.passwdFile !== undefined ? passwdHomes(users) : [])];
  for (const home of homes) {
    if (!(await containsByIdentity(destReal, home))) continue;
    const homeReal = await realPathOf(home);
    const owner = users.find((user) => user.home === home)?.name;
    const whose = home === own ? 'the home directory' : `the home directory of ${owner ?? 'a user'}`;
    const what =
      sameIdentity(await identityOf(homeReal), await identityOf(destReal)) || homeReal === destReal
        ? `is ${whose}`
        : `contains ${whose} ${homeReal}`;
    return refused('destination_is_home', `${dest} ${what}; a forced replace there is never allowed`, {
      destination: dest,
      home: homeReal,
    });
  }
  if (isUnderHomeRoot(destReal, process.platform)) {
    return refused('destination_is_home', `${dest} is a user's home directory; a forced replace there is never allowed`, {
      destination: dest,
      home: destReal,
    });
  }
  return null;
}

export async function destinationSafetyRefusal(input: DestinationSafetyInput): Promise<PlanRefusal | null> {
  const dest = input.destinationPath;
  // A system folder by its own name first (/bin is a link on merged-/usr systems): the gravest reason wins.
  // A forced replace deletes the whole tree: it alone is refused for system folders, homes and roots.
  const wholeTree = planKindOf(input.mode).deletesWholeTree;
  const named = wholeTree ? matchingSystemFolder(dest, process.platform) : undefined;
  if (named)
    return refused('destination_is_system_folder', `${dest} is the system folder ${named}; a forced replace there is never allowed`, {
      destination: dest,
      folder: named,
    });
  const stat = await fs.lstat(dest).catch(() => undefined);
  if (stat?.isSymbolicLink()) {
    return refused('destination_is_symlink', `${dest} is a symbolic link; a replace never follows a link to its target`, {
      destination: dest,
    });
  }
  if (stat && !stat.isDirectory()) return refused('destination_not_directory', `${dest} is not a directory`, { destination: dest });
  const destReal = await realPathOf(dest);
  const users = wholeTree ? await readPasswd(input.passwdFile) : [];
  // The gravest first: a forced replace of a root, a system folder or a home is refused as such, whatever else holds.
  if (wholeTree) {
    if (path.parse(destReal).root === destReal) {
      return refused('destination_is_root', `${dest} is a filesystem root; a forced replace would delete everything on it`, {
        destination: dest,
      });
    }
    const system = await systemFolderRefusal(dest, destReal);
    if (system) return system;
    const home = await homeRefusal(dest, destReal, input, users);
    if (home) return home;
  }
  if (await containsByIdentity(input.sourceRealPath, destReal)) {
    return refused(
      'destination_inside_source',
      `${dest} lies inside the source bundle ${input.sourceRealPath}; publishing there would change the source`,
      { destination: dest, source: input.sourceRealPath },
    );
  }
  if (await containsByIdentity(destReal, input.sourceRealPath)) {
    return refused(
      'destination_contains_source',
      `${dest} contains the source bundle ${input.sourceRealPath} (compared by device and inode, so also through a bind mount); a replace there could delete the source`,
      { destination: dest, source: input.sourceRealPath },
    );
  }
  if (!wholeTree) return null;
  for (const protectedPath of input.protectedPaths ?? []) {
    if (await containsByIdentity(destReal, protectedPath)) {
      const protectedReal = await realPathOf(protectedPath);
      return refused(
        'destination_contains_protected',
        `${dest} contains ${protectedReal} (the workspace file); a forced replace would delete it`,
        { destination: dest, protected: protectedReal },
      );
    }
  }
  const uid = process.getuid?.();
  if (stat && uid !== undefined && stat.uid !== uid && !input.allowOtherOwner) {
    const owner = users.find((user) => user.uid === stat.uid)?.name;
    return refused(
      'destination_other_owner',
      `${dest} belongs to ${owner ? `${owner} (uid ${stat.uid})` : `uid ${stat.uid}`}, not to you (uid ${uid}); a forced replace of another user's folder needs --allow-other-owner`,
      { destination: dest, ownerUid: stat.uid, ...(owner ? { owner } : {}) },
    );
  }
  return null;
}
