// Repair and discard staging through the Session, as both transports carry them: planned under an
// opaque id, applied by the one applyPlan job (the stale-plan check, one apply at a time, the
// destination inspected and verified after), a partial repair only when accepted, journaled.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import type { ApplyResult } from '../../shared/plan';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { callOk, jobEnd, jobItems } from '../testing/sessionCalls';
import { makeTempDir, removeTempDir, snapshotTree, writeInterruptedStaging } from '../testing/fixtures';
import { driftByHand, recoveryWorkspace } from '../testing/recoveryFixtures';
import { Session } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup() {
  const root = await makeTempDir('session-recovery-');
  const fixture = await recoveryWorkspace(root);
  const session = new Session({ transport: 'http', progressIntervalMs: 0 });
  const events: ApiEvent[] = [];
  session.onEvent((event) => events.push(event));
  cleanups.push(async () => {
    await session.close();
    await removeTempDir(root);
  });
  await callOk(session, 'openWorkspace', { path: fixture.workspaceFile });
  return { fixture, session, events };
}

/** Runs an applyPlan job to its end: its item (the destination after) and its result. */
async function applied(session: Session, events: ApiEvent[], request: { planId: string; acceptPartial?: boolean; confirm?: string }) {
  const { job } = await callOk(session, 'applyPlan', { confirmed: true, ...request });
  const end = await jobEnd(session, job);
  const item = jobItems(events, job)[0];
  return { end, item: item as { entry: unknown; verify?: { report: { status: string } } } | undefined };
}

const ID = 'archive';

describe('Session repair', () => {
  it('plans a repair from the configured source, applies it, and sends the destination verified intact with the extra kept', async () => {
    const { fixture, session, events } = await setup();
    await driftByHand(fixture.dest);
    const { planId, plan } = await callOk(session, 'planRepair', { destination: ID });
    expect(plan.mode).toBe('repair');
    expect(plan.writes.map((write) => write.path).sort()).toEqual(['data.csv', 'pages/deep/b.txt', 'report.html']);
    expect(plan.repair?.extras).toEqual(['notes.txt']);
    const { end, item } = await applied(session, events, { planId });
    expect(end).toMatchObject({ event: 'result', data: { result: { ok: true, mode: 'repair', stateWritten: false } } });
    expect(item?.verify?.report.status).toBe('intact');
    expect(await fs.readFile(path.join(fixture.dest, 'notes.txt'), 'utf8')).toBe('operator notes');
    // One plan, one apply.
    expect(await session.call('applyPlan', { confirmed: true, planId })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // Journaled like a replace.
    const history = await callOk(session, 'history', { destination: ID });
    expect(history.records.map((record) => [record.action, record.result.outcome])).toEqual([['repair', 'applied']]);
  });

  it('asks for the partial repair to be accepted without using up the plan, then repairs only the outputs it can prove', async () => {
    const { fixture, session, events } = await setup();
    await driftByHand(fixture.dest);
    await fs.writeFile(path.join(fixture.source, 'report.md'), '# Report\n\nNew figures.\n');
    const { planId, plan } = await callOk(session, 'planRepair', { destination: ID });
    expect(plan.repair?.refused.map((entry) => entry.path)).toEqual(['report.html']);
    expect(await session.call('applyPlan', { confirmed: true, planId })).toMatchObject({
      ok: false,
      error: { code: 'confirmation_required', details: { refused: ['report.html'] } },
    });
    expect(await fs.readFile(path.join(fixture.dest, 'data.csv'), 'utf8')).toBe('a,b\n1,3\n');
    const { end, item } = await applied(session, events, { planId, acceptPartial: true });
    expect(end).toMatchObject({ event: 'result', data: { result: { ok: true, written: expect.arrayContaining(['data.csv']) } } });
    expect(item?.verify?.report.status).toBe('drifted');
    expect(await fs.readFile(path.join(fixture.dest, 'report.html'), 'utf8')).toBe('<p>edited by hand</p>');
    expect(await fs.readFile(path.join(fixture.dest, 'data.csv'), 'utf8')).toBe('a,b\n1,2\n');
  });

  it('ends a repair planned before another edit as a stale plan, changing nothing', async () => {
    const { fixture, session, events } = await setup();
    await driftByHand(fixture.dest);
    const { planId } = await callOk(session, 'planRepair', { destination: ID });
    await fs.writeFile(path.join(fixture.dest, 'data.csv'), 'edited again');
    const { end } = await applied(session, events, { planId });
    expect(end).toMatchObject({ event: 'result', data: { result: { ok: false, changed: false, error: { code: 'stale_plan' } } } });
    expect(await fs.readFile(path.join(fixture.dest, 'data.csv'), 'utf8')).toBe('edited again');
  });

  it('refuses a destination with no configured source unless one is chosen, and one with no valid state', async () => {
    const { fixture, session } = await setup();
    expect(await session.call('planRepair', { destination: 'plain' })).toMatchObject({ ok: false, error: { code: 'invalid_source' } });
    expect(await session.call('planRepair', { destination: 'plain', source: fixture.source })).toMatchObject({
      ok: false,
      error: { code: 'refused', details: { refusal: { code: 'no_state' } } },
    });
    expect(await session.call('planRepair', { destination: ID, source: path.join(fixture.root, 'nowhere') })).toMatchObject({
      ok: false,
      error: { code: 'invalid_source' },
    });
  });

  it('repairs from a chosen bundle typed relative to the workspace folder', async () => {
    const { fixture, session } = await setup();
    await fs.rm(path.join(fixture.dest, 'data.csv'));
    const { plan } = await callOk(session, 'planRepair', { destination: ID, source: 'source' });
    expect(plan.sourcePath).toBe(await fs.realpath(fixture.source));
    expect(plan.writes.map((write) => write.path)).toEqual(['data.csv']);
  });
});

describe('Session discard staging', () => {
  it('plans what the staging folder holds, removes only it, and the destination is no longer interrupted', async () => {
    const { fixture, session, events } = await setup();
    await writeInterruptedStaging(fixture.dest, { 'report.html': 'half', 'pages/a.html': 'half a' });
    const { planId, plan } = await callOk(session, 'planDiscardStaging', { destination: ID });
    expect(plan.staging).toEqual([
      expect.objectContaining({ name: STAGING_DIR_NAME, stagedFiles: 2, marker: expect.objectContaining({ mode: 'replace' }) }),
    ]);
    const { end, item } = await applied(session, events, { planId });
    expect(end).toMatchObject({ event: 'result', data: { result: { ok: true, mode: 'discard_staging', deleted: [STAGING_DIR_NAME] } } });
    expect(item?.verify?.report.status).toBe('intact');
    expect(JSON.stringify(item?.entry)).not.toContain('"interrupted"');
    await expect(fs.access(path.join(fixture.dest, STAGING_DIR_NAME))).rejects.toThrow();
  });

  it("keeps the folder in the workspace's backups, journals the backup's id, and its restore puts the folder back byte for byte", async () => {
    const { fixture, session, events } = await setup();
    await writeInterruptedStaging(fixture.dest, { 'report.html': 'half' });
    const before = await snapshotTree(fixture.dest);
    const { planId } = await callOk(session, 'planDiscardStaging', { destination: ID });
    const { end } = await applied(session, events, { planId });
    const result = (end.data as { result: ApplyResult }).result;
    expect(result).toMatchObject({ ok: true, mode: 'discard_staging', backup: { method: 'rename' } });
    const id = result.backup!.id;
    expect((await callOk(session, 'listBackups', { destination: ID })).backups).toMatchObject([
      { id, action: 'discard_staging', outcome: 'applied' },
    ]);
    const restore = await callOk(session, 'planRestore', { destination: ID, backup: id });
    expect(restore.plan.puts.map((entry) => entry.path)).toEqual([STAGING_DIR_NAME]);
    const restored = await applied(session, events, { planId: restore.planId, confirm: restore.confirmText });
    expect(restored.end).toMatchObject({ event: 'result', data: { result: { ok: true, mode: 'restore' } } });
    expect(await snapshotTree(fixture.dest)).toBe(before);
    const history = await callOk(session, 'history', { destination: ID });
    expect(history.records.map((record) => [record.action, record.result.outcome, record.backupId])).toEqual([
      ['discard_staging', 'applied', id],
      ['restore', 'applied', id],
    ]);
  });

  it('refuses when there is nothing to discard', async () => {
    const { session } = await setup();
    expect(await session.call('planDiscardStaging', { destination: ID })).toMatchObject({
      ok: false,
      error: { code: 'refused', details: { refusal: { code: 'no_staging' } } },
    });
  });
});
