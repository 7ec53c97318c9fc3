// The app's Session with two workspace hosts over a real OpenSSH (issue 15): two sshd of our own on
// 127.0.0.1 (electron/testing/sshHarness.ts), named by aliases in one client config as an operator's
// ~/.ssh/config would, the agent from the repo's build. Skipped, with the reason, where sshd cannot run.
import { existsSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, HostState } from '../../shared/api';
import { Session } from '../service/session';
import { callOk, jobEnd } from '../testing/sessionCalls';
import { makeFixtureWorkspace, type FixtureWorkspace } from '../testing/sessionFixtures';
import { sshConfigOf, sshUnavailableReason, startSshServer, type SshServer } from '../testing/sshHarness';
import { sshHostConnector } from './hostConnector';

const unavailable = sshUnavailableReason();
if (unavailable) console.log(`skipped the ssh host tests: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('workspace hosts over a real OpenSSH, in the Session', () => {
  let servers: SshServer[] = [];
  let fixtures: FixtureWorkspace[] = [];
  let local: FixtureWorkspace;
  let workspaceFile: string;
  let sshCommand: string;

  beforeAll(async () => {
    servers = await Promise.all([startSshServer(), startSshServer()]);
    fixtures = await Promise.all([makeFixtureWorkspace({ bigOutputBytes: 4 * 1024 ** 3 }), makeFixtureWorkspace()]);
    local = await makeFixtureWorkspace();
    const dir = path.dirname(local.workspace);
    sshCommand = await sshConfigOf(dir, [
      { alias: 'web-1', server: servers[0]! },
      { alias: 'web-2', server: servers[1]! },
    ]);
    workspaceFile = path.join(dir, 'distributor-inspector.json');
    await fs.writeFile(
      workspaceFile,
      JSON.stringify({
        destinations: [{ path: 'workspace/site-a', source: 'sources/site-a' }],
        hosts: [
          { name: 'web-1', url: `ssh://web-1${fixtures[0]!.workspace}`, agent: servers[0]!.agentCommand },
          { name: 'web-2', url: `ssh://web-2${fixtures[1]!.workspace}`, agent: servers[1]!.agentCommand },
        ],
      }),
    );
  }, 180_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all([...fixtures, local].map((fixture) => fixture?.remove()));
  });

  it('lists both hosts, verifies and force-replaces on one, and when its sshd is killed mid-verify that host is lost while the other is untouched', async () => {
    const session = new Session({
      transport: 'http',
      connectHost: sshHostConnector({ env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: sshCommand } }),
    });
    const events: ApiEvent[] = [];
    session.onEvent((event) => events.push(event));
    try {
      await callOk(session, 'openWorkspace', { path: workspaceFile });
      const states = async (): Promise<HostState[]> => (await callOk(session, 'hosts', {})).hosts;
      const until = async (check: (hosts: HostState[]) => boolean) => {
        const deadline = Date.now() + 60_000;
        while (!check(await states())) {
          if (Date.now() > deadline) throw new Error(`hosts: ${JSON.stringify(await states())}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      await until((hosts) => hosts.every((host) => host.state === 'connected'));

      const { job: verifyAll } = await callOk(session, 'verify', { destinations: ['workspace/site-a', 'web-1:site-a', 'web-2:site-a'] });
      const verified = await jobEnd(session, verifyAll, events);
      expect(verified.event === 'result' && verified.data.result).toEqual({ intact: 3, drifted: 0, skipped: 0 });

      const planned = await callOk(session, 'planReplace', { destination: 'web-2:site-a', mode: 'force', source: fixtures[1]!.source });
      expect(planned.confirmText).toBe('web-2:site-a');
      const { job: apply } = await callOk(session, 'applyPlan', { planId: planned.planId, confirm: 'web-2:site-a' });
      const applied = await jobEnd(session, apply, events);
      expect(applied.event === 'result' && (applied.data.result as { ok: boolean }).ok).toBe(true);
      expect(existsSync(path.join(fixtures[1]!.workspace, 'site-a', 'about.html'))).toBe(true);
      expect(existsSync(path.join(local.workspace, 'site-a', 'about.html'))).toBe(false);

      const { job } = await callOk(session, 'verify', { destinations: ['web-1:big', 'web-2:site-a'] });
      const deadline = Date.now() + 30_000;
      while (!events.some((event) => event.event === 'progress' && event.data.job === job && event.data.bytes > 0) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      servers[0]!.killAll();
      const end = await jobEnd(session, job, events);
      expect(end.event === 'error' && end.data.error.code).toBe('connection_lost');
      await until((hosts) => hosts.find((host) => host.name === 'web-1')?.state === 'lost');
      const [, web2] = await states();
      // Lost as connection_lost (it is then tried again by itself: each try's failure follows).
      const lost = events.find(
        (event) => event.event === 'hostState' && event.data.host.name === 'web-1' && event.data.host.state === 'lost',
      );
      expect(lost?.event === 'hostState' && lost.data.host.failure?.code).toBe('connection_lost');
      expect(web2!.state).toBe('connected');
      expect((await callOk(session, 'inspectDestination', { destination: 'web-2:site-a' })).inspection.status).toBe('managed');
      const refused = await session.call('verify', { destinations: ['web-1:site-a'] });
      expect(!refused.ok && refused.error.code).toBe('host_unavailable');
      // Reconnecting to a host whose sshd is gone fails by name; it stays lost, its next try counted down.
      await callOk(session, 'reconnectHost', { name: 'web-1' });
      await until((hosts) => hosts[0]!.failure?.code === 'host_unreachable' && hosts[0]!.retryAt !== undefined);
      expect((await states())[0]).toMatchObject({ state: 'lost', retries: expect.any(Number) });
    } finally {
      await session.close();
    }
  }, 180_000);
});
