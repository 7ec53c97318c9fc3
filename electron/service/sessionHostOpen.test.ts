// A Session opens an ssh:// path as a workspace of one host (what the command line's ssh:// paths
// go through, cli/hostDoor.ts): the host named by its host name, the path opened there as asked (as
// its one destination, or as a workspace), its destinations named `NAME:ID`, and the journal and
// backups asked without a destination answered by that host. The host is a real agent Session here,
// linked by a stand-in (no ssh).

import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, ApiResult } from '../../shared/api';
import { callOk } from '../testing/sessionCalls';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import type { HostConnector, HostLink } from './hostLink';
import { Session } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sessionReachingAgent() {
  const root = await makeTempDir('session-host-open-');
  const agent = new Session({ transport: 'agent', liveRefresh: false, storage: { env: { XDG_STATE_HOME: path.join(root, 'state') } } });
  const sent: { method: string; request: unknown }[] = [];
  const link = {
    hello: { version: 'test', host: 'web-1', platform: 'linux' },
    lost: undefined,
    ended: new Promise<void>(() => {}),
    call: async (method: string, request: unknown) => {
      sent.push({ method, request });
      return agent.call(method, request);
    },
    job: async (): Promise<ApiResult<never>> => ({ ok: false, error: { code: 'internal', message: 'no jobs in this test' } }),
    close: async () => {},
  } as unknown as HostLink;
  const connector: HostConnector = async () => link;
  // Live refresh on, as in the app: a workspace of one host has nothing of this machine to watch.
  const session = new Session({ transport: 'http', connectHost: connector, statCacheFile: false });
  cleanups.push(async () => {
    await session.close();
    await agent.close();
    await removeTempDir(root);
  });
  const settled = new Promise<ApiEvent>((resolve) =>
    session.onEvent((event) => event.event === 'hostState' && event.data.host.state !== 'connecting' && resolve(event)),
  );
  return { root, session, sent, settled };
}

describe('a Session opening an ssh:// path', () => {
  it("opens it on its host as that host's one destination, named NAME:ID, and answers about it from there", async () => {
    const { root, session, sent, settled } = await sessionReachingAgent();
    const workspace = await callOk(session, 'openWorkspace', { path: `ssh://deploy@web-1${root}`, asDestination: true });
    expect(workspace).toMatchObject({ path: `ssh://deploy@web-1${root}`, destinations: [], issues: [] });
    const event = await settled;
    expect(event).toMatchObject({ event: 'hostState', data: { host: { name: 'web-1', state: 'connected', destinations: 1 } } });
    const [only] = event.event === 'hostState' ? (event.data.destinations ?? []) : [];
    expect(only).toMatchObject({ host: 'web-1', path: root });
    expect(only!.id.startsWith('web-1:')).toBe(true);
    expect(sent[0]).toEqual({ method: 'openWorkspace', request: { path: root, asDestination: true } });
    const { inspection } = await callOk(session, 'inspectDestination', { destination: only!.id });
    expect(inspection).toMatchObject({ path: root, status: 'empty' });
    // No destination named: the journal and the backups of that host, not this machine's.
    await callOk(session, 'listBackups', {});
    await callOk(session, 'history', {});
    expect(sent.slice(-2).map((call) => call.method)).toEqual(['listBackups', 'history']);
  });

  it('says why when the host cannot open the path, with the host name in front as the app shows it', async () => {
    const { root, session, settled } = await sessionReachingAgent();
    await callOk(session, 'openWorkspace', { path: `ssh://web-1${path.join(root, 'not-there.json')}` });
    expect(await settled).toMatchObject({
      data: { host: { state: 'failed', failure: { message: expect.stringMatching(/^web-1: .*not-there\.json: /) } } },
    });
  });
});
