// The backup an apply keeps of what it removes (the BackupStep of replace/backupStep.ts): a folder
// `<destination's backups>/<UTC time>/` holding `backup.json` (what is kept, and how to recognise what
// the apply wrote) and `files/…`, the old entries as they were. On the destination's file system the
// apply then moves each entry there by rename (no copy: as fast as deleting); elsewhere every entry is
// copied here first and each copy verified by sha256, and the apply deletes as before. Every mutation
// goes through the apply's FsOps. Never writes inside the destination; never follows a link there
// (files are read no-follow, links copied as links).

import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  BACKUP_FILES_DIR,
  BACKUP_KIND,
  BACKUP_MANIFEST_NAME,
  type BackupEntry,
  type BackupManifest,
  type BackupMethod,
} from '../../shared/backupSchema';
import type { FingerprintEntry } from '../../shared/plan';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { isInsideOrEqual } from '../engine/pathInside';
import { BackupRefused, type BackupPrepareInput, type BackupStep, type PreparedBackup } from '../replace/backupStep';
import { joinRelative, lstatEntry } from '../replace/fingerprint';
import type { FsOps } from '../replace/fsOps';
import { hashRegularFile } from './fileDigest';
import { backupIdAt } from './backupLocation';
import { backupMethodFor, nearestExisting } from './backupMethod';
import { planKindOf } from '../../shared/planKinds';

export interface BackupTarget {
  /** The destination's folder of backups (backupLocation.ts); made (0700) when missing. */
  destinationFolder: string;
  destinationId?: string;
  /** The apply's action as the history names it: replace, force. */
  action: string;
  now?: () => Date;
}

export interface BackupWriter extends BackupStep {
  /** The backup made, once prepare has named it. */
  made(): { id: string; folder: string; method: BackupMethod } | undefined;
}

const ancestorsOf = (relative: string) => {
  const parts = relative.split('/');
  return parts.slice(0, -1).map((_, index) => parts.slice(0, index + 1).join('/'));
};
const isBelow = (relative: string, folder: string) => relative === folder || relative.startsWith(`${folder}/`);

/**
 * The folders of the plan's writes that stand now and that the apply leaves in place (none it deletes
 * or moves out, as a forced replace does every top-level entry): what a restore keeps. Read before the
 * apply makes any folder, never following a link (a link standing for a folder is not one).
 */
async function foldersLeftBy(plan: BackupPrepareInput['plan'], destRealPath: string): Promise<string[]> {
  const left: string[] = [];
  for (const folder of [...new Set(plan.writes.flatMap((write) => ancestorsOf(write.path)))].sort()) {
    if (plan.deletes.some((entry) => isBelow(folder, entry.path))) continue;
    if ((await lstatEntry(destRealPath, folder)).type === 'directory') left.push(folder);
  }
  return left;
}

export function manifestText(manifest: BackupManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
}

/** Makes every missing folder from the nearest existing one down to `folder`, private (0700). */
async function makeFolders(folder: string, fsOps: FsOps): Promise<void> {
  const existing = await nearestExisting(folder);
  const missing: string[] = [];
  for (let at = path.resolve(folder); at !== existing.path; at = path.dirname(at)) missing.unshift(at);
  for (const dir of missing) await fsOps.mkdir(dir, 0o700);
}

/** A name for this backup not yet taken in the destination's folder: its UTC time, `-2`… on a clash. */
async function freeId(destinationFolder: string, now: Date): Promise<string> {
  const base = backupIdAt(now);
  for (let n = 1; n < 10000; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    const taken = await fs.lstat(path.join(destinationFolder, id)).then(
      () => true,
      () => false,
    );
    if (!taken) return id;
  }
  throw new BackupRefused('backup_failed', `${destinationFolder} has no free backup name for ${base}`);
}

/** Copies a file into the backup in chunks (never held whole: a 4 GiB output is kept like a small one), proven by its copy's sha256 read back. */
async function copyFileVerified(from: string, at: string, entry: FingerprintEntry, fsOps: FsOps): Promise<string> {
  const sha256 = await hashRegularFile(from, entry.size, { path: at, fs: fsOps });
  if (sha256 === undefined) throw new BackupRefused('stale_plan', `"${entry.path}" changed while it was being backed up; make a new plan`);
  if ((await hashRegularFile(at, entry.size)) !== sha256)
    throw new BackupRefused('backup_failed', `the backup copy of "${entry.path}" at ${at} does not read back as written`);
  return sha256;
}

export function backupWriter(target: BackupTarget): BackupWriter {
  let made: { id: string; folder: string; method: BackupMethod } | undefined;

  async function copyEntries(input: BackupPrepareInput, filesDir: string, units: FingerprintEntry[]): Promise<BackupEntry[]> {
    const all = input.plan.fingerprint.entries.filter(
      (entry) =>
        entry.path !== '' &&
        entry.type !== 'missing' &&
        units.some((unit) => entry.path === unit.path || entry.path.startsWith(`${unit.path}/`)),
    );
    // A normal replace keeps single files: their folders come first, as folders of the backup only.
    const folders = new Set(units.flatMap((unit) => ancestorsOf(unit.path)));
    for (const folder of [...folders].sort()) await input.fs.mkdir(joinRelative(filesDir, folder), 0o700);
    const entries: BackupEntry[] = [];
    for (const entry of all.sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const type = entry.type as BackupEntry['type'];
      const base = { path: entry.path, type, size: entry.size, mtimeNs: entry.mtimeNs, ino: entry.ino };
      const at = joinRelative(filesDir, entry.path);
      const from = joinRelative(input.destRealPath, entry.path);
      if (type === 'directory') {
        await input.fs.mkdir(at, 0o700);
        // A copy keeps the folder private; its own mode goes back with the restore (a staging folder is 0700).
        const mode = (await fs.lstat(from)).mode & 0o777;
        entries.push({ ...base, size: 0, mode, kept: true });
      } else if (type === 'symlink') {
        const linkTarget = await fs.readlink(from);
        await input.fs.symlink(linkTarget, at);
        entries.push({ ...base, linkTarget, kept: true });
      } else if (type === 'file') {
        entries.push({ ...base, sha256: await copyFileVerified(from, at, entry, input.fs), kept: true });
      } else {
        // A FIFO or a device cannot be copied: listed, so that a restore says what it cannot bring back.
        entries.push({ ...base, kept: false });
      }
    }
    return entries;
  }

  return {
    made: () => made,
    async prepare(input): Promise<PreparedBackup> {
      const { plan, destRealPath } = input;
      // Nothing to remove (a first publish into an empty destination): no backup, and no backupId;
      // but an adopt's backup, which holds nothing, is what its undo removes the state by.
      if (input.units.length === 0 && !planKindOf(plan.mode).writesOnlyState)
        return {
          moves: false,
          folder: target.destinationFolder,
          targetOf: (relative) => {
            throw new Error(`no backup was made, yet "${relative}" was to be moved into one`);
          },
        };
      const folderNear = await nearestExisting(target.destinationFolder);
      const relativeToExisting = path.relative(folderNear.path, path.resolve(target.destinationFolder));
      const realFolder = path.join(folderNear.realPath, relativeToExisting);
      if (isInsideOrEqual(realFolder, destRealPath))
        throw new BackupRefused(
          'backup_inside_destination',
          `the backup folder ${target.destinationFolder} is inside the destination ${plan.destinationPath}; keep backups outside every destination`,
        );
      await makeFolders(target.destinationFolder, input.fs);
      const now = (target.now ?? (() => new Date()))();
      const id = await freeId(target.destinationFolder, now);
      const folder = path.join(target.destinationFolder, id);
      const method = await backupMethodFor(destRealPath, target.destinationFolder);
      await input.fs.mkdir(folder, 0o700);
      made = { id, folder, method };
      const filesDir = path.join(folder, BACKUP_FILES_DIR);
      await input.fs.mkdir(filesDir, 0o700);
      let entries: BackupEntry[];
      if (method === 'rename') {
        // Moved whole: a folder's size is that of the files below it, as the fingerprint saw them.
        entries = input.units.map((unit) => ({
          path: unit.path,
          type: unit.type as BackupEntry['type'],
          size:
            unit.type === 'directory'
              ? plan.fingerprint.entries
                  .filter((entry) => entry.type === 'file' && entry.path.startsWith(`${unit.path}/`))
                  .reduce((sum, entry) => sum + entry.size, 0)
              : unit.size,
          mtimeNs: unit.mtimeNs,
          ino: unit.ino,
          // Not here yet: the apply moves it after this manifest is durable (settled in backupHeld.ts).
          kept: false,
          pending: true,
        }));
        // A folder the apply may move whole (plan.wholeFolders) is not made here: it comes by one
        // rename, onto a free name; if it goes per file after all, the apply makes it then.
        const whole = input.plan.wholeFolders ?? [];
        const folders = new Set(input.units.flatMap((unit) => ancestorsOf(unit.path)));
        for (const relative of [...folders].sort())
          if (!whole.some((folder) => isBelow(relative, folder))) await input.fs.mkdir(joinRelative(filesDir, relative), 0o700);
      } else {
        entries = await copyEntries(input, filesDir, input.units);
      }
      const manifest: BackupManifest = {
        kind: BACKUP_KIND,
        version: 1,
        id,
        action: target.action,
        createdAt: formatRfc3339Utc(now),
        destination: {
          ...(target.destinationId !== undefined ? { id: target.destinationId } : {}),
          path: plan.destinationPath,
          realPath: destRealPath,
        },
        method,
        stagingName: plan.stagingName,
        stateSha256: plan.deletes.some((entry) => entry.path === STATE_FILE_NAME) ? plan.fingerprint.stateSha256 : null,
        // A repair and a discard leave the state where it is: a restore expects to find it unchanged.
        ...(planKindOf(plan.mode).keepsState && plan.fingerprint.stateSha256 !== null ? { stateLeft: plan.fingerprint.stateSha256 } : {}),
        // The folders that were there before: a restore removes only those the apply made.
        foldersLeft: await foldersLeftBy(plan, destRealPath),
        entries,
        writes: plan.writes.map((write) => ({ path: write.path, sha256: write.sha256, size: write.size })),
      };
      // Durable before the first entry moves: a backup is never a folder of files nobody can name.
      await input.fs.writeFile(path.join(folder, BACKUP_MANIFEST_NAME), manifestText(manifest));
      await input.fs.fsyncDir(folder);
      await input.fs.fsyncDir(target.destinationFolder);
      return { moves: method === 'rename', folder, targetOf: (relative) => joinRelative(filesDir, relative) };
    },
    async discard(fsOps) {
      if (!made) return;
      await fsOps.removeTree(made.folder);
      made = undefined;
    },
  };
}
