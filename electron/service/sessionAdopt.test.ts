// Folder compare and adopt through the Session, as both transports carry them: the compare answers
// counts and what stops an adopt; an adopt is planned under an opaque id, applied by the one
// applyPlan job, journaled, and leaves the folder managed and intact with every extra kept.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import { callOk, jobEnd, jobItems } from '../testing/sessionCalls';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { recoveryWorkspace } from '../testing/recoveryFixtures';
import { Session } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The recovery workspace's `archive` destination with its state file removed: an unmanaged folder whose files match. */
async function setup() {
  const root = await makeTempDir('session-adopt-');
  const fixture = await recoveryWorkspace(root);
  await fs.rm(path.join(fixture.dest, '.distributor.json'));
  await fs.writeFile(path.join(fixture.dest, 'notes.txt'), 'operator notes');
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

const ID = 'archive';

describe('Session adopt', () => {
  it('compares the folder with the configured source, adopts it, journals it, and the folder is then managed and intact', async () => {
    const { fixture, session, events } = await setup();
    const compared = await callOk(session, 'compareFolder', { destination: ID });
    expect(compared.destinationStatus).toBe('unmanaged');
    expect(compared.counts).toEqual({ matches: 4, differs: 0, missing: 0, extra: 1 });
    expect(compared.adoptable).toBe(true);

    const { planId, plan } = await callOk(session, 'planAdopt', { destination: ID });
    expect(plan.mode).toBe('adopt');
    expect(plan.newState?.destination_id).toBe('archive');
    const { job } = await callOk(session, 'applyPlan', { planId, confirmed: true });
    const end = await jobEnd(session, job);
    expect(end).toMatchObject({
      event: 'result',
      data: { result: { ok: true, mode: 'adopt', stateWritten: true, deleted: [], written: [] } },
    });
    const item = jobItems(events, job)[0] as { verify?: { report: { status: string } } } | undefined;
    expect(item?.verify?.report.status).toBe('intact');
    expect(await fs.readFile(path.join(fixture.dest, 'notes.txt'), 'utf8')).toBe('operator notes');
    const history = await callOk(session, 'history', { destination: ID });
    expect(history.records.map((record) => [record.action, record.result.outcome])).toEqual([['adopt', 'applied']]);
    const after = await callOk(session, 'compareFolder', { destination: ID });
    expect(after.destinationStatus).toBe('managed');
    expect(after.blockers.map((blocker) => blocker.code)).toEqual(['has_state']);
  });

  it('refuses to plan an adopt when a file differs, naming the file', async () => {
    const { fixture, session } = await setup();
    await fs.writeFile(path.join(fixture.dest, 'data.csv'), 'edited\n');
    const compared = await callOk(session, 'compareFolder', { destination: ID });
    expect(compared.blockers[0]).toMatchObject({ code: 'outputs_differ', paths: ['data.csv'] });
    const refused = await session.call('planAdopt', { destination: ID });
    expect(refused).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(JSON.stringify(refused)).toContain('data.csv');
  });
});
