// A restore never trusts a backup more than its owner: a link planted anywhere in the backup is never
// followed (with real links), an entry path that climbs out is refused by the manifest's schema, a
// backup another user owns or can write is refused with the reason, and a backup that holds more
// than its manifest lists is refused as a whole, before anything moves.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BackupManifest } from '../../shared/backupSchema';
import { replacedWithBackup } from '../testing/backupFixtures';
import { snapshotTree } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { applyRestore } from './applyRestore';
import { planRestore } from './planRestore';

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('restore-trust-');
});

const isRoot = process.getuid?.() === 0;
const asRoot = isRoot ? it : it.skip;
if (!isRoot) console.warn('restoreTrust.test.ts: the tests of a backup owned by another user need root to chown; skipped');

async function editManifest(folder: string, change: (manifest: BackupManifest) => BackupManifest): Promise<void> {
  const file = path.join(folder, 'backup.json');
  const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as BackupManifest;
  await fs.writeFile(file, JSON.stringify(change(manifest), null, 2));
}

/** OUTSIDE/secret.txt: the file a hostile backup tries to make a restore move. */
async function outsideSecret(): Promise<{ outside: string; secret: string }> {
  const outside = path.join(root, 'outside');
  await fs.mkdir(outside);
  const secret = path.join(outside, 'secret.txt');
  await fs.writeFile(secret, 'not yours');
  return { outside, secret };
}

describe('a link planted in a backup', () => {
  it('is never followed: the issue repro (a link in files/ and one added entry) is refused, the outside file stays', async () => {
    const { dest, folder } = await replacedWithBackup(root, 'replace');
    const { outside, secret } = await outsideSecret();
    await fs.symlink(outside, path.join(folder, 'files', 'sub'));
    const seen = await fs.lstat(secret, { bigint: true });
    await editManifest(folder, (manifest) => ({
      ...manifest,
      entries: [
        ...manifest.entries,
        {
          path: 'sub/secret.txt',
          type: 'file',
          size: Number(seen.size),
          mtimeNs: seen.mtimeNs.toString(),
          ino: seen.ino.toString(),
          kept: true,
        },
      ],
    }));
    const before = await snapshotTree(dest);
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error).toMatchObject({ code: 'backup_changed', details: { path: 'sub' } });
    expect(await fs.readFile(secret, 'utf8')).toBe('not yours');
    expect(await snapshotTree(dest)).toBe(before);
  });

  it('is refused at apply when a folder of the backup became a link after the restore was planned: nothing moves', async () => {
    const { dest, folder } = await replacedWithBackup(root, 'replace');
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    if (!planned.ok) throw new Error(planned.error.message);
    expect(planned.value.puts.map((entry) => entry.path)).toContain('pages/a.html');
    // The kept folder moved out of the backup (same inodes) and a link left in its place.
    const outside = path.join(root, 'outside-pages');
    await fs.rename(path.join(folder, 'files', 'pages'), outside);
    await fs.symlink(outside, path.join(folder, 'files', 'pages'));
    const before = await snapshotTree(dest);
    const result = await applyRestore(planned.value);
    expect(result.error?.code).toBe('backup_changed');
    expect(result.changed).toBe(false);
    expect(await fs.readFile(path.join(outside, 'a.html'), 'utf8')).toBe('old a');
    expect(await snapshotTree(dest)).toBe(before);
  });

  it('is refused at files/ itself: the backup folder is read only through its own folders', async () => {
    const { dest, folder } = await replacedWithBackup(root, 'force');
    const moved = path.join(root, 'moved-files');
    await fs.rename(path.join(folder, 'files'), moved);
    await fs.symlink(moved, path.join(folder, 'files'));
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error.code).toBe('backup_changed');
    expect(!planned.ok && planned.error.message).toContain('symbolic link');
    expect((await fs.readdir(moved)).sort()).toContain('notes.txt');
  });
});

describe("a backup's manifest", () => {
  it.each(['../outside/secret.txt', '/etc/passwd', 'a//b', 'pages/../../x'])(
    'refuses the entry path %j by the contract rule',
    async (bad) => {
      const { dest, folder } = await replacedWithBackup(root, 'replace');
      await editManifest(folder, (manifest) => ({
        ...manifest,
        entries: manifest.entries.map((entry, index) => (index === 0 ? { ...entry, path: bad } : entry)),
      }));
      const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
      expect(!planned.ok && planned.error.code).toBe('backup_unreadable');
      expect(!planned.ok && planned.error.message).toMatch(/backup\.json: entries\.0\.path: is not a clean relative path/);
    },
  );

  it('refuses a backup holding a file its manifest does not list, as a whole, before anything moves', async () => {
    const { dest, folder } = await replacedWithBackup(root, 'replace');
    await fs.writeFile(path.join(folder, 'files', 'pages', 'planted.html'), 'planted');
    const before = await snapshotTree(dest);
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error).toMatchObject({ code: 'backup_changed', details: { path: 'pages/planted.html' } });
    expect(await snapshotTree(dest)).toBe(before);
  });
});

describe('a backup someone else controls', () => {
  asRoot('is refused when its folder is owned by another user, with the reason', async () => {
    const { dest, folder } = await replacedWithBackup(root, 'replace');
    await fs.chown(folder, 65534, 65534);
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error.code).toBe('backup_untrusted');
    expect(!planned.ok && planned.error.message).toContain('is owned by uid 65534, not by uid 0');
  });

  asRoot('is refused when backup.json is owned by another user', async () => {
    const { dest, folder } = await replacedWithBackup(root, 'replace');
    await fs.chown(path.join(folder, 'backup.json'), 65534, 65534);
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error).toMatchObject({ code: 'backup_untrusted' });
    expect(!planned.ok && planned.error.message).toContain('backup.json is owned by uid 65534');
  });

  it.each([
    ['the backup folder', '', 0o777, 'writable by every user (mode 0777)'],
    ['backup.json', 'backup.json', 0o666, 'writable by every user (mode 0666)'],
    ['files/', 'files', 0o770, 'writable by its group (mode 0770)'],
  ])('is refused when %s is writable by others', async (_what, relative, mode, words) => {
    const { dest, folder } = await replacedWithBackup(root, 'replace');
    await fs.chmod(path.join(folder, relative), mode);
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    expect(!planned.ok && planned.error.code).toBe('backup_untrusted');
    expect(!planned.ok && planned.error.message).toContain(words);
  });

  it('is refused at apply when backup.json became writable by others after the restore was planned', async () => {
    const { dest, folder } = await replacedWithBackup(root, 'replace');
    const planned = await planRestore({ backupFolder: folder, destinationPath: dest });
    if (!planned.ok) throw new Error(planned.error.message);
    await fs.chmod(path.join(folder, 'backup.json'), 0o646);
    const result = await applyRestore(planned.value);
    expect(result.error?.code).toBe('backup_untrusted');
    expect(result.changed).toBe(false);
  });
});
