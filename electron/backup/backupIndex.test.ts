// The prune's index over real temp folders: a second prune takes the kept backups' summaries from it
// unread, and decides exactly as one that reads every manifest: a manifest rewritten, made unreadable
// or left pending since it was indexed is read again, and a torn or foreign index is ignored.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { BACKUP_MANIFEST_NAME, type BackupSettings } from '../../shared/backupSchema';
import { dayBackupId, dayBackupManifest } from '../testing/backupFixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { BACKUP_INDEX_NAME, indexedBackup, manifestIdentity, readBackupIndex } from './backupIndex';
import { pruneBackups, readBackup } from './backupStore';
import { manifestText } from './backupWriter';

let root: string;
let folder: string;
beforeEach(async () => {
  root = await tempDirForTest('backup-index-');
  folder = path.join(root, 'backups', 'site');
  await fs.mkdir(folder, { recursive: true });
});

const settings = (keep: number): BackupSettings => ({ enabled: true, folder: path.join(root, 'backups'), keep });

/** A settled backup (one file kept), or one whose entry is still pending (an apply killed mid-way that moved nothing). */
async function writeBackup(n: number, options: { pending?: boolean } = {}): Promise<string> {
  const id = dayBackupId(n);
  const manifest = dayBackupManifest(
    n,
    [
      {
        path: 'a.html',
        type: 'file',
        size: 3,
        mtimeNs: '1',
        ino: '1',
        kept: !options.pending,
        ...(options.pending ? { pending: true } : {}),
      },
    ],
    options,
  );
  await fs.mkdir(path.join(folder, id, 'files'), { recursive: true });
  await fs.writeFile(path.join(folder, id, BACKUP_MANIFEST_NAME), manifestText(manifest));
  return id;
}

const removedIds = async (keep: number) => (await pruneBackups(settings(keep), folder)).removed.map((summary) => summary.id);
const standing = async () => (await fs.readdir(folder)).filter((name) => name !== BACKUP_INDEX_NAME).sort();

describe('the backups index of a prune', () => {
  it('takes the summaries of kept backups whose manifests are unchanged from the index, as read', async () => {
    for (const n of [1, 2, 3]) await writeBackup(n);
    expect(await removedIds(5)).toEqual([]); // nothing removed; the index written
    const index = await readBackupIndex(folder);
    expect([...index.keys()].sort()).toEqual([dayBackupId(1), dayBackupId(2), dayBackupId(3)]);
    expect(indexedBackup(index, folder, dayBackupId(2))).toEqual({
      id: dayBackupId(2),
      folder: path.join(folder, dayBackupId(2)),
      destination: { id: 'site', path: '/srv/site' },
      action: 'replace',
      createdAt: '2026-06-02T12:00:00Z',
      method: 'rename',
      sizeBytes: 3,
      entryCount: 1,
      outcome: 'applied',
    });
  });

  it('reads a manifest rewritten since it was indexed: made unreadable, it no longer counts among the newest kept', async () => {
    for (const n of [1, 2, 3]) await writeBackup(n);
    expect(await removedIds(3)).toEqual([]);
    await fs.writeFile(path.join(folder, dayBackupId(3), BACKUP_MANIFEST_NAME), '{ torn');
    expect(indexedBackup(await readBackupIndex(folder), folder, dayBackupId(3))).toBeUndefined();
    // Read, the newest is unfinished (young: left alone), so the two before it are the two kept.
    expect(await removedIds(2)).toEqual([]);
    expect(await standing()).toEqual([dayBackupId(1), dayBackupId(2), dayBackupId(3)]);
  });

  it('never indexes a backup with entries still pending, so its held count is looked at every time', async () => {
    await writeBackup(1);
    await writeBackup(2, { pending: true });
    expect(await removedIds(5)).toEqual([]);
    expect([...(await readBackupIndex(folder)).keys()]).toEqual([dayBackupId(1)]);
  });

  it('decides as a prune that reads every manifest, whatever the index says', async () => {
    for (const n of [1, 2, 3, 4]) await writeBackup(n);
    expect(await removedIds(4)).toEqual([]);
    // A foreign hand swaps in an index that vouches for summaries it never read: its identities do not match.
    const forged = { kind: 'distributor-inspector-backups-index', version: 1, backups: {} as Record<string, unknown> };
    for (const n of [1, 2, 3, 4])
      forged.backups[dayBackupId(n)] = {
        identity: '1:2:3:4:5',
        summary: {
          id: dayBackupId(n),
          action: 'replace',
          createdAt: 'x',
          method: 'rename',
          sizeBytes: 0,
          entryCount: 0,
          destination: { path: '/' },
        },
      };
    await fs.writeFile(path.join(folder, BACKUP_INDEX_NAME), JSON.stringify(forged));
    await fs.writeFile(path.join(folder, dayBackupId(4), BACKUP_MANIFEST_NAME), 'not json');
    expect(await removedIds(2)).toEqual([dayBackupId(1)]);
    expect(await standing()).toEqual([dayBackupId(2), dayBackupId(3), dayBackupId(4)]);
  });

  it('ignores a torn index and writes a whole one again', async () => {
    for (const n of [1, 2, 3]) await writeBackup(n);
    await fs.writeFile(path.join(folder, BACKUP_INDEX_NAME), '{"kind":"distributor-inspector-backups-index","backups":');
    expect(await removedIds(2)).toEqual([dayBackupId(1)]);
    expect([...(await readBackupIndex(folder)).keys()].sort()).toEqual([dayBackupId(2), dayBackupId(3)]);
    expect(await removedIds(2)).toEqual([]);
  });

  it('takes the manifest an apply just wrote as read only while its file keeps the identity it was written with', async () => {
    const id = await writeBackup(1);
    const backupFolder = path.join(folder, id);
    const read = await readBackup(backupFolder);
    if (!read.ok) throw new Error(read.problem);
    // Told apart from the bytes on disk by its action: which one the summary shows says which was used.
    const written = { id, manifest: { ...read.manifest, action: 'force' } };
    const indexedAction = async () => (await readBackupIndex(folder)).get(id)?.summary.action;
    await pruneBackups(settings(5), folder, Date.now(), { ...written, identity: '1:2:3:4:5' });
    expect(await indexedAction()).toBe('replace');
    await fs.rm(path.join(folder, BACKUP_INDEX_NAME));
    await pruneBackups(settings(5), folder, Date.now(), { ...written, identity: manifestIdentity(backupFolder)! });
    expect(await indexedAction()).toBe('force');
  });

  it('ignores an index another user could have written, and one reached through a link', async () => {
    for (const n of [1, 2]) await writeBackup(n);
    await pruneBackups(settings(5), folder);
    const file = path.join(folder, BACKUP_INDEX_NAME);
    await fs.chmod(file, 0o666);
    expect((await readBackupIndex(folder)).size).toBe(0);
    await fs.chmod(file, 0o600);
    await fs.rename(file, path.join(root, 'elsewhere.json'));
    await fs.symlink(path.join(root, 'elsewhere.json'), file);
    expect((await readBackupIndex(folder)).size).toBe(0);
    await fs.rm(file);
    await fs.rename(path.join(root, 'elsewhere.json'), file);
    expect((await readBackupIndex(folder)).size).toBe(2);
  });
});
