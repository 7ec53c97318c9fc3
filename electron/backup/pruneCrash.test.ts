// A prune killed (SIGKILL, in a child) before each of its mutations never leaves a backup that holds
// less than its manifest says: the backup it prunes leaves the kept set by one rename first, so a
// list and a restore see it whole or not at all, and the next prune finishes what the killed one
// left. Real temp folders.

import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_FILES_DIR, BACKUP_MANIFEST_NAME, type BackupManifest, type BackupSettings } from '../../shared/backupSchema';
import { dayBackupId, dayBackupManifest } from '../testing/backupFixtures';
import { lstatEntry } from '../replace/fingerprint';
import { bundleForNode } from '../testing/nodeBundle';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { BACKUP_INDEX_NAME } from './backupIndex';
import { listBackups, pruneBackups, PRUNING_PREFIX, readBackup } from './backupStore';
import { manifestText } from './backupWriter';

const run = promisify(execFile);
let workDir: string;
let childScript: string;
beforeAll(async () => {
  workDir = await makeTempDir('prune-crash-work-');
  await fs.writeFile(path.join(workDir, 'package.json'), '{"type": "module"}\n');
  childScript = await bundleForNode(
    path.join(import.meta.dirname, '../testing/pruneCrashChild.ts'),
    path.join(workDir, 'pruneCrashChild.mjs'),
  );
});
afterAll(async () => removeTempDir(workDir));

const FILES = 6;

/** A settled backup by rename holding FILES files in two folders, its manifest naming each by inode. */
async function writeBackup(folder: string, n: number): Promise<void> {
  const id = dayBackupId(n);
  const entries: BackupManifest['entries'] = [];
  for (let i = 0; i < FILES; i++) {
    const relative = `pages/${i % 2}/p${i}.html`;
    const full = path.join(folder, id, BACKUP_FILES_DIR, relative);
    await fs.mkdir(path.dirname(full), { recursive: true });
    await fs.writeFile(full, `backup ${n} page ${i}`);
    const stat = await fs.lstat(full, { bigint: true });
    entries.push({
      path: relative,
      type: 'file',
      size: Number(stat.size),
      mtimeNs: String(stat.mtimeNs),
      ino: String(stat.ino),
      kept: true,
    });
  }
  const manifest = dayBackupManifest(n, entries);
  await fs.writeFile(path.join(folder, id, BACKUP_MANIFEST_NAME), manifestText(manifest));
}

/** Every listed backup holds each entry its manifest marks kept (the same inode); returns the ids listed. */
async function listedAndWhole(settings: BackupSettings, folder: string, label: string): Promise<string[]> {
  const listed = await listBackups(settings, folder);
  for (const summary of listed) {
    expect(summary.problem, `${label}: ${summary.id}`).toBeUndefined();
    const read = await readBackup(summary.folder);
    if (!read.ok) throw new Error(`${label}: ${read.problem}`);
    for (const entry of read.manifest.entries.filter((each) => each.kept)) {
      const seen = await lstatEntry(path.join(summary.folder, BACKUP_FILES_DIR), entry.path);
      expect(seen.type === entry.type && seen.ino === entry.ino, `${label}: ${summary.id} "${entry.path}" is marked kept`).toBe(true);
    }
  }
  return listed.map((summary) => summary.id);
}

describe('a prune killed before each of its mutations', () => {
  it('leaves the pruned backup whole in the list or out of it, and the next prune finishes it', async () => {
    let completed = false;
    for (let killBefore = 1; !completed; killBefore++) {
      expect(killBefore, 'a prune of one small backup ran to its end').toBeLessThan(100);
      const root = await tempDirForTest('prune-crash-');
      const folder = path.join(root, 'backups', 'site');
      const settings: BackupSettings = { enabled: true, folder: path.join(root, 'backups'), keep: 2 };
      for (const n of [1, 2, 3]) await writeBackup(folder, n);
      const label = `killed before mutation ${killBefore}`;
      try {
        const { stdout } = await run(process.execPath, [childScript, JSON.stringify(settings), folder, String(killBefore)]);
        completed = true;
        expect(Number(stdout), 'the run that completed made one mutation fewer than its kill point').toBe(killBefore - 1);
      } catch (cause) {
        if ((cause as { signal?: string }).signal !== 'SIGKILL') throw cause;
      }
      const listed = await listedAndWhole(settings, folder, label);
      expect(
        [
          [dayBackupId(3), dayBackupId(2), dayBackupId(1)],
          [dayBackupId(3), dayBackupId(2)],
        ],
        label,
      ).toContainEqual(listed);
      await pruneBackups(settings, folder);
      expect(await listedAndWhole(settings, folder, `${label}, pruned again`)).toEqual([dayBackupId(3), dayBackupId(2)]);
      // The index (a cache, written by rename) may have left its temporary file: not a backup.
      const names = (await fs.readdir(folder)).filter((name) => !name.startsWith(BACKUP_INDEX_NAME)).sort();
      expect(names, label).toEqual([dayBackupId(2), dayBackupId(3)]);
    }
  }, 120_000);
});

describe('a backup being pruned', () => {
  it('is moved aside by one rename before its files go, named so no list or prune counts it', async () => {
    const root = await tempDirForTest('prune-aside-');
    const folder = path.join(root, 'backups', 'site');
    const settings: BackupSettings = { enabled: true, folder: path.join(root, 'backups'), keep: 1 };
    for (const n of [1, 2]) await writeBackup(folder, n);
    // A prune killed mid-way left this: a partly removed backup, aside.
    await writeBackup(folder, 3);
    await fs.rename(path.join(folder, dayBackupId(3)), path.join(folder, `${PRUNING_PREFIX}${dayBackupId(3)}`));
    await fs.rm(path.join(folder, `${PRUNING_PREFIX}${dayBackupId(3)}`, BACKUP_FILES_DIR, 'pages/0'), { recursive: true });
    expect(await listedAndWhole(settings, folder, 'with one aside')).toEqual([dayBackupId(2), dayBackupId(1)]);
    const pruned = await pruneBackups(settings, folder);
    expect(pruned.removed.map((summary) => summary.id)).toEqual([dayBackupId(1)]);
    expect((await fs.readdir(folder)).filter((name) => name !== BACKUP_INDEX_NAME)).toEqual([dayBackupId(2)]);
  });
});
