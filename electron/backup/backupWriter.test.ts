// What an apply keeps: the old state and files moved into a backup by rename on the same file system
// (same inodes, nothing deleted), copied and verified on another one, and a full or read-only backup
// folder stopping the apply before anything in the destination is deleted.

import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ReplaceMode } from '../../shared/plan';
import { applyPlan } from '../replace/applyPlan';
import { planReplace } from '../replace/planReplace';
import { sha256, snapshotTree, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { mountUnavailable, tempDirWithMounts } from '../testing/mountProbe';
import { readBackup } from './backupStore';
import { backupWriter } from './backupWriter';

let root: string;
let mounted: string[];
beforeEach(async () => {
  ({ dir: root, mounted } = await tempDirWithMounts('backup-'));
});

const unavailable = mountUnavailable('tmpfs');
const mountIt = unavailable ? it.skip : it;
if (unavailable) console.warn(`backupWriter.test.ts: tmpfs tests skipped: ${unavailable}`);

async function tmpfs(point: string, options: string): Promise<void> {
  await fs.mkdir(point, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', point], { stdio: 'pipe' });
  mounted.push(point);
}

async function fixture(mode: ReplaceMode) {
  const dest = path.join(root, 'dest');
  const old = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(dest, {
    manifest: old,
    outputs: { 'report.html': 'old report', 'pages/a.html': 'old a' },
    extras: { 'notes.txt': 'operator notes' },
  });
  await fs.symlink('/etc/passwd', path.join(dest, 'link'));
  await writeBundle(path.join(root, 'source'), { 'report.md': '# New', 'b.txt': 'b' }, { created: '2026-06-05T09:00:00Z' });
  const planned = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode });
  if (!planned.ok) throw new Error(planned.error.message);
  return { dest, plan: planned.value, before: await snapshotTree(dest) };
}

const inodeOf = async (file: string) => (await fs.lstat(file)).ino;

describe('an apply with a backup on the same file system', () => {
  it('moves the old state and the recorded outputs of a normal replace into the backup by rename, and keeps the extras in place', async () => {
    const { dest, plan } = await fixture('replace');
    const inode = await inodeOf(path.join(dest, 'pages', 'a.html'));
    const writer = backupWriter({ destinationFolder: path.join(root, 'backups', 'archive'), action: 'replace' });
    const result = await applyPlan(plan, { backup: writer });
    expect(result.error).toBeUndefined();
    const made = writer.made()!;
    expect(made.method).toBe('rename');
    expect(await inodeOf(path.join(made.folder, 'files', 'pages', 'a.html'))).toBe(inode);
    expect(await fs.readFile(path.join(made.folder, 'files', '.distributor.json'), 'utf8')).toContain('"archive"');
    expect(await fs.readFile(path.join(dest, 'notes.txt'), 'utf8')).toBe('operator notes');
    const read = await readBackup(made.folder);
    expect(read.ok && read.manifest.entries.map((entry) => entry.path).sort()).toEqual([
      '.distributor.json',
      'pages/a.html',
      'report.html',
    ]);
  });

  it('moves every entry of a forced replace whole (links as links), deleting nothing', async () => {
    const { dest, plan } = await fixture('force');
    const writer = backupWriter({ destinationFolder: path.join(root, 'backups', 'archive'), action: 'force' });
    const result = await applyPlan(plan, { backup: writer });
    expect(result.error).toBeUndefined();
    const files = path.join(writer.made()!.folder, 'files');
    expect((await fs.readdir(files)).sort()).toEqual(['.distributor.json', 'link', 'notes.txt', 'pages', 'report.html']);
    expect(await fs.readlink(path.join(files, 'link'))).toBe('/etc/passwd');
    expect((await fs.readdir(dest)).sort()).toEqual(['.distributor.json', 'b.txt', 'report.html']);
  });

  it('refuses a backup folder inside the destination before anything is changed', async () => {
    const { dest, plan, before } = await fixture('force');
    const result = await applyPlan(plan, { backup: backupWriter({ destinationFolder: path.join(dest, 'backups'), action: 'force' }) });
    expect(result.error?.code).toBe('backup_inside_destination');
    expect(result.changed).toBe(false);
    expect(await snapshotTree(dest)).toBe(before);
  });
});

describe('an apply with a backup on another file system', () => {
  mountIt('copies every entry of a forced replace, verified by sha256, then deletes as before', async () => {
    const { dest, plan } = await fixture('force');
    await tmpfs(path.join(root, 'other'), 'size=4m');
    const writer = backupWriter({ destinationFolder: path.join(root, 'other', 'archive'), action: 'force' });
    const result = await applyPlan(plan, { backup: writer });
    expect(result.error).toBeUndefined();
    const made = writer.made()!;
    expect(made.method).toBe('copy');
    const read = await readBackup(made.folder);
    if (!read.ok) throw new Error(read.problem);
    expect(read.manifest.entries.find((entry) => entry.path === 'pages/a.html')?.sha256).toMatch(/^sha256:/);
    expect(await fs.readFile(path.join(made.folder, 'files', 'pages', 'a.html'), 'utf8')).toBe('old a');
    expect(await fs.readlink(path.join(made.folder, 'files', 'link'))).toBe('/etc/passwd');
    expect((await fs.readdir(dest)).sort()).toEqual(['.distributor.json', 'b.txt', 'report.html']);
  });

  mountIt('copies a file of several chunks byte for byte, never whole in memory, and records its sha256', async () => {
    const { dest } = await fixture('force');
    const big = Buffer.alloc(2.5 * 1024 * 1024);
    for (let at = 0; at < big.length; at += 4) big.writeUInt32LE(at, at);
    await fs.writeFile(path.join(dest, 'big.bin'), big);
    const planned = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode: 'force' });
    if (!planned.ok) throw new Error(planned.error.message);
    await tmpfs(path.join(root, 'other'), 'size=8m');
    const writer = backupWriter({ destinationFolder: path.join(root, 'other', 'archive'), action: 'force' });
    expect((await applyPlan(planned.value, { backup: writer })).error).toBeUndefined();
    const read = await readBackup(writer.made()!.folder);
    if (!read.ok) throw new Error(read.problem);
    expect(read.manifest.entries.find((entry) => entry.path === 'big.bin')?.sha256).toBe(sha256(big));
    expect((await fs.readFile(path.join(writer.made()!.folder, 'files', 'big.bin'))).equals(big)).toBe(true);
  });

  mountIt('stops before anything is deleted when the backup folder is full (ENOSPC), and says so', async () => {
    const { dest, plan, before } = await fixture('force');
    await tmpfs(path.join(root, 'full'), 'size=4k');
    await fs.writeFile(path.join(root, 'full', 'filler'), Buffer.alloc(4096)).catch(() => undefined);
    const result = await applyPlan(plan, {
      backup: backupWriter({ destinationFolder: path.join(root, 'full', 'archive'), action: 'force' }),
    });
    expect(result.error?.code).toBe('backup_failed');
    expect(result.error?.message).toMatch(/ENOSPC.*stopped before anything was deleted/);
    expect(result.oldTouched).toBe(false);
    expect(result.stagingLeft).toBe(false);
    expect(await snapshotTree(dest)).toBe(before);
  });

  mountIt('stops before anything is deleted when the backup folder is read-only, and says so', async () => {
    const { dest, plan, before } = await fixture('replace');
    await tmpfs(path.join(root, 'ro'), 'size=64k,ro');
    const result = await applyPlan(plan, {
      backup: backupWriter({ destinationFolder: path.join(root, 'ro', 'archive'), action: 'replace' }),
    });
    expect(result.error?.code).toBe('backup_failed');
    expect(result.error?.message).toMatch(/EROFS.*stopped before anything was deleted/);
    expect(await snapshotTree(dest)).toBe(before);
  });
});

describe('a backup folder without write permission', () => {
  const asRoot = process.getuid?.() === 0;
  if (asRoot)
    console.warn(
      'backupWriter.test.ts: the permission test is skipped as root (root ignores the mode); the read-only mount test covers it',
    );
  (asRoot ? it.skip : it)(
    'stops the apply before anything is deleted (root ignores the mode: the read-only mount above covers it)',
    async () => {
      const { dest, plan, before } = await fixture('replace');
      await fs.mkdir(path.join(root, 'locked'), { mode: 0o500 });
      const result = await applyPlan(plan, {
        backup: backupWriter({ destinationFolder: path.join(root, 'locked', 'archive'), action: 'replace' }),
      });
      await fs.chmod(path.join(root, 'locked'), 0o700);
      expect(result.error?.code).toBe('backup_failed');
      expect(result.error?.message).toMatch(/EACCES/);
      expect(await snapshotTree(dest)).toBe(before);
    },
  );
});
