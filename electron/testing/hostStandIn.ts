// A client Session whose host web-1 is a real agent Session in this process, linked by a stand-in
// (no ssh): the host's plans are the agent's own, what the client sends is recorded, and a job's
// items can be made hostile on demand (`extraItems`). For tests only; never imported by the app.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { ApiEvent, ApiResult, ScanEntry } from '../../shared/api';
import { callOk, jobEnd } from './sessionCalls';
import { makeTempDir, removeTempDir } from './fixtures';
import { recoveryWorkspace } from './recoveryFixtures';
import type { HostConnector, HostJobHandlers, HostLink } from '../service/hostLink';
import { Session, type SessionOptions } from '../service/session';

export const LOST = { code: 'connection_lost', message: 'the connection to web-1 was lost during the job: its outcome is unknown.' };

/** What a host job sends besides the agent's own items, made from them (none by default). */
export type ExtraItems = (real: unknown[]) => unknown[];

/**
 * A client Session whose host web-1 is a real agent Session here; what it sends is recorded, an
 * `applyPlan` job is lost when `lose` says so, and each job's items (the agent's, then `extraItems`
 * of them) reach the client once the agent's job ended; `seen` counts them and notes a cancel.
 */
export async function hostStandIn(
  cleanups: (() => Promise<void>)[],
  extraItems: ExtraItems = () => [],
  /** Options for the client's Session (live refresh on, to hear the host's watch) and the agent's. */
  options: { client?: Partial<SessionOptions>; agent?: Partial<SessionOptions> } = {},
) {
  const root = await makeTempDir('session-host-');
  const fixture = await recoveryWorkspace(root);
  const agent = new Session({ transport: 'agent', liveRefresh: false, progressIntervalMs: 0, ...options.agent });
  const sent: { method: string; request: unknown }[] = [];
  const behaviour = { lose: false };
  const seen = { aborted: false, sent: 0 };
  const link: HostLink = {
    hello: { version: 'test', host: 'web-1', platform: 'linux' },
    lost: undefined,
    ended: new Promise(() => {}),
    call: (async (method: string, request: unknown) => {
      sent.push({ method, request });
      return agent.call(method, request);
    }) as HostLink['call'],
    job: (async (method: string, request: unknown, handlers: HostJobHandlers<'scan'> = {}) => {
      sent.push({ method, request });
      if (method === 'applyPlan' && behaviour.lose) throw LOST;
      const started = (await agent.call(method, request)) as ApiResult<{ job: string }>;
      if (!started.ok) return started;
      const real: unknown[] = [];
      const ending = await new Promise<ApiResult<unknown>>((resolve) => {
        const off = agent.onEvent((event) => {
          if (event.event === 'items' && event.data.job === started.value.job) real.push(...event.data.items);
          if (event.event === 'result' && event.data.job === started.value.job) resolve({ ok: true, value: event.data.result });
          if (event.event === 'error' && event.data.job === started.value.job) resolve({ ok: false, error: event.data.error });
          if ((event.event === 'result' || event.event === 'error') && event.data.job === started.value.job) off();
        });
      });
      for (const item of [...real, ...extraItems(real)]) {
        handlers.onItem?.(item as ScanEntry);
        seen.sent++;
      }
      seen.aborted = handlers.signal?.aborted ?? false;
      return ending;
    }) as unknown as HostLink['job'],
    onDestinationChanges: (listener) =>
      agent.onEvent((event) => {
        if (event.event === 'destinationChanges') listener(event.data);
      }),
    close: async () => {},
  };
  const connector: HostConnector = async () => link;
  const clientFile = path.join(root, 'client.json');
  await fs.writeFile(
    clientFile,
    JSON.stringify({ destinations: [], hosts: [{ name: 'web-1', url: `ssh://web-1${fixture.workspaceFile}` }] }),
  );
  const session = new Session({ transport: 'http', connectHost: connector, progressIntervalMs: 0, liveRefresh: false, ...options.client });
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
  expect((await callOk(session, 'hosts', {})).hosts[0]?.state).toBe('connected');
  const ended = (job: string) => jobEnd(session, job, events);
  return { fixture, session, agent, sent, behaviour, seen, events, ended };
}
