// Undoing a repair that kept some drifted outputs as they are: the restore puts back exactly what it
// rewrote (and removes the folder it made for one), and never touches the kept output.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyWithBackup } from '../testing/backupFixtures';
import { snapshotTree } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { driftByHand, publishedDestination, type Published } from '../testing/recoveryFixtures';
import { planRepair } from '../replace/planRepair';
import { applyRestore } from './applyRestore';
import { planRestore } from './planRestore';

let fixture: Published;
let dest: string;
const HOTFIX = '<p>hotfix: the figures corrected on the server</p>';

beforeEach(async () => {
  fixture = await publishedDestination(await tempDirForTest('repair-keep-restore-'));
  dest = fixture.dest;
  await driftByHand(dest);
  await fs.writeFile(path.join(dest, 'report.html'), HOTFIX);
});

async function planKeeping(keep: string[]) {
  const outcome = await planRepair({ destinationPath: dest, sourcePath: fixture.source, keep });
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

describe('restoring the backup of a repair that kept an output', () => {
  it('is undone exactly: the restore puts back what it rewrote and leaves the kept hotfix alone', async () => {
    const before = await snapshotTree(dest);
    const { folder } = await applyWithBackup(await planKeeping(['report.html']), path.join(fixture.root, 'backups', 'archive'));
    const restore = await planRestore({ backupFolder: folder, destinationPath: dest });
    if (!restore.ok) throw new Error(restore.error.message);
    // What it wrote (and the folder it made for one), nothing of the kept output.
    expect(restore.value.removes.map((entry) => entry.path).sort()).toEqual(['data.csv', 'pages/deep', 'pages/deep/b.txt']);
    expect(restore.value.puts.map((entry) => entry.path)).not.toContain('report.html');
    const result = await applyRestore(restore.value);
    expect(result.error).toBeUndefined();
    expect(await snapshotTree(dest)).toBe(before);
    expect(await fs.readFile(path.join(dest, 'report.html'), 'utf8')).toBe(HOTFIX);
  });
});
