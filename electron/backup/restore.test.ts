// Restore: a replace, forced replace, repair or discard of staging undone puts the destination back exactly as it was (the same
// bytes, the same state, the same tree), by rename or from a copy on another file system; refused
// when the destination changed since the apply; a second restore has nothing left to do.

import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ReplaceMode } from '../../shared/plan';
import { updateBackup } from './backupStore';
import { applyWithBackup, discardedWithBackup, replacedWithBackup } from '../testing/backupFixtures';
import { planReplace } from '../replace/planReplace';
import { publishedDestination, repairPlanOf } from '../testing/recoveryFixtures';
import { snapshotTree, writeBundle, writeInterruptedStaging, writeManagedDestination } from '../testing/fixtures';
import { tempDirWithMounts } from '../testing/mountProbe';
import { applyRestore } from './applyRestore';
import { planRestore } from './planRestore';

let root: string;
let mounted: string[];
beforeEach(async () => {
  ({ dir: root, mounted } = await tempDirWithMounts('restore-'));
});

const canMount = process.platform === 'linux' && process.getuid?.() === 0;
const mountIt = canMount ? it : it.skip;
if (!canMount) console.warn('restore.test.ts: the copy (another file system) tests need root to mount a tmpfs; skipped');

const replaced = (mode: ReplaceMode, backups?: string) => replacedWithBackup(root, mode, backups);

async function restore(folder: string, dest: string) {
  const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
  if (!planned.ok) throw new Error(`${planned.error.code}: ${planned.error.message}`);
  return { plan: planned.value, result: await applyRestore(planned.value) };
}

describe.each(['replace', 'force'] as const)('restoring the backup of a %s', (mode) => {
  it('puts the destination back exactly as it was, then has nothing left to do', async () => {
    const { dest, before, folder } = await replaced(mode);
    expect(await snapshotTree(dest)).not.toBe(before);
    const { plan, result } = await restore(folder, dest);
    expect(result.error).toBeUndefined();
    expect(result.stateRestored).toBe(true);
    expect(plan.puts.at(-1)?.path).toBe('.distributor.json');
    expect(await snapshotTree(dest)).toBe(before);
    const again = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(again.ok && again.value.summary).toEqual({ removeCount: 0, putCount: 0, putBytes: 0 });
  });

  it('is refused when an output the apply wrote was edited since', async () => {
    const { dest, folder } = await replaced(mode);
    await fs.writeFile(path.join(dest, 'b.txt'), 'edited by hand');
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error).toMatchObject({ code: 'destination_changed', details: { path: 'b.txt' } });
  });

  it('is refused when the state is not the one the apply wrote', async () => {
    const { dest, folder } = await replaced(mode);
    const state = JSON.parse(await fs.readFile(path.join(dest, '.distributor.json'), 'utf8'));
    await fs.writeFile(path.join(dest, '.distributor.json'), JSON.stringify({ ...state, published_at: '2026-07-01T00:00:00Z' }));
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error.code).toBe('destination_changed');
  });

  it('is refused at apply when the destination changed after the restore was planned', async () => {
    const { dest, folder } = await replaced(mode);
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    if (!planned.ok) throw new Error(planned.error.message);
    await fs.writeFile(path.join(dest, 'late.txt'), 'late');
    const result = await applyRestore(planned.value);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.changed).toBe(false);
  });
});

describe('restoring a forced replace', () => {
  it('is refused when a file was added after it, naming the file', async () => {
    const { dest, folder } = await replaced('force');
    await fs.writeFile(path.join(dest, 'added.txt'), 'new');
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error).toMatchObject({ code: 'destination_changed', details: { path: 'added.txt' } });
  });

  it('is refused when the backup was tampered with', async () => {
    const { dest, folder } = await replaced('force');
    await fs.rm(path.join(folder, 'files', 'notes.txt'));
    await fs.writeFile(path.join(folder, 'files', 'notes.txt'), 'swapped');
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error).toMatchObject({ code: 'backup_changed', details: { path: 'notes.txt' } });
  });
});

describe('restoring a normal replace', () => {
  it('keeps an extra file added since, and refuses one added where an old output goes back', async () => {
    const { dest, folder } = await replaced('replace');
    await fs.writeFile(path.join(dest, 'later.txt'), 'later');
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(planned.ok).toBe(true);
    await fs.mkdir(path.join(dest, 'old'));
    await fs.writeFile(path.join(dest, 'old', 'gone.html'), 'squatter');
    const refused = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!refused.ok && refused.error).toMatchObject({ code: 'target_exists', details: { path: 'old/gone.html' } });
  });
});

/** A published destination drifted in every way a repair removes something (an edit, a link, an empty folder), repaired with a backup. */
async function repairedWithBackup(backups = path.join(root, 'backups', 'archive')) {
  const { dest, source } = await publishedDestination(root);
  await fs.writeFile(path.join(dest, 'report.html'), '<p>edited by hand</p>');
  await fs.rm(path.join(dest, 'data.csv'));
  await fs.mkdir(path.join(dest, 'data.csv'));
  await fs.rm(path.join(dest, 'pages', 'deep', 'b.txt'));
  await fs.symlink('../a.html', path.join(dest, 'pages', 'deep', 'b.txt'));
  await fs.writeFile(path.join(dest, 'notes.txt'), 'operator notes');
  const before = await snapshotTree(dest);
  const plan = await repairPlanOf(dest, source);
  const { folder, method } = await applyWithBackup(plan, backups);
  return { dest, before, folder, method };
}

describe('restoring the backup of a repair', () => {
  it('puts back the edited file, the link and the empty folder that stood where outputs go, and keeps the state', async () => {
    const { dest, before, folder, method } = await repairedWithBackup();
    expect(method).toBe('rename');
    expect((await fs.lstat(path.join(dest, 'data.csv'))).isFile()).toBe(true);
    const { result } = await restore(folder, dest);
    expect(result.error).toBeUndefined();
    expect(await snapshotTree(dest)).toBe(before);
    expect((await fs.lstat(path.join(dest, 'data.csv'))).isDirectory()).toBe(true);
  });

  mountIt('puts them back from a copy on another file system', async () => {
    const other = path.join(root, 'other');
    await fs.mkdir(other);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', other], { stdio: 'pipe' });
    mounted.push(other);
    const { dest, before, folder, method } = await repairedWithBackup(path.join(other, 'archive'));
    expect(method).toBe('copy');
    const { result } = await restore(folder, dest);
    expect(result.error).toBeUndefined();
    expect(await snapshotTree(dest)).toBe(before);
  });
});

describe('restoring from a copy whose bytes changed after the restore was planned', () => {
  mountIt('stops with backup_changed when it checks the copies again, before anything is written or removed', async () => {
    const other = path.join(root, 'other');
    await fs.mkdir(other);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', other], { stdio: 'pipe' });
    mounted.push(other);
    const { dest, folder, method } = await repairedWithBackup(path.join(other, 'archive'));
    expect(method).toBe('copy');
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    if (!planned.ok) throw new Error(planned.error.message);
    const put = planned.value.puts.find((entry) => entry.type === 'file')!;
    const kept = path.join(folder, 'files', ...put.path.split('/'));
    // The same size, other bytes: only the hash tells.
    await fs.writeFile(kept, Buffer.from((await fs.readFile(kept)).map((byte) => byte ^ 1)));
    const before = await snapshotTree(dest);
    const result = await applyRestore(planned.value);
    expect(result.error).toMatchObject({ code: 'backup_changed' });
    expect(result.changed).toBe(false);
    expect(await snapshotTree(dest)).toBe(before);
  });
});

/**
 * A published destination whose `pages/` the operator emptied by hand (its one file and its folder
 * `deep/` gone; its own mode 0750), repaired with a backup: the repair writes both files back and
 * makes `pages/deep` again. What it was before (an empty `pages/`), and the backup.
 */
async function repairedIntoEmptyFolder(backups = path.join(root, 'backups', 'archive')) {
  const { dest, source } = await publishedDestination(root);
  await fs.rm(path.join(dest, 'pages', 'a.html'));
  await fs.rm(path.join(dest, 'pages', 'deep'), { recursive: true });
  await fs.chmod(path.join(dest, 'pages'), 0o750);
  // Something to remove too: a repair that only writes keeps no backup (nothing was removed).
  await fs.writeFile(path.join(dest, 'report.html'), '<p>edited by hand</p>');
  const before = await snapshotTree(dest);
  const plan = await repairPlanOf(dest, source);
  const { result, folder, method } = await applyWithBackup(plan, backups);
  expect(result.written).toEqual(expect.arrayContaining(['pages/a.html', 'pages/deep/b.txt']));
  return { dest, before, folder, method };
}

describe('restoring the backup of an apply that wrote into a folder that was there before', () => {
  it('puts back the empty folder a repair wrote its outputs into, removing only the folder the repair made', async () => {
    const { dest, before, folder } = await repairedIntoEmptyFolder();
    const manifest = JSON.parse(await fs.readFile(path.join(folder, 'backup.json'), 'utf8'));
    expect(manifest.foldersLeft).toEqual(['pages']);
    const { plan, result } = await restore(folder, dest);
    expect(result.error).toBeUndefined();
    expect(plan.removes.map((entry) => entry.path).sort()).toEqual(['pages/a.html', 'pages/deep', 'pages/deep/b.txt', 'report.html']);
    expect(await snapshotTree(dest)).toBe(before);
    expect(await fs.readdir(path.join(dest, 'pages'))).toEqual([]);
  });

  mountIt('puts it back from a copied backup too (another file system)', async () => {
    const other = path.join(root, 'other');
    await fs.mkdir(other);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', other], { stdio: 'pipe' });
    mounted.push(other);
    const { dest, before, folder, method } = await repairedIntoEmptyFolder(path.join(other, 'archive'));
    expect(method).toBe('copy');
    const { result } = await restore(folder, dest);
    expect(result.error).toBeUndefined();
    expect(await snapshotTree(dest)).toBe(before);
  });

  it.each(['replace', 'force'] as const)(
    'after a %s into an empty folder: the folder is back as it was (a forced replace moved it out, so its own comes back)',
    async (mode) => {
      const dest = path.join(root, 'dest');
      const old = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
      await writeManagedDestination(dest, { manifest: old, outputs: { 'report.html': 'old report' } });
      await fs.mkdir(path.join(dest, 'pages'));
      await fs.chmod(path.join(dest, 'pages'), 0o750);
      await writeBundle(
        path.join(root, 'source'),
        { 'report.md': '# New', 'pages/a.md': '# A', 'pages/new/b.txt': 'b' },
        { created: '2026-06-05T09:00:00Z' },
      );
      const before = await snapshotTree(dest);
      const planned = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode });
      if (!planned.ok) throw new Error(planned.error.message);
      const made = await applyWithBackup(planned.value, path.join(root, 'backups', 'archive'));
      const manifest = JSON.parse(await fs.readFile(path.join(made.folder, 'backup.json'), 'utf8'));
      // A forced replace moves `pages` out whole: every folder of its outputs is its own.
      expect(manifest.foldersLeft).toEqual(mode === 'replace' ? ['pages'] : []);
      const { result } = await restore(made.folder, dest);
      expect(result.error).toBeUndefined();
      expect(await snapshotTree(dest)).toBe(before);
    },
  );

  it('still restores a backup made before the folders were recorded, the old way: each folder the outputs leave empty goes', async () => {
    const { dest, before, folder } = await repairedIntoEmptyFolder();
    await updateBackup(folder, (manifest) => {
      const { foldersLeft: _recorded, ...older } = manifest;
      return older;
    });
    expect(JSON.parse(await fs.readFile(path.join(folder, 'backup.json'), 'utf8'))).not.toHaveProperty('foldersLeft');
    const { plan, result } = await restore(folder, dest);
    expect(result.error).toBeUndefined();
    expect(plan.removes.map((entry) => entry.path)).toContain('pages');
    const withoutPages = before
      .split('\n')
      .filter((line) => !line.startsWith('pages '))
      .join('\n');
    expect(await snapshotTree(dest)).toBe(withoutPages);
  });
});

describe.each(['replace', 'force'] as const)('restoring a copied backup of a %s (another file system)', (mode) => {
  mountIt('puts the destination back exactly as it was', async () => {
    const other = path.join(root, 'other');
    await fs.mkdir(other);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', other], { stdio: 'pipe' });
    mounted.push(other);
    const { dest, before, folder, method } = await replaced(mode, path.join(other, 'archive'));
    expect(method).toBe('copy');
    const { result } = await restore(folder, dest);
    expect(result.error).toBeUndefined();
    expect(await snapshotTree(dest)).toBe(before);
    expect((await fs.readdir(dest)).some((name) => name.startsWith('.distributor-staging'))).toBe(false);
  });
});

describe('restoring the backup of a discard of staging', () => {
  it('puts the staging folder back byte for byte (its link still a link), leaving the rest as it is', async () => {
    const { dest, before, folder, method, outside } = await discardedWithBackup(root);
    expect(method).toBe('rename');
    expect(await fs.readdir(dest)).not.toContain('.distributor-staging');
    const outsideBefore = await snapshotTree(outside);
    const { plan, result } = await restore(folder, dest);
    expect(result.error).toBeUndefined();
    expect(plan.removeStaging).toEqual([]);
    expect(plan.removes).toEqual([]);
    expect(plan.puts.map((entry) => entry.path)).toEqual(['.distributor-staging']);
    expect(await snapshotTree(dest)).toBe(before);
    expect(await fs.readlink(path.join(dest, '.distributor-staging', 'files', 'escape'))).toBe(outside);
    expect(await snapshotTree(outside)).toBe(outsideBefore);
    const again = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(again.ok && again.value.summary).toEqual({ removeCount: 0, putCount: 0, putBytes: 0 });
  });

  it('is refused when another staging folder stands where it goes back: never overwritten, never merged', async () => {
    const { dest, folder } = await discardedWithBackup(root);
    await writeInterruptedStaging(dest, { 'later.html': 'a later interrupted apply' });
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error).toMatchObject({ code: 'target_exists', details: { path: '.distributor-staging' } });
  });

  it('is refused when the state changed since the discard (a publish since)', async () => {
    const { dest, folder } = await discardedWithBackup(root);
    const state = JSON.parse(await fs.readFile(path.join(dest, '.distributor.json'), 'utf8'));
    await fs.rm(path.join(dest, '.distributor.json'));
    await fs.writeFile(path.join(dest, '.distributor.json'), JSON.stringify({ ...state, published_at: '2026-07-01T00:00:00Z' }));
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error).toMatchObject({ code: 'destination_changed', details: { path: '.distributor.json' } });
  });

  it('is refused at apply when the destination changed after the restore was planned (stale plan)', async () => {
    const { dest, folder } = await discardedWithBackup(root);
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    if (!planned.ok) throw new Error(planned.error.message);
    await fs.mkdir(path.join(dest, '.distributor-staging'));
    const result = await applyRestore(planned.value);
    expect(result.error?.code).toBe('stale_plan');
    expect(result.changed).toBe(false);
  });

  mountIt('puts it back from a copy on another file system, the same bytes, links and folder modes', async () => {
    const other = path.join(root, 'other');
    await fs.mkdir(other);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', other], { stdio: 'pipe' });
    mounted.push(other);
    const { dest, before, folder, method } = await discardedWithBackup(root, path.join(other, 'archive'));
    expect(method).toBe('copy');
    expect(await fs.readdir(dest)).not.toContain('.distributor-staging');
    const { plan, result } = await restore(folder, dest);
    expect(result.error).toBeUndefined();
    // The marker goes back right after its folder: a restore killed part-way leaves a marked folder.
    expect(plan.puts.slice(0, 2).map((entry) => entry.path)).toEqual(['.distributor-staging', '.distributor-staging/staging.json']);
    expect(await snapshotTree(dest)).toBe(before);
    expect((await fs.readdir(dest)).filter((name) => name.startsWith('.distributor-staging'))).toEqual(['.distributor-staging']);
  });

  mountIt('is refused from a copy when a later staging folder holds what the backup did not keep: never merged', async () => {
    const other = path.join(root, 'other');
    await fs.mkdir(other);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', other], { stdio: 'pipe' });
    mounted.push(other);
    const { dest, folder } = await discardedWithBackup(root, path.join(other, 'archive'));
    // The same marker bytes as the one kept, so only the file it did not keep tells them apart.
    await writeInterruptedStaging(dest, { 'later.html': 'a later interrupted apply' });
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error).toMatchObject({
      code: 'destination_changed',
      details: { path: '.distributor-staging/files/later.html' },
    });
  });

  mountIt('finishes a copied restore of it when part of the staging folder is already back', async () => {
    const other = path.join(root, 'other');
    await fs.mkdir(other);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', other], { stdio: 'pipe' });
    mounted.push(other);
    const { dest, before, folder } = await discardedWithBackup(root, path.join(other, 'archive'));
    // What a restore killed after its first puts leaves: the folder and its marker, nothing else yet.
    await fs.mkdir(path.join(dest, '.distributor-staging'), { mode: 0o700 });
    await fs.copyFile(
      path.join(folder, 'files', '.distributor-staging', 'staging.json'),
      path.join(dest, '.distributor-staging', 'staging.json'),
    );
    const { plan, result } = await restore(folder, dest);
    expect(plan.alreadyInPlace).toEqual(expect.arrayContaining(['.distributor-staging', '.distributor-staging/staging.json']));
    expect(result.error).toBeUndefined();
    expect(await snapshotTree(dest)).toBe(before);
  });
});
