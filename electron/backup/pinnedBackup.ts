// A backup read through its folder held open, as the destination side of a restore is
// (replace/pinnedDir.ts): every entry below `files/` is reached one folder at a time, each opened
// with O_NOFOLLOW and O_DIRECTORY on the backup's own device, so a link planted at any depth of the
// backup is never entered, and a rename out of it acts on exactly the name inside that folder.
// Opening a backup also decides whether it can be trusted at all: the backup folder, its `files/`
// and its `backup.json` must be owned by the user running the restore and writable by nobody else
// (OpenSSH's StrictModes rule), or anyone who can write a shared backups folder could make that
// user's restore move files of its choosing. Read-only: it opens, stats and reads, never changes.

import { promises as fs, type Stats } from 'node:fs';
import type { FingerprintEntry } from '../../shared/plan';
import path from 'node:path';
import { BACKUP_FILES_DIR, BACKUP_MANIFEST_NAME, type BackupEntry, type BackupManifest } from '../../shared/backupSchema';
import type { Problem } from '../../shared/result';
import { openRegularFile } from '../engine/regularFile';
import { lstatEntry } from '../replace/fingerprint';
import { childPath, pinChild, pinDirectory, pinRelative, type PinnedDir } from '../replace/pinnedDir';
import { parseBackupManifest } from './backupStore';

/** A backup.json past this is not one an apply wrote (a million entries is ~300 MB). */
const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

export interface PinnedBackup {
  readonly manifest: BackupManifest;
  /** Runs `action` on the anchored path of `relative` (below files/), reached without following any link. */
  at<T>(relative: string, action: (full: string) => Promise<T>): Promise<T>;
  /**
   * What stands at each `relative` (below files/), in order, each folder on the way pinned once for
   * all its entries (a settle of 10,000 entries in ten folders pins ten, not 10,000): undefined for
   * one that cannot be reached (a link or a file on the way, gone). Read-only.
   */
  seenEach(relatives: readonly string[]): Promise<(FingerprintEntry | undefined)[]>;
  /** Why `relative` cannot be reached inside the backup (a link or a file on the way, gone), or undefined. */
  unreachable(relative: string): Promise<string | undefined>;
  /** Every path below files/ the manifest does not account for (the first few): a backup that holds more than it says. */
  strays(): Promise<string[]>;
  close(): Promise<void>;
}

const refusal = (code: string, message: string): Problem => ({ code, message });
const parentOf = (relative: string) => (path.posix.dirname(relative) === '.' ? '' : path.posix.dirname(relative));

/** Who runs this process (the effective user), or undefined where there are no uids (Windows). */
function runningUid(): number | undefined {
  return process.geteuid?.() ?? process.getuid?.();
}

/** Why a part of a backup cannot be trusted (owned by another user, writable by others), or undefined. */
export function untrustedBecause(what: string, stat: Pick<Stats, 'uid' | 'mode'>, uid = runningUid()): string | undefined {
  if (uid === undefined || process.platform === 'win32') return undefined;
  const mode = (stat.mode & 0o7777).toString(8).padStart(4, '0');
  if (stat.uid !== uid)
    return `${what} is owned by uid ${stat.uid}, not by uid ${uid} who runs this restore: a backup another user can change is never restored`;
  if ((stat.mode & 0o022) !== 0)
    return `${what} is writable by ${stat.mode & 0o002 ? 'every user' : 'its group'} (mode ${mode}): a backup another user can change is never restored`;
  return undefined;
}

function errnoWords(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'is missing';
  if (code === 'ELOOP') return 'is reached through a symbolic link (never followed in a backup)';
  // O_DIRECTORY|O_NOFOLLOW meets a link as ENOTDIR: either way, nothing on the way is followed.
  if (code === 'ENOTDIR')
    return 'is not a folder (a symbolic link or a file stands where a folder should be; a link is never followed in a backup)';
  if (code === 'EXDEV') return 'is on another file system';
  return `cannot be read (${code ?? (cause as Error)?.message ?? String(cause)})`;
}

async function readManifest(folder: PinnedDir, label: string): Promise<{ manifest: BackupManifest } | { problem: Problem }> {
  const file = path.join(label, BACKUP_MANIFEST_NAME);
  const opened = await openRegularFile(childPath(folder, BACKUP_MANIFEST_NAME));
  if (opened.kind === 'missing')
    return { problem: refusal('backup_unreadable', `${file} is missing: the apply that made it was interrupted before it kept anything`) };
  if (opened.kind !== 'open')
    return { problem: refusal('backup_unreadable', `${file} is ${'what' in opened ? opened.what : opened.kind}, not a backup manifest`) };
  try {
    const stat = await opened.handle.stat();
    const why = untrustedBecause(file, stat);
    if (why) return { problem: refusal('backup_untrusted', why) };
    if (stat.size > MAX_MANIFEST_BYTES)
      return { problem: refusal('backup_unreadable', `${file} is ${stat.size} bytes, larger than any backup manifest`) };
    const parsed = parseBackupManifest(await opened.handle.readFile(), file);
    return parsed.ok ? { manifest: parsed.manifest } : { problem: refusal('backup_unreadable', parsed.problem) };
  } finally {
    await opened.handle.close();
  }
}

/** Opens a backup pinned, refusing one that cannot be trusted or read; the caller closes it. */
export async function openPinnedBackup(folderPath: string): Promise<{ ok: true; backup: PinnedBackup } | { ok: false; error: Problem }> {
  const label = path.resolve(folderPath);
  let folder: PinnedDir | undefined;
  let files: PinnedDir | undefined;
  const fail = async (error: Problem) => {
    await files?.close();
    await folder?.close();
    return { ok: false as const, error };
  };
  try {
    folder = await pinDirectory(label, { label });
  } catch (cause) {
    return fail(refusal('backup_unreadable', `the backup folder ${label} ${errnoWords(cause)}`));
  }
  const folderWhy = untrustedBecause(`the backup folder ${label}`, await fs.stat(folder.path));
  if (folderWhy) return fail(refusal('backup_untrusted', folderWhy));
  const read = await readManifest(folder, label);
  if ('problem' in read) return fail(read.problem);
  const filesLabel = path.join(label, BACKUP_FILES_DIR);
  try {
    files = await pinChild(folder, BACKUP_FILES_DIR, { label: filesLabel });
  } catch (cause) {
    return fail(refusal('backup_changed', `${filesLabel} ${errnoWords(cause)}`));
  }
  const filesWhy = untrustedBecause(filesLabel, await fs.stat(files.path));
  if (filesWhy) return fail(refusal('backup_untrusted', filesWhy));
  const { manifest } = read;
  const filesPin = files;
  const pinnedFolder = folder;

  const at = async <T>(relative: string, action: (full: string) => Promise<T>): Promise<T> => {
    const parent = await pinRelative(filesPin, parentOf(relative));
    try {
      return await action(childPath(parent, path.posix.basename(relative)));
    } finally {
      await parent.close();
    }
  };

  const seenEach = async (relatives: readonly string[]): Promise<(FingerprintEntry | undefined)[]> => {
    const byFolder = new Map<string, number[]>();
    relatives.forEach((relative, index) => {
      const folder = parentOf(relative);
      const indexes = byFolder.get(folder);
      if (indexes) indexes.push(index);
      else byFolder.set(folder, [index]);
    });
    const seen = new Array<FingerprintEntry | undefined>(relatives.length);
    for (const [folder, indexes] of byFolder) {
      const parent = await pinRelative(filesPin, folder).catch(() => undefined);
      if (!parent) continue;
      try {
        for (const index of indexes) {
          const relative = relatives[index]!;
          seen[index] = await lstatEntry(childPath(parent, path.posix.basename(relative)), '').catch(() => undefined);
        }
      } finally {
        await parent.close();
      }
    }
    return seen;
  };

  return {
    ok: true,
    backup: {
      manifest,
      at,
      seenEach,
      async unreachable(relative) {
        try {
          const seen = await at(relative, (full) => lstatEntry(full, ''));
          return seen.type === 'missing' ? 'is missing' : undefined;
        } catch (cause) {
          return errnoWords(cause);
        }
      },
      strays: () => straysIn(filesPin, manifest),
      async close() {
        await filesPin.close();
        await pinnedFolder.close();
      },
    },
  };
}

/** How many strays are named in a refusal: enough to see what was planted, never a flood. */
const STRAYS_NAMED = 5;

/**
 * The paths below files/ that no kept entry accounts for: neither an entry, nor a folder on the way
 * to one, nor (for a backup made by rename) below a folder moved whole. Walked through pinned
 * folders; a link is listed, never entered.
 */
async function straysIn(files: PinnedDir, manifest: BackupManifest): Promise<string[]> {
  const kept = new Map<string, BackupEntry>(
    manifest.entries.filter((entry) => entry.kept || entry.pending).map((entry) => [entry.path, entry]),
  );
  const onTheWay = new Set<string>();
  for (const entry of kept.values()) {
    const parts = entry.path.split('/');
    for (let index = 1; index < parts.length; index++) onTheWay.add(parts.slice(0, index).join('/'));
  }
  const strays: string[] = [];
  const walk = async (folder: PinnedDir, relative: string): Promise<void> => {
    for (const dirent of await fs.readdir(folder.path, { withFileTypes: true })) {
      if (strays.length >= STRAYS_NAMED) return;
      const child = relative === '' ? dirent.name : `${relative}/${dirent.name}`;
      const entry = kept.get(child);
      const isFolder = dirent.isDirectory();
      // A folder moved whole holds what it held: its inode is the check, not a listing of it.
      if (entry && (manifest.method === 'rename' || !isFolder)) continue;
      if (!entry && !(onTheWay.has(child) && isFolder)) {
        strays.push(child);
        continue;
      }
      const next = await pinChild(folder, dirent.name, { label: `"${child}"` });
      try {
        await walk(next, child);
      } finally {
        await next.close();
      }
    }
  };
  await walk(files, '');
  return strays;
}
