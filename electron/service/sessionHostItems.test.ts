// The items a host's agent sends in a scan or a verify (sessionHosts.ts routedReadJob, hostItems.ts):
// with a stand-in link to a real agent Session here, whose job is made hostile on demand. Items for
// destinations the host never listed, or a second one for the same destination, are dropped, the
// host's part is cancelled, and the job ends as agent_protocol naming the host and the id; a well
// behaved agent's items all come through.

import { afterEach, describe, expect, it } from 'vitest';
import type { ScanEntry } from '../../shared/api';
import { hostStandIn, type ExtraItems } from '../testing/hostStandIn';
import { callOk, jobItems } from '../testing/sessionCalls';
import { driftByHand } from '../testing/recoveryFixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A client Session whose host web-1 is a real agent Session (testing/hostStandIn.ts), each job also sending what `extra` makes of the real items. */
async function setup(extra: ExtraItems) {
  const { session, fixture, seen, events, ended } = await hostStandIn(cleanups, extra);
  const run = async (method: 'scan' | 'applyPlan', request: object) => {
    const { job } = await callOk(session, method, request as never);
    const end = await ended(job);
    return { end, items: jobItems(events, job) };
  };
  const scan = (destinations?: string[]) => run('scan', destinations ? { destinations } : {});
  const apply = (planId: string) => run('applyPlan', { confirmed: true, planId });
  return { scan, apply, seen, session, fixture };
}

const ghosts =
  (count: number): ExtraItems =>
  (real) =>
    Array.from({ length: count }, (_, index) => ({ ...(real[0] as ScanEntry), destination: `ghost-${index}` }));

describe('the items of a host job are bounded by the destinations it listed', () => {
  it('keeps every item of an agent that sends one per listed destination', async () => {
    const { scan } = await setup(() => []);
    const { end, items } = await scan();
    expect(end.event).toBe('result');
    expect((items as ScanEntry[]).map((item) => item.destination)).toEqual(['web-1:archive', 'web-1:plain']);
  });

  it('drops items for destinations the host never listed, stops its part and names the host and the id', async () => {
    const { scan, seen } = await setup(ghosts(10_000));
    const { end, items } = await scan();
    expect(seen.sent).toBe(10_002);
    expect(seen.aborted).toBe(true);
    expect(items).toHaveLength(2);
    expect(end).toMatchObject({
      event: 'error',
      data: { error: { code: 'agent_protocol', details: { host: 'web-1', destination: 'ghost-0', field: 'destination' } } },
    });
    const message = end.event === 'error' ? end.data.error.message : '';
    expect(message).toContain('web-1: the agent sent a scan result for "ghost-0", a destination it was not asked about');
  });

  it('refuses an item for a destination of the host that this job did not ask about', async () => {
    const { scan } = await setup(ghosts(1));
    const { end, items } = await scan(['web-1:archive']);
    expect(items).toHaveLength(1);
    expect(end).toMatchObject({ event: 'error', data: { error: { code: 'agent_protocol', details: { destination: 'ghost-0' } } } });
  });

  it('refuses a second item for the same destination in one job', async () => {
    const { scan } = await setup((real) => Array.from({ length: 500 }, () => real[0]!));
    const { end, items } = await scan();
    expect(items).toHaveLength(2);
    expect(end).toMatchObject({ event: 'error', data: { error: { code: 'agent_protocol', details: { destination: 'archive' } } } });
    expect(end.event === 'error' && end.data.error.message).toContain('a second scan result for "archive" in one job');
  });

  it('drops an apply item for another destination than the plan’s and ends the apply as agent_protocol, without cancelling it', async () => {
    const { apply, seen, session, fixture } = await setup((real) => [
      { ...(real[0] as object), entry: { ...(real[0] as { entry: ScanEntry }).entry, destination: 'ghost' } },
    ]);
    await driftByHand(fixture.dest);
    const { planId } = await callOk(session, 'planRepair', { destination: 'web-1:archive' });
    const { end, items } = await apply(planId);
    expect(seen.aborted).toBe(false);
    expect(items).toHaveLength(1);
    expect(end).toMatchObject({
      event: 'error',
      data: { error: { code: 'agent_protocol', details: { host: 'web-1', destination: 'ghost' } } },
    });
    expect(end.event === 'error' && end.data.error.message).toContain('an apply result for "ghost"');
  });
});
