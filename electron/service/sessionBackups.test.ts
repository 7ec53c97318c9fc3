// Backups and undo through the Session, over real temp folders: every apply keeps what it removes
// beside the workspace file, its result and its history record name the backup, the list shows it
// with its size, a restore planned and confirmed like a forced replace puts the bytes back, and a
// backup that cannot be made stops the apply before anything is deleted.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApplyResult } from '../../shared/plan';
import { BACKUPS_FOLDER_NAME } from '../backup/backupLocation';
import { HISTORY_FILE_NAME } from '../history/journalPath';
import { makeTempDir, removeTempDir, snapshotTree, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { callOk, jobEnd } from '../testing/sessionCalls';
import { Session } from './session';

let root: string;
let session: Session;
beforeEach(async () => {
  root = await makeTempDir('session-backups-');
  session = new Session({ transport: 'http', progressIntervalMs: 0 });
});
afterEach(async () => {
  await session.close();
  await removeTempDir(root);
});

/** A workspace file with one managed destination `site` (an extra file in it) and a newer source. */
async function workspace(backups?: unknown) {
  const old = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  const dest = path.join(root, 'sites', 'site');
  await writeManagedDestination(dest, {
    manifest: old,
    outputs: { 'report.html': 'old report', 'pages/a.html': 'old a' },
    extras: { 'notes.txt': 'operator notes' },
  });
  await writeBundle(path.join(root, 'source'), { 'report.md': '# New', 'b.txt': 'b' }, { created: '2026-06-05T09:00:00Z' });
  const file = path.join(root, 'distributor-inspector.json');
  await fs.writeFile(
    file,
    JSON.stringify({
      destinations: [{ path: 'sites/site', source: 'source', pipeline_id: 'reports', destination_id: 'archive' }],
      ...(backups !== undefined ? { backups } : {}),
    }),
  );
  await callOk(session, 'openWorkspace', { path: file });
  return { dest, file };
}

async function applied(planId: string, confirm?: string): Promise<ApplyResult> {
  const { job } = await callOk(session, 'applyPlan', { confirmed: true, planId, ...(confirm !== undefined ? { confirm } : {}) });
  const event = await jobEnd(session, job);
  if (event.event !== 'result') throw new Error(`the apply ended with ${JSON.stringify(event.data)}`);
  return (event.data as { result: ApplyResult }).result;
}

async function force(): Promise<ApplyResult> {
  const planned = await callOk(session, 'planReplace', { destination: 'archive', mode: 'force' });
  return applied(planned.planId, planned.confirmText);
}

describe('backups through the Session', () => {
  it('keeps what a forced replace removes beside the workspace file, names it in the result and the history, and restores it', async () => {
    const { dest } = await workspace();
    const before = await snapshotTree(dest);
    const target = await callOk(session, 'listBackups', { destination: 'archive' });
    expect(target.target).toEqual({ enabled: true, folder: path.join(root, BACKUPS_FOLDER_NAME, 'archive'), method: 'rename' });

    const result = await force();
    expect(result.ok).toBe(true);
    expect(result.backup).toMatchObject({ method: 'rename', folder: path.join(root, BACKUPS_FOLDER_NAME, 'archive', result.backup!.id) });
    expect(await fs.readFile(path.join(result.backup!.folder, 'files', 'notes.txt'), 'utf8')).toBe('operator notes');
    await expect(fs.lstat(path.join(dest, 'notes.txt'))).rejects.toThrow();

    const list = await callOk(session, 'listBackups', { destination: 'archive' });
    expect(list.backups).toMatchObject([{ id: result.backup!.id, action: 'force', outcome: 'applied', destination: { id: 'archive' } }]);
    expect(list.backups[0]!.sizeBytes).toBeGreaterThan('old report'.length + 'old a'.length + 'operator notes'.length);
    expect((await callOk(session, 'listBackups', {})).backups.map((backup) => backup.id)).toEqual([result.backup!.id]);

    const restore = await callOk(session, 'planRestore', { destination: 'archive', backup: result.backup!.id });
    expect(restore.confirmText).toBe('archive');
    expect(restore.plan.puts.at(-1)?.path).toBe('.distributor.json');
    expect(await session.call('applyPlan', { confirmed: true, planId: restore.planId })).toMatchObject({
      ok: false,
      error: { code: 'confirmation_required' },
    });
    const restored = await applied(restore.planId, 'archive');
    expect(restored).toMatchObject({ ok: true, mode: 'restore', stateWritten: true, backup: { id: result.backup!.id } });
    expect(await snapshotTree(dest)).toBe(before);

    const history = await callOk(session, 'history', { destination: 'archive' });
    expect(history.records.map((record) => [record.action, record.result.outcome, record.backupId])).toEqual([
      ['force', 'applied', result.backup!.id],
      ['restore', 'applied', result.backup!.id],
    ]);
    expect(history.file).toBe(path.join(root, HISTORY_FILE_NAME));
    const after = await callOk(session, 'listBackups', { destination: 'archive' });
    expect(after.backups[0]!.restoredAt).toBeDefined();
  });

  it('refuses a restore when the destination changed since the apply, and at apply when it changed since the plan', async () => {
    const { dest } = await workspace();
    const { backup } = await force();
    await fs.writeFile(path.join(dest, 'added.txt'), 'after the forced replace');
    expect(await session.call('planRestore', { destination: 'archive', backup: backup!.id })).toMatchObject({
      ok: false,
      error: { code: 'refused', details: { refusal: { code: 'destination_changed', details: { path: 'added.txt' } } } },
    });
    await fs.rm(path.join(dest, 'added.txt'));
    const restore = await callOk(session, 'planRestore', { destination: 'archive', backup: backup!.id });
    await fs.writeFile(path.join(dest, 'b.txt'), 'edited after the plan');
    const stale = await applied(restore.planId, 'archive');
    expect(stale).toMatchObject({ ok: false, mode: 'restore', changed: false, error: { code: 'stale_plan' } });
    const history = await callOk(session, 'history', { destination: 'archive' });
    expect(history.records.at(-1)).toMatchObject({ action: 'restore', result: { outcome: 'refused', code: 'stale_plan' } });
  });

  it('answers not_found for a backup id the destination does not have, and bad_request for one that is not an id', async () => {
    await workspace();
    expect(await session.call('planRestore', { destination: 'archive', backup: '2026-01-01T000000.000Z' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await session.call('planRestore', { destination: 'archive', backup: '../../etc' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
  });

  it('keeps the newest `keep` backups of a destination after each apply, and prunes on request', async () => {
    await workspace({ keep: 2 });
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.push((await force()).backup!.id);
    // The oldest was pruned before the apply answered: nothing of it is left, not even aside.
    const folder = path.dirname((await callOk(session, 'listBackups', { destination: 'archive' })).backups[0]!.folder);
    expect((await fs.readdir(folder)).filter((name) => !name.startsWith('.')).sort()).toEqual([ids[1], ids[2]].sort());
    expect((await fs.readdir(folder)).filter((name) => name.startsWith('.pruning-'))).toEqual([]);
    const list = await callOk(session, 'listBackups', { destination: 'archive' });
    expect(list.settings).toMatchObject({ enabled: true, keep: 2 });
    expect(list.backups.map((backup) => backup.id)).toEqual([ids[2], ids[1]]);
    expect(await callOk(session, 'pruneBackups', {})).toEqual({ removed: [], kept: 2 });
  });

  it('keeps no backup, and says so, when the workspace file turns backups off', async () => {
    await workspace('off');
    expect((await callOk(session, 'listBackups', { destination: 'archive' })).target).toEqual({ enabled: false });
    const result = await force();
    expect(result.ok).toBe(true);
    expect(result.backup).toBeUndefined();
    await expect(fs.lstat(path.join(root, BACKUPS_FOLDER_NAME))).rejects.toThrow();
    expect((await callOk(session, 'history', {})).records[0]!.backupId).toBeUndefined();
  });

  it('stops the apply before anything is deleted when the backup cannot be made, and says so', async () => {
    await fs.writeFile(path.join(root, 'blocker'), 'a file where the backup folder goes');
    const { dest } = await workspace({ folder: 'blocker/backups' });
    const before = await snapshotTree(dest);
    const result = await force();
    expect(result).toMatchObject({ ok: false, changed: false, error: { code: 'backup_failed' } });
    expect(result.error!.message).toContain('stopped before anything was deleted');
    expect(result.backup).toBeUndefined();
    expect(await snapshotTree(dest)).toBe(before);
    expect((await callOk(session, 'history', {})).records[0]).toMatchObject({ result: { outcome: 'failed', code: 'backup_failed' } });
  });
});
