// The items a host's agent sends in a scan or a verify (sessionHosts.ts routedReadJob, hostItems.ts):
// with a stand-in link to a real agent Session here, whose job is made hostile on demand. Items for
// destinations the host never listed, or a second one for the same destination, are dropped, the
// host's part is cancelled, and the job ends as agent_protocol naming the host and the id; a well
// behaved agent's items all come through.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, ApiResult, ScanEntry } from '../../shared/api';
import { callOk, jobEnd } from '../testing/sessionCalls';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { driftByHand, recoveryWorkspace } from '../testing/recoveryFixtures';
import type { HostConnector, HostJobHandlers, HostLink } from './hostLink';
import { Session } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Extra = (real: unknown[]) => unknown[];

/** A client Session whose host web-1 is a real agent Session; each scan job also sends what `extra` makes of the real items. */
async function setup(extra: Extra) {
  const root = await makeTempDir('session-host-items-');
  const fixture = await recoveryWorkspace(root);
  const agent = new Session({ transport: 'agent', liveRefresh: false, progressIntervalMs: 0 });
  const seen = { aborted: false, sent: 0 };
  const link: HostLink = {
    hello: { version: 'test', host: 'web-1', platform: 'linux' },
    lost: undefined,
    ended: new Promise(() => {}),
    call: ((method: string, request: unknown) => agent.call(method, request)) as HostLink['call'],
    job: (async (method: string, request: unknown, handlers: HostJobHandlers<'scan'> = {}) => {
      const started = (await agent.call(method, request)) as ApiResult<{ job: string }>;
      if (!started.ok) return started;
      const real: unknown[] = [];
      const ending = await new Promise<ApiResult<unknown>>((resolve) => {
        const off = agent.onEvent((event) => {
          if (event.event === 'item' && event.data.job === started.value.job) real.push(event.data.item);
          if (event.event === 'result' && event.data.job === started.value.job) resolve({ ok: true, value: event.data.result });
          if (event.event === 'error' && event.data.job === started.value.job) resolve({ ok: false, error: event.data.error });
          if ((event.event === 'result' || event.event === 'error') && event.data.job === started.value.job) off();
        });
      });
      for (const item of [...real, ...extra(real)]) {
        handlers.onItem?.(item as ScanEntry);
        seen.sent++;
      }
      seen.aborted = handlers.signal?.aborted ?? false;
      return ending;
    }) as unknown as HostLink['job'],
    close: async () => {},
  };
  const connector: HostConnector = async () => link;
  const clientFile = path.join(root, 'client.json');
  await fs.writeFile(
    clientFile,
    JSON.stringify({ destinations: [], hosts: [{ name: 'web-1', url: `ssh://web-1${fixture.workspaceFile}` }] }),
  );
  const session = new Session({ transport: 'http', connectHost: connector, progressIntervalMs: 0, liveRefresh: false });
  const events: ApiEvent[] = [];
  session.onEvent((event) => events.push(event));
  cleanups.push(async () => {
    await session.close();
    await agent.close();
    await removeTempDir(root);
  });
  const connected = new Promise<void>((resolve) =>
    session.onEvent((event) => event.event === 'hostState' && event.data.host.state === 'connected' && resolve()),
  );
  await callOk(session, 'openWorkspace', { path: clientFile });
  await connected;
  const scan = async (destinations?: string[]) => {
    const { job } = await callOk(session, 'scan', destinations ? { destinations } : {});
    const end = await jobEnd(session, job, events);
    const items = events.filter((event) => event.event === 'item' && event.data.job === job);
    return { end, items };
  };
  const apply = async (planId: string) => {
    const { job } = await callOk(session, 'applyPlan', { planId });
    const end = await jobEnd(session, job, events);
    return { end, items: events.filter((event) => event.event === 'item' && event.data.job === job) };
  };
  return { scan, apply, seen, session, fixture };
}

const ghosts =
  (count: number): Extra =>
  (real) =>
    Array.from({ length: count }, (_, index) => ({ ...(real[0] as ScanEntry), destination: `ghost-${index}` }));

describe('the items of a host job are bounded by the destinations it listed', () => {
  it('keeps every item of an agent that sends one per listed destination', async () => {
    const { scan } = await setup(() => []);
    const { end, items } = await scan();
    expect(end.event).toBe('result');
    expect(items.map((event) => (event.data as { item: ScanEntry }).item.destination)).toEqual(['web-1:archive', 'web-1:plain']);
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
