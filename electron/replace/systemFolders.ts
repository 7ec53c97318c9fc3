// The folders a forced replace must never empty: the operating system's own (POSIX, macOS, Windows)
// and every user's home, taken from /etc/passwd (not only $HOME), plus the direct children of the
// usual home roots (/home/x, /Users/x, C:\Users\x) for systems whose users are not in /etc/passwd.
// Pure lists and a pure parser; the one reader of /etc/passwd is at the bottom. Changes nothing.

import { promises as fs } from 'node:fs';
import path from 'node:path';

const POSIX_SYSTEM_FOLDERS = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/media',
  '/mnt',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/snap',
  '/srv',
  '/sys',
  '/tmp',
  '/usr',
  '/usr/bin',
  '/usr/include',
  '/usr/lib',
  '/usr/lib64',
  '/usr/libexec',
  '/usr/local',
  '/usr/local/bin',
  '/usr/local/lib',
  '/usr/sbin',
  '/usr/share',
  '/usr/src',
  '/var',
  '/var/cache',
  '/var/lib',
  '/var/log',
  '/var/mail',
  '/var/spool',
  '/var/tmp',
  '/var/www',
  // macOS
  '/Applications',
  '/Library',
  '/Network',
  '/System',
  '/Users',
  '/Volumes',
  '/cores',
  '/private',
  '/private/etc',
  '/private/tmp',
  '/private/var',
];

const WINDOWS_SYSTEM_FOLDERS = [
  'Windows',
  'Program Files',
  'Program Files (x86)',
  'ProgramData',
  'Users',
  'Recovery',
  'System Volume Information',
];

const POSIX_HOME_ROOTS = ['/home', '/Users', '/var/home'];

/** Folders never to be force-replaced on this platform. Windows entries are per drive: "C:\\Windows" for a path on C:. */
export function systemFoldersFor(platform: NodeJS.Platform, forPath: string): string[] {
  if (platform === 'win32') {
    const root = path.win32.parse(forPath).root || 'C:\\';
    return WINDOWS_SYSTEM_FOLDERS.map((name) => path.win32.join(root, name));
  }
  return POSIX_SYSTEM_FOLDERS;
}

/** Whether two paths are the same on this platform (Windows and macOS compare without letter case). */
export function samePath(a: string, b: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32' || platform === 'darwin') return a.toLowerCase() === b.toLowerCase();
  return a === b;
}

/** The system folder `target` is, if any (compared by path; safeDestination.ts also compares by inode). */
export function matchingSystemFolder(target: string, platform: NodeJS.Platform): string | undefined {
  const trimmed = target.length > 1 ? target.replace(/[\\/]+$/, '') : target;
  return systemFoldersFor(platform, trimmed).find((folder) => samePath(folder, trimmed, platform));
}

/** Whether `target` is a direct child of a home root (/home/alice, /Users/bob, C:\Users\carol). */
export function isUnderHomeRoot(target: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') {
    const parent = path.win32.dirname(target);
    return samePath(path.win32.basename(parent), 'Users', platform) && path.win32.dirname(parent) === path.win32.parse(target).root;
  }
  return POSIX_HOME_ROOTS.some((root) => samePath(path.posix.dirname(target), root, platform));
}

export interface PasswdEntry {
  name: string;
  uid: number;
  home: string;
}

/** The users of /etc/passwd text: name, uid, home (absolute homes only; "/" is refused as a root anyway). */
export function parsePasswd(text: string): PasswdEntry[] {
  const entries: PasswdEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const fields = line.split(':');
    const [name, , uidText, , , home] = fields;
    const uid = Number(uidText);
    if (!name || !Number.isInteger(uid) || !home || !home.startsWith('/')) continue;
    entries.push({ name, uid, home: home.length > 1 ? home.replace(/\/+$/, '') : home });
  }
  return entries;
}

/** The distinct home folders of the users (without "/"). */
export function passwdHomes(entries: readonly PasswdEntry[]): string[] {
  return [...new Set(entries.map((entry) => entry.home).filter((home) => home !== '/'))].sort();
}

export async function readPasswd(file = '/etc/passwd'): Promise<PasswdEntry[]> {
  if (process.platform === 'win32') return [];
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return parsePasswd(text);
}
