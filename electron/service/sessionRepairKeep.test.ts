// A repair that keeps chosen drifted outputs as they are, through the Session as both transports and
// a host carry it: planned with `keep`, applied only with the selection reviewed (the consent gate),
// the kept output still drifted afterwards, journaled with what it kept, undone exactly.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import { callOk, jobEnd, jobItems } from '../testing/sessionCalls';
import { makeTempDir, removeTempDir, snapshotTree } from '../testing/fixtures';
import { hostStandIn } from '../testing/hostStandIn';
import { driftByHand, recoveryWorkspace } from '../testing/recoveryFixtures';
import { Session } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const HOTFIX = '<p>hotfix made on the server on purpose</p>';

async function setup() {
  const root = await makeTempDir('session-repair-keep-');
  const fixture = await recoveryWorkspace(root);
  const session = new Session({ transport: 'http', liveRefresh: false, progressIntervalMs: 0 });
  const events: ApiEvent[] = [];
  session.onEvent((event) => events.push(event));
  cleanups.push(async () => {
    await session.close();
    await removeTempDir(root);
  });
  await callOk(session, 'openWorkspace', { path: fixture.workspaceFile });
  await driftByHand(fixture.dest);
  await fs.writeFile(path.join(fixture.dest, 'report.html'), HOTFIX);
  return { fixture, session, events };
}

const ID = 'archive';

describe('Session repair keeping chosen outputs', () => {
  it('applies only with the selection reviewed, rewrites the others and reports the kept one still drifted', async () => {
    const { fixture, session, events } = await setup();
    const { planId, plan } = await callOk(session, 'planRepair', { destination: ID, keep: ['report.html'] });
    expect(plan.repair?.kept?.map((entry) => entry.path)).toEqual(['report.html']);
    expect(plan.writes.map((write) => write.path).sort()).toEqual(['data.csv', 'pages/deep/b.txt']);

    // A selection other than the plan's is not the plan reviewed: refused, and the plan is not used up.
    for (const keep of [undefined, [], ['data.csv'], ['report.html', 'data.csv']]) {
      const refused = await session.call('applyPlan', { planId, ...(keep !== undefined ? { keep } : {}) });
      expect(refused).toMatchObject({ ok: false, error: { code: 'refused', details: { selection: { planned: ['report.html'] } } } });
      expect(!refused.ok && refused.error.message).toContain('keeps 1 output as it is (report.html), but the selection reviewed keeps');
    }
    expect(await fs.readFile(path.join(fixture.dest, 'data.csv'), 'utf8')).toBe('a,b\n1,3\n');

    const { job } = await callOk(session, 'applyPlan', { planId, confirmed: true, keep: ['report.html'] });
    const end = await jobEnd(session, job);
    expect(end).toMatchObject({ event: 'result', data: { result: { ok: true, mode: 'repair', stateWritten: false } } });
    const item = jobItems(events, job)[0] as { verify?: { report: { status: string; outputs: { path: string; status: string }[] } } };
    expect(item.verify?.report.status).toBe('drifted');
    expect(item.verify?.report.outputs.filter((output) => output.status !== 'ok')).toEqual([
      expect.objectContaining({ path: 'report.html', status: 'size_mismatch' }),
    ]);
    expect(await fs.readFile(path.join(fixture.dest, 'report.html'), 'utf8')).toBe(HOTFIX);
    expect(await fs.readFile(path.join(fixture.dest, 'data.csv'), 'utf8')).toBe('a,b\n1,2\n');

    // The journal says what it was to rewrite and what it kept.
    const [record] = (await callOk(session, 'history', { destination: ID })).records;
    expect(record?.repair).toEqual({
      rewrite: { count: 2, paths: expect.arrayContaining(['data.csv', 'pages/deep/b.txt']) },
      kept: { count: 1, paths: ['report.html'] },
    });
    expect(record?.counts).toMatchObject({ write: 2, delete: 1 });
  });

  it('refuses through the API a kept path that is not clean or not in the plan, naming it', async () => {
    const { session } = await setup();
    for (const [keep, code] of [
      ['../dest/report.html', 'keep_unclean_path'],
      ['/etc/passwd', 'keep_unclean_path'],
      ['pages/a.html', 'keep_not_in_plan'],
    ] as const) {
      const answer = await session.call('planRepair', { destination: ID, keep: [keep] });
      expect(answer).toMatchObject({ ok: false, error: { code: 'refused', details: { refusal: { code, details: { path: keep } } } } });
    }
  });

  it('undoes a partial repair exactly: the rewritten outputs go back to their drifted bytes, the hotfix is untouched', async () => {
    const { fixture, session } = await setup();
    const before = await snapshotTree(fixture.dest);
    const { planId } = await callOk(session, 'planRepair', { destination: ID, keep: ['report.html'] });
    await jobEnd(session, (await callOk(session, 'applyPlan', { planId, confirmed: true, keep: ['report.html'] })).job);
    const [backup] = (await callOk(session, 'listBackups', { destination: ID })).backups;
    const restore = await callOk(session, 'planRestore', { destination: ID, backup: backup!.id });
    const { job } = await callOk(session, 'applyPlan', { planId: restore.planId, confirm: ID });
    expect(await jobEnd(session, job)).toMatchObject({ event: 'result', data: { result: { ok: true, mode: 'restore' } } });
    expect(await snapshotTree(fixture.dest)).toBe(before);
  });
});

describe('a host repair keeping chosen outputs', () => {
  it('checks the selection on the client before anything is sent, then sends the host its selection', async () => {
    const { fixture, session, sent, ended } = await hostStandIn(cleanups);
    await driftByHand(fixture.dest);
    const { planId, plan } = await callOk(session, 'planRepair', { destination: 'web-1:archive', keep: ['data.csv'] });
    expect(plan.repair?.kept?.map((entry) => entry.path)).toEqual(['data.csv']);
    expect(await session.call('applyPlan', { planId })).toMatchObject({
      ok: false,
      error: { code: 'refused', details: { host: 'web-1', selection: { planned: ['data.csv'], reviewed: [] } } },
    });
    expect(sent.filter((entry) => entry.method === 'applyPlan')).toEqual([]);
    const { job } = await callOk(session, 'applyPlan', { planId, confirmed: true, keep: ['data.csv'] });
    expect(await ended(job)).toMatchObject({ event: 'result', data: { result: { ok: true, mode: 'repair' } } });
    expect((sent.find((entry) => entry.method === 'applyPlan')!.request as { keep?: string[] }).keep).toEqual(['data.csv']);
    expect(await fs.readFile(path.join(fixture.dest, 'data.csv'), 'utf8')).toBe('a,b\n1,3\n');
    expect(await fs.readFile(path.join(fixture.dest, 'pages', 'deep', 'b.txt'), 'utf8')).toBe('b text\n');
  });
});
