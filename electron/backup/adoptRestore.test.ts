import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { planAdopt } from '../replace/planAdopt';
import { applyWithBackup } from '../testing/backupFixtures';
import { snapshotTree } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { publishedDestination, type Published } from '../testing/recoveryFixtures';
import { applyRestore } from './applyRestore';
import { planRestore } from './planRestore';

let fixture: Published;
let dest: string;

beforeEach(async () => {
  fixture = await publishedDestination(await tempDirForTest('adopt-undo-'));
  dest = fixture.dest;
  await fs.rm(path.join(dest, '.distributor.json'));
  await fs.writeFile(path.join(dest, 'notes.txt'), 'operator notes');
});

async function adoptPlan() {
  const planned = await planAdopt({
    destinationPath: dest,
    sourcePath: fixture.source,
    configured: { pipelineId: 'reports', destinationId: 'archive' },
  });
  if (!planned.ok) throw new Error(planned.error.message);
  return planned.value;
}

describe('undoing an adopt', () => {
  it('keeps a backup that holds nothing, whose restore removes only the state it wrote', async () => {
    const before = await snapshotTree(dest);
    const { folder } = await applyWithBackup(await adoptPlan(), path.join(fixture.root, 'backups'));
    const restore = await planRestore({ backupFolder: folder, destinationPath: dest });
    if (!restore.ok) throw new Error(restore.error.message);
    expect(restore.value.removes.map((entry) => entry.path)).toEqual(['.distributor.json']);
    expect(restore.value.puts).toEqual([]);
    const restored = await applyRestore(restore.value);
    expect(restored.ok).toBe(true);
    expect(await snapshotTree(dest)).toBe(before);
  });
});
