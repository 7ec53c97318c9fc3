// The Session's routing to workspace hosts (issue 15) with fake hosts: a stand-in for ssh that runs
// the real agent (the repo's build) over its pipes on this machine, or fails the way ssh fails for a
// host that is down, or hangs like a slow one. The client side is the app's own (sshHostConnector).
import { promises as fs, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, DestinationRead, HostState } from '../../shared/api';
import { Session } from '../service/session';
import { callOk, jobEnd, jobItems } from '../testing/sessionCalls';
import { makeFixtureWorkspace, type FixtureWorkspace } from '../testing/sessionFixtures';
import { ensureBuiltCli } from '../testing/sshHarness';
import { FakeClock } from '../testing/fakeClock';
import { sshHostConnector } from './hostConnector';
import { processEnd, processEnded } from '../testing/processEnded';

let fixture: FixtureWorkspace;
let dir: string;
let agent: string;
let fakeSsh: string;

beforeAll(async () => {
  fixture = await makeFixtureWorkspace({ bigOutputBytes: 2 * 1024 ** 3 });
  dir = path.dirname(fixture.workspace);
  agent = `${process.execPath} ${await ensureBuiltCli()}`;
  fakeSsh = path.join(dir, 'fake-ssh');
  // ssh's arguments end with `-- HOST COMMAND`: run COMMAND here, as sshd would there.
  await fs.writeFile(
    fakeSsh,
    [
      '#!/bin/sh',
      'for last; do :; done',
      'host=$(eval "echo \\${$(($# - 1))}")',
      'case "$host" in',
      '  down) echo "ssh: connect to host down port 22: Connection refused" >&2; exit 255 ;;',
      // The hung host's pid (the sleep, once exec'd): what closing the workspace must stop.
      `  slow) echo $$ > ${dir}/slow.pid; exec sleep 600 ;;`,
      'esac',
      // The agent itself gets the pid file: killing it is the connection lost mid-job.
      `exec sh -c "echo \\$\\$ > ${dir}/$host.pid; exec $last"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  await fs.writeFile(
    path.join(dir, 'distributor-inspector.json'),
    JSON.stringify({
      destinations: [{ path: 'workspace/empty-one' }],
      hosts: [
        { name: 'web-1', url: `ssh://web-1${fixture.workspace}`, agent },
        { name: 'down', url: 'ssh://down/srv/www', agent },
        { name: 'slow', url: 'ssh://slow/srv/www', agent },
        { name: 'web-2', url: `ssh://web-2${fixture.workspace}`, agent },
      ],
    }),
  );
}, 180_000);
afterAll(() => fixture?.remove());

let sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  sessions = [];
});

/** `handshakeClock`: the connects' deadline runs on it (else the real 60 s, which no test here reaches). */
function open(handshakeClock?: FakeClock): { session: Session; events: ApiEvent[] } {
  const session = new Session({
    transport: 'http',
    connectHost: sshHostConnector({
      env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: fakeSsh, XDG_STATE_HOME: path.join(dir, 'state') },
      ...(handshakeClock ? { clock: handshakeClock } : {}),
    }),
    progressIntervalMs: 0,
    // A lost host's automatic tries wait on this clock, which no test here moves: each reconnect is the test's own.
    reconnectClock: new FakeClock(),
  });
  sessions.push(session);
  const events: ApiEvent[] = [];
  session.onEvent((event) => events.push(event));
  return { session, events };
}

async function until<T>(check: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function hostState(session: Session, name: string): Promise<HostState> {
  return (await callOk(session, 'hosts', {})).hosts.find((host) => host.name === name)!;
}

async function connected(session: Session, ...names: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const states = (await callOk(session, 'hosts', {})).hosts;
    if (names.every((name) => states.find((host) => host.name === name)?.state === 'connected')) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not connected: ${names.join(', ')}`);
}

describe('a workspace with hosts, in the Session', () => {
  it('connects every host at once: a down host fails by name and a hung one stays connecting, neither holding up the others', async () => {
    const { session, events } = open();
    const opened = await callOk(session, 'openWorkspace', { path: path.join(dir, 'distributor-inspector.json') });
    expect(opened.destinations.map((entry) => entry.id)).toEqual(['workspace/empty-one']);
    expect(opened.issues.map((issue) => issue.code)).not.toContain('host_not_shown');
    await connected(session, 'web-1', 'web-2');
    const down = await hostState(session, 'down');
    expect(down.state).toBe('failed');
    expect(down.failure?.code).toBe('host_unreachable');
    expect(down.failure?.message).toMatch(/cannot reach down/);
    expect((await hostState(session, 'slow')).state).toBe('connecting');
    const web1 = await hostState(session, 'web-1');
    expect(web1.agent?.version).toBeTruthy();
    expect(web1.destinations).toBe(5);
    const hostEvents = events.filter((event) => event.event === 'hostState');
    const arrived = hostEvents.find(
      (event) => event.event === 'hostState' && event.data.host.name === 'web-1' && event.data.host.state === 'connected',
    );
    expect(arrived?.event === 'hostState' && arrived.data.destinations?.map((entry) => entry.id).sort()).toEqual([
      'web-1:big',
      'web-1:broken',
      'web-1:empty-one',
      'web-1:loose',
      'web-1:site-a',
    ]);
    const info = await callOk(session, 'appInfo', {});
    const siteA = info.workspace!.destinations.find((entry) => entry.id === 'web-2:site-a');
    expect(siteA).toMatchObject({ host: 'web-2', path: path.join(fixture.workspace, 'site-a') });
  }, 60_000);

  it('closing the workspace stops the ssh of a host still waiting for its handshake, and all it started', async () => {
    await fs.rm(path.join(dir, 'slow.pid'), { force: true });
    const { session } = open();
    await callOk(session, 'openWorkspace', { path: path.join(dir, 'distributor-inspector.json') });
    const pid = Number(
      await until(() => existsSync(path.join(dir, 'slow.pid')) && readFileSync(path.join(dir, 'slow.pid'), 'utf8').trim()),
    );
    expect((await hostState(session, 'slow')).state).toBe('connecting');
    expect(processEnded(pid)).toBe(false);
    await session.close();
    await processEnd(pid);
  }, 60_000);

  it('fails a host whose agent never says hello after the deadline, naming it and what to try, and ends its ssh', async () => {
    await fs.rm(path.join(dir, 'slow.pid'), { force: true });
    const clock = new FakeClock();
    const { session, events } = open(clock);
    await callOk(session, 'openWorkspace', { path: path.join(dir, 'distributor-inspector.json') });
    const pid = Number(
      await until(() => existsSync(path.join(dir, 'slow.pid')) && readFileSync(path.join(dir, 'slow.pid'), 'utf8').trim()),
    );
    await connected(session, 'web-1', 'web-2');
    clock.advance(59_999);
    expect((await hostState(session, 'slow')).state).toBe('connecting');
    clock.advance(1);
    await until(() =>
      events.some((event) => event.event === 'hostState' && event.data.host.name === 'slow' && event.data.host.state === 'failed'),
    );
    const slow = await hostState(session, 'slow');
    expect(slow.failure?.code).toBe('connect_timeout');
    expect(slow.failure?.message).toMatch(/^slow did not complete the agent's handshake within 60 s, so ssh was stopped/);
    expect(slow.failure?.message).toContain('ssh -v slow shows where it stops');
    await processEnd(pid);
    expect((await hostState(session, 'web-1')).state).toBe('connected');
    expect(clock.pending()).toEqual([]);
  }, 60_000);

  it('scans this machine and every connected host in one job, rows named by host, counts added up', async () => {
    const { session, events } = open();
    await callOk(session, 'openWorkspace', { path: path.join(dir, 'distributor-inspector.json') });
    await connected(session, 'web-1', 'web-2');
    const { job } = await callOk(session, 'scan', {});
    const end = await jobEnd(session, job, events);
    expect(end.event).toBe('result');
    const rows = jobItems(events, job) as { destination: string }[];
    expect(rows.map((row) => row.destination).sort()).toEqual([
      'web-1:big',
      'web-1:broken',
      'web-1:empty-one',
      'web-1:loose',
      'web-1:site-a',
      'web-2:big',
      'web-2:broken',
      'web-2:empty-one',
      'web-2:loose',
      'web-2:site-a',
      'workspace/empty-one',
    ]);
    expect(end.event === 'result' && end.data.result).toEqual({ counts: { total: 11, empty: 3, unmanaged: 2, managed: 4, invalid: 2 } });
    const failed = await session.call('scan', { destinations: ['down:x'] });
    expect(failed.ok).toBe(false);
    const unavailable = await session.call('inspectDestination', { destination: 'web-1:nope' });
    expect(!unavailable.ok && unavailable.error.code).toBe('not_found');
  }, 60_000);

  it('routes inspect, compare, a forced replace (typed NAME:ID) and history to the host, and the disk there changes', async () => {
    const { session, events } = open();
    await callOk(session, 'openWorkspace', { path: path.join(dir, 'distributor-inspector.json') });
    await connected(session, 'web-1');
    const inspected = await callOk(session, 'inspectDestination', { destination: 'web-1:site-a' });
    expect(inspected.destination).toMatchObject({ id: 'web-1:site-a', host: 'web-1' });
    expect(inspected.inspection.status).toBe('managed');
    const compared = await callOk(session, 'compare', { destination: 'web-1:site-a', source: fixture.source });
    expect(compared.comparison.decision).toBe('replace');
    const diff = await callOk(session, 'contentDiff', { destination: 'web-1:site-a', path: 'style.css' });
    expect(diff.verdict).toBeDefined();
    const planned = await callOk(session, 'planReplace', { destination: 'web-1:site-a', mode: 'force', source: fixture.source });
    expect(planned.confirmText).toBe('web-1:site-a');
    const unconfirmed = await session.call('applyPlan', { planId: planned.planId, confirm: 'site-a' });
    expect(!unconfirmed.ok && unconfirmed.error.code).toBe('confirmation_required');
    expect(!unconfirmed.ok && unconfirmed.error.message).toMatch(/on host web-1: type the destination id "web-1:site-a"/);
    expect(existsSync(path.join(fixture.workspace, 'site-a', 'about.html'))).toBe(false);
    const { job } = await callOk(session, 'applyPlan', { confirmed: true, planId: planned.planId, confirm: 'web-1:site-a' });
    const end = await jobEnd(session, job, events);
    expect(end.event === 'result' && (end.data.result as { ok: boolean }).ok).toBe(true);
    expect((jobItems(events, job)[0] as { entry: { destination: string } }).entry.destination).toBe('web-1:site-a');
    expect(existsSync(path.join(fixture.workspace, 'site-a', 'about.html'))).toBe(true);
    const again = await session.call('applyPlan', { confirmed: true, planId: planned.planId, confirm: 'web-1:site-a' });
    expect(!again.ok && again.error.code).toBe('not_found');
    const history = await callOk(session, 'history', { destination: 'web-1:site-a' });
    expect(history.records.at(-1)?.result.outcome).toBe('applied');
  }, 60_000);

  it("lists a host's backups from its agent, kept on that host beside its workspace, and plans a repair there (refused by the host's agent, named by its host)", async () => {
    const { session } = open();
    await callOk(session, 'openWorkspace', { path: path.join(dir, 'distributor-inspector.json') });
    await connected(session, 'web-1');
    // Read only, so asked of the host's agent: where its next apply there keeps a backup, on that host.
    const listed = await callOk(session, 'listBackups', { destination: 'web-1:site-a' });
    expect(listed.target?.enabled === true && listed.target.folder).toContain(fixture.workspace);
    // The forced replace routed to the host (the test above) kept its backup there, beside that workspace.
    for (const backup of listed.backups) expect(backup.folder.startsWith(path.join(fixture.workspace, '.inspector-backups'))).toBe(true);
    // This machine's destination is listed here.
    expect((await session.call('listBackups', { destination: 'workspace/empty-one' })).ok).toBe(true);
    // A repair of a host destination is planned on the host: an unmanaged folder there is refused by the host's agent, by name.
    const refused = await session.call('planRepair', { destination: 'web-1:loose', source: fixture.source });
    expect(!refused.ok && refused.error.message).toMatch(/^web-1: /);
  }, 60_000);

  it('ends a verify as connection_lost when a host goes mid-job, keeps the other host results, and reconnects', async () => {
    const { session, events } = open();
    await callOk(session, 'openWorkspace', { path: path.join(dir, 'distributor-inspector.json') });
    await connected(session, 'web-1', 'web-2');
    const { job } = await callOk(session, 'verify', { destinations: ['web-1:big', 'web-2:site-a'] });
    await until(() => jobItems(events, job).length > 0);
    await until(() => events.some((event) => event.event === 'progress' && event.data.job === job && event.data.bytes > 0));
    const pid = Number(await fs.readFile(path.join(dir, 'web-1.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    const end = await jobEnd(session, job, events);
    expect(end.event).toBe('error');
    expect(end.event === 'error' && end.data.error).toMatchObject({ code: 'connection_lost' });
    expect(end.event === 'error' && end.data.error.message).toMatch(
      /web-1: the connection to web-1 was lost .*outcome is unknown.*results of the other hosts are in/,
    );
    const verified = (jobItems(events, job) as DestinationRead[]).map((item) => [item.entry.destination, item.verify?.destination]);
    expect(verified).toEqual([['web-2:site-a', 'web-2:site-a']]);
    const state = await (async () => {
      for (let i = 0; i < 200; i++) {
        const now = await hostState(session, 'web-1');
        if (now.state === 'lost') return now;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return hostState(session, 'web-1');
    })();
    expect(state.state).toBe('lost');
    expect(state.failure?.code).toBe('connection_lost');
    expect((await hostState(session, 'web-2')).state).toBe('connected');
    const refused = await session.call('inspectDestination', { destination: 'web-1:site-a' });
    expect(!refused.ok && refused.error.code).toBe('host_unavailable');
    // A try under way: still "lost" (its count kept, no countdown) until it answers.
    const trying = await callOk(session, 'reconnectHost', { name: 'web-1' });
    expect(trying).toMatchObject({ state: 'lost', retries: 0 });
    expect(trying.retryAt).toBeUndefined();
    await connected(session, 'web-1');
    expect((await callOk(session, 'inspectDestination', { destination: 'web-1:site-a' })).destination.host).toBe('web-1');
  }, 90_000);

  it('adds a host to the workspace file from the dialog fields, naming every bad field, and connects it', async () => {
    const file = path.join(dir, 'add-host.json');
    await fs.writeFile(file, `{\n    "destinations": [{ "path": "workspace/loose" }],\n    "note": "kept"\n}\n`);
    const { session } = open();
    await callOk(session, 'openWorkspace', { path: file });
    const bad = await session.call('addHost', { name: '-x', target: '-oProxyCommand=evil', path: 'srv/www', agent: ' ' });
    expect(bad.ok).toBe(false);
    const issues = !bad.ok ? (bad.error.details?.issues as { path: string[]; code: string }[]) : [];
    expect(issues.map((issue) => issue.path[0])).toEqual(['name', 'target', 'path', 'agent']);
    expect(await fs.readFile(file, 'utf8')).not.toContain('hosts');
    const added = await callOk(session, 'addHost', { name: 'web-3', target: 'web-3', path: fixture.workspace, agent });
    expect(added.host).toMatchObject({ name: 'web-3', url: `ssh://web-3${fixture.workspace}` });
    const saved = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(saved.note).toBe('kept');
    expect(saved.hosts).toEqual([{ name: 'web-3', url: `ssh://web-3${fixture.workspace}`, agent }]);
    expect(await fs.readFile(file, 'utf8')).toMatch(/^\{\n {4}"destinations"/);
    await connected(session, 'web-3');
    expect((await callOk(session, 'appInfo', {})).workspace!.destinations.some((entry) => entry.id === 'web-3:site-a')).toBe(true);
    const twice = await session.call('addHost', { name: 'web-3', target: 'other', path: '/srv' });
    expect(!twice.ok && twice.error.message).toMatch(/name: host name "web-3" is already in the workspace file/);
  }, 60_000);
});
