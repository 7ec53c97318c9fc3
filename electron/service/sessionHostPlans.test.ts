// The client's side of a host's repair and restore (sessionHosts.ts hostPlanStore), with a stand-in
// link to a real agent Session in this process: the plan is the agent's own, the confirmations are
// checked here before anything is sent (each refusal naming the host), what is sent is the agent's
// plan id and the operator's acknowledgements, and a connection lost mid-apply ends the job as
// connection_lost, its outcome unknown, the plan used up.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callOk } from '../testing/sessionCalls';
import { driftByHand } from '../testing/recoveryFixtures';
import { hostStandIn, LOST } from '../testing/hostStandIn';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const setup = () => hostStandIn(cleanups);

const ID = 'web-1:archive';

describe('a host destination’s repair and restore, checked by the client', () => {
  it('refuses a partial repair on a host until it is accepted, naming the host, and sends nothing until then', async () => {
    const { fixture, session, sent, ended } = await setup();
    await driftByHand(fixture.dest);
    await fs.writeFile(path.join(fixture.source, 'report.md'), '# Report\n\nNew figures.\n');
    const { planId, plan } = await callOk(session, 'planRepair', { destination: ID });
    expect(plan.repair?.refused.map((entry) => entry.path)).toEqual(['report.html']);
    const refused = await session.call('applyPlan', { confirmed: true, planId });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'confirmation_required', details: { refused: ['report.html'], host: 'web-1' } },
    });
    expect(!refused.ok && refused.error.message).toContain(`in ${fixture.dest} on host web-1: accept the partial repair`);
    expect(sent.filter((entry) => entry.method === 'applyPlan')).toEqual([]);
    const { job } = await callOk(session, 'applyPlan', { confirmed: true, planId, acceptPartial: true });
    const end = await ended(job);
    expect(end).toMatchObject({ event: 'result', data: { result: { ok: true, mode: 'repair' } } });
    // What went to the host: its own plan id, and the acknowledgement.
    const apply = sent.find((entry) => entry.method === 'applyPlan')!.request as { planId: string; acceptPartial?: boolean };
    expect(apply.acceptPartial).toBe(true);
    expect(apply.planId).not.toBe(planId);
    expect(await fs.readFile(path.join(fixture.dest, 'data.csv'), 'utf8')).toBe('a,b\n1,2\n');
  });

  it('restores a host backup only with NAME:ID typed, and sends the host its own id to check', async () => {
    const { fixture, session, sent, ended } = await setup();
    await driftByHand(fixture.dest);
    const repaired = await callOk(session, 'planRepair', { destination: ID });
    expect((await ended((await callOk(session, 'applyPlan', { confirmed: true, planId: repaired.planId })).job)).event).toBe('result');
    const [backup] = (await callOk(session, 'listBackups', { destination: ID })).backups;
    const { planId, confirmText } = await callOk(session, 'planRestore', { destination: ID, backup: backup!.id });
    expect(confirmText).toBe(ID);
    const before = sent.length;
    for (const confirm of [undefined, 'archive', 'web-2:archive']) {
      const refused = await session.call('applyPlan', { confirmed: true, planId, ...(confirm !== undefined ? { confirm } : {}) });
      expect(refused).toMatchObject({ ok: false, error: { code: 'confirmation_required', details: { expected: ID, host: 'web-1' } } });
    }
    expect(sent.length).toBe(before);
    const end = await ended((await callOk(session, 'applyPlan', { confirmed: true, planId, confirm: ID })).job);
    expect(end).toMatchObject({ event: 'result', data: { result: { ok: true, mode: 'restore' } } });
    expect(sent.at(-1)).toMatchObject({ method: 'applyPlan', request: { confirm: 'archive' } });
    expect(await fs.readFile(path.join(fixture.dest, 'data.csv'), 'utf8')).toBe('a,b\n1,3\n');
  });

  it('ends an apply whose connection is lost mid-job as connection_lost, its outcome unknown and named by host, the plan used up', async () => {
    const { fixture, session, behaviour, ended } = await setup();
    await driftByHand(fixture.dest);
    const { planId } = await callOk(session, 'planRepair', { destination: ID });
    behaviour.lose = true;
    const { job } = await callOk(session, 'applyPlan', { confirmed: true, planId });
    const end = await ended(job);
    expect(end).toMatchObject({ event: 'error', data: { error: { code: 'connection_lost', details: { host: 'web-1' } } } });
    expect(end.event === 'error' && end.data.error.message).toBe(`web-1: ${LOST.message}`);
    // Sent once: whether it ran is the host's to say (re-inspect); this plan is never sent again.
    expect(await session.call('applyPlan', { confirmed: true, planId })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
