// A backup is only ever one that holds something: the first publish into an empty destination keeps
// none and journals no backupId (nothing was removed), and an apply that stopped after preparing its
// backup but before moving anything into it leaves no backup listed (the manifest had every entry
// pending; settled, none was moved).

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { listBackups } from '../backup/backupStore';
import { readHistory } from '../history/journal';
import { applyPlan } from '../replace/applyPlan';
import { nodeFsOps } from '../replace/fsOps';
import { planReplace } from '../replace/planReplace';
import { countingFsOps } from '../testing/countingFsOps';
import { writeBundle } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { driftByHand, publishedDestination, repairPlanOf } from '../testing/recoveryFixtures';
import { backupForApply, settleBackup, type BackupRequest } from './applyBackup';
import { applyReplacePlan } from './applyReplacePlan';

let root: string;
let request: BackupRequest;
beforeEach(async () => {
  root = await tempDirForTest('apply-backup-');
  request = { settings: { enabled: true, folder: path.join(root, 'backups'), keep: 5 }, destinationId: 'archive' };
});
const backupsFolder = () => path.join(root, 'backups');

describe('the first publish into an empty destination', () => {
  it('keeps no backup and journals no backupId: nothing was removed', async () => {
    const dest = path.join(root, 'dest');
    await fs.mkdir(dest);
    await writeBundle(path.join(root, 'source'), { 'report.md': '# Report' }, { created: '2026-06-05T09:00:00Z' });
    const planned = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'source'),
      mode: 'replace',
      configured: { pipelineId: 'reports', destinationId: 'archive' },
    });
    if (!planned.ok) throw new Error(planned.error.message);
    const history = path.join(root, 'history.jsonl');
    const { result } = await applyReplacePlan(planned.value, { backup: request, history: { file: history, transport: 'cli' } });
    expect(result.ok).toBe(true);
    expect(result.backup).toBeUndefined();
    const read = await readHistory(history);
    expect(read.ok && read.value.records.map((record) => record.backupId)).toEqual([undefined]);
    expect(await fs.readdir(backupsFolder()).catch(() => [])).toEqual([]);
  });
});

describe('an apply that stopped after preparing its backup, before moving anything into it', () => {
  it('leaves no backup listed: the pending entries settle to none kept, and the empty backup is removed', async () => {
    const { dest, source } = await publishedDestination(root);
    await driftByHand(dest);
    const plan = await repairPlanOf(dest, source);
    const writer = backupForApply(plan, request)!;
    // The repair race of the issue: each entry to move into the backup is gone by then (ENOENT).
    const racing = countingFsOps(nodeFsOps, (_step, op, target) => {
      if (op === 'rename' && target.includes(` -> ${backupsFolder()}`))
        throw Object.assign(new Error('ENOENT: gone in a race'), { code: 'ENOENT' });
    });
    const result = await applyPlan(plan, { backup: writer, fs: racing });
    expect(result.ok).toBe(false);
    const made = writer.made();
    expect(made).toBeDefined();
    expect(await settleBackup(plan, result, writer, request)).toBeUndefined();
    expect(await listBackups(request.settings)).toEqual([]);
    await expect(fs.access(made!.folder)).rejects.toThrow();
  });

  it('lists one that moved some of its entries with only those, and settles them as kept', async () => {
    const { dest, source } = await publishedDestination(root);
    await driftByHand(dest);
    const plan = await repairPlanOf(dest, source);
    const writer = backupForApply(plan, request)!;
    let renames = 0;
    // One move into the backup fails: one entry is there, the other is still in the destination.
    const racing = countingFsOps(nodeFsOps, (_step, op, target) => {
      if (op === 'rename' && target.includes(` -> ${backupsFolder()}`) && renames++ === 1)
        throw Object.assign(new Error('ENOENT: gone in a race'), { code: 'ENOENT' });
    });
    const result = await applyPlan(plan, { backup: writer, fs: racing });
    expect(result.ok).toBe(false);
    const listed = await listBackups(request.settings);
    expect(listed.map((summary) => [summary.entryCount, summary.problem])).toEqual([[1, undefined]]);
    const settled = await settleBackup(plan, result, writer, request);
    expect(settled?.id).toBe(listed[0]?.id);
    const manifest = JSON.parse(await fs.readFile(path.join(settled!.folder, 'backup.json'), 'utf8'));
    expect(manifest.entries.map((entry: { kept: boolean; pending?: boolean }) => [entry.kept, entry.pending])).toEqual(
      expect.arrayContaining([
        [true, undefined],
        [false, undefined],
      ]),
    );
  });
});
