// Discard staging with a backup kept: each interrupted apply's staging folder moved whole into the
// backup (the same inode, links moved as links, never followed), settled with the state it left
// in place; a backup that cannot be made stops the discard before anything is removed.

import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { applyPlan } from '../replace/applyPlan';
import { snapshotTree, writeInterruptedStaging } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import {
  discardPlanOf,
  publishedDestination,
  reportsInterrupted,
  snapshotWithoutStaging,
  type Published,
} from '../testing/recoveryFixtures';
import { readBackup } from './backupStore';
import { backupWriter } from './backupWriter';

let fixture: Published;
let dest: string;

beforeEach(async () => {
  fixture = await publishedDestination(await tempDirForTest('discard-backup-'));
  dest = fixture.dest;
});

describe('discard staging with a backup', () => {
  const backups = () => path.join(fixture.root, 'backups', 'archive');

  it('moves the staging folder whole into the backup by rename (the same inode), deleting nothing, and settles it with the state it left', async () => {
    const staging = await writeInterruptedStaging(dest, { 'report.html': 'half' });
    const inode = (await fs.lstat(staging)).ino;
    const markerBytes = (await fs.lstat(path.join(staging, 'staging.json'))).size;
    const plan = await discardPlanOf(dest);
    const before = await snapshotWithoutStaging(dest);
    const writer = backupWriter({ destinationFolder: backups(), action: plan.mode });
    const result = await applyPlan(plan, { backup: writer });
    expect(result.error).toBeUndefined();
    expect(result.deleted).toEqual([STAGING_DIR_NAME]);
    const made = writer.made()!;
    expect(made.method).toBe('rename');
    expect((await fs.lstat(path.join(made.folder, 'files', STAGING_DIR_NAME))).ino).toBe(inode);
    expect(await fs.readFile(path.join(made.folder, 'files', STAGING_DIR_NAME, 'files', 'report.html'), 'utf8')).toBe('half');
    const read = await readBackup(made.folder);
    if (!read.ok) throw new Error(read.problem);
    expect(read.manifest).toMatchObject({
      action: 'discard_staging',
      stateSha256: null,
      stateLeft: plan.fingerprint.stateSha256,
      writes: [],
    });
    expect(read.manifest.entries.map((entry) => [entry.path, entry.type, entry.size])).toEqual([
      [STAGING_DIR_NAME, 'directory', markerBytes + 4],
    ]);
    expect(await reportsInterrupted(dest)).toBe(false);
    expect(await snapshotWithoutStaging(dest)).toBe(before);
  });

  it('moves a link inside the staging folder as a link, never following it out of the tree', async () => {
    const staging = await writeInterruptedStaging(dest);
    await fs.symlink(fixture.outside, path.join(staging, 'files', 'escape'));
    await fs.symlink(path.join(fixture.outside, 'canary.txt'), path.join(staging, 'trash'));
    const outsideBefore = await snapshotTree(fixture.outside);
    const writer = backupWriter({ destinationFolder: backups(), action: 'discard_staging' });
    const result = await applyPlan(await discardPlanOf(dest), { backup: writer });
    expect(result.error).toBeUndefined();
    const kept = path.join(writer.made()!.folder, 'files', STAGING_DIR_NAME);
    expect(await fs.readlink(path.join(kept, 'files', 'escape'))).toBe(fixture.outside);
    expect(await fs.readlink(path.join(kept, 'trash'))).toBe(path.join(fixture.outside, 'canary.txt'));
    expect(await snapshotTree(fixture.outside)).toBe(outsideBefore);
  });

  it('stops before anything is removed when the backup cannot be made, and says so', async () => {
    await writeInterruptedStaging(dest);
    const before = await snapshotTree(dest);
    // A file where the backups' folder goes: mkdir fails (ENOTDIR/EEXIST), as a full or read-only disk would.
    await fs.mkdir(path.join(fixture.root, 'backups'));
    await fs.writeFile(backups(), 'not a folder');
    const result = await applyPlan(await discardPlanOf(dest), {
      backup: backupWriter({ destinationFolder: path.join(backups(), 'inside'), action: 'discard_staging' }),
    });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('backup_failed');
    expect(result.error?.message).toMatch(/stopped before anything was deleted/);
    expect(result.changed).toBe(false);
    expect(result.stagingLeft).toBe(true);
    expect(await snapshotTree(dest)).toBe(before);
    expect(await reportsInterrupted(dest)).toBe(true);
  });

  it('keeps none without a backup step (backups off): the folder is removed for good', async () => {
    await writeInterruptedStaging(dest);
    const result = await applyPlan(await discardPlanOf(dest));
    expect(result.ok).toBe(true);
    expect(result.backup).toBeUndefined();
    expect(await fs.readdir(fixture.root)).not.toContain('backups');
  });
});

describe('discard staging with a backup on another file system', () => {
  const canMount = process.platform === 'linux' && process.getuid?.() === 0;
  const mountIt = canMount ? it : it.skip;
  if (!canMount) console.warn('discardBackup.test.ts: the tmpfs tests need root to mount; skipped');
  const mounted: string[] = [];
  afterEach(() => {
    for (const point of mounted.splice(0).reverse()) execFileSync('umount', [point]);
  });
  async function tmpfs(name: string, options: string): Promise<string> {
    const point = path.join(fixture.root, name);
    await fs.mkdir(point);
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', point], { stdio: 'pipe' });
    mounted.push(point);
    return point;
  }

  mountIt('copies every entry (links as links), verified by sha256, then removes the folder as before', async () => {
    const staging = await writeInterruptedStaging(dest, { 'report.html': 'half' });
    await fs.symlink(fixture.outside, path.join(staging, 'files', 'escape'));
    const writer = backupWriter({ destinationFolder: path.join(await tmpfs('other', 'size=4m'), 'archive'), action: 'discard_staging' });
    const result = await applyPlan(await discardPlanOf(dest), { backup: writer });
    expect(result.error).toBeUndefined();
    const made = writer.made()!;
    expect(made.method).toBe('copy');
    const read = await readBackup(made.folder);
    if (!read.ok) throw new Error(read.problem);
    expect(read.manifest.entries.find((entry) => entry.path === `${STAGING_DIR_NAME}/files/report.html`)?.sha256).toMatch(/^sha256:/);
    expect(read.manifest.entries.find((entry) => entry.path === STAGING_DIR_NAME)?.mode).toBe(0o700);
    expect(await fs.readlink(path.join(made.folder, 'files', STAGING_DIR_NAME, 'files', 'escape'))).toBe(fixture.outside);
    expect(await fs.readdir(dest)).not.toContain(STAGING_DIR_NAME);
  });

  mountIt('stops before anything is removed when the backup folder is full (ENOSPC), and says so', async () => {
    await writeInterruptedStaging(dest, { 'report.html': 'x'.repeat(64 * 1024) });
    const before = await snapshotTree(dest);
    const full = await tmpfs('full', 'size=16k');
    const result = await applyPlan(await discardPlanOf(dest), {
      backup: backupWriter({ destinationFolder: path.join(full, 'archive'), action: 'discard_staging' }),
    });
    expect(result.error?.code).toBe('backup_failed');
    expect(result.error?.message).toMatch(/ENOSPC.*stopped before anything was deleted/);
    expect(result.changed).toBe(false);
    expect(await snapshotTree(dest)).toBe(before);
    // The half-made backup is taken back out; only the destination's (empty) folder of backups stays.
    expect(await fs.readdir(path.join(full, 'archive'))).toEqual([]);
  });
});
