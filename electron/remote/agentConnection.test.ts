// The client against an agent that is not ours: a stand-in for ssh that speaks the agent protocol
// (shared/agentProtocol.ts) over its pipes and answers badly on purpose. Replies, items and results
// its methods' schemas refuse fail that call as agent_protocol, naming the method and the field; a
// flood of events for jobs nobody started drops the host as agent_flood, with the client's peak
// memory measured in a child process of its own.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../engine/appVersion';
import type { HostState } from '../../shared/api';
import { AGENT_PROTOCOL_VERSION } from '../../shared/agentProtocol';
import { Session } from '../service/session';
import { callOk } from '../testing/sessionCalls';
import { AgentConnection } from './agentConnection';
import { sshHostConnector } from './hostConnector';

const here = path.dirname(fileURLToPath(import.meta.url));
let dir: string;
let fakeAgent: string;

/** argv: MODE [COUNT CHARS]. Speaks first, as the agent does, then answers each call as MODE says. */
const FAKE_AGENT = `
let [mode, count, chars] = process.argv.slice(2);
// As the app's stand-in ssh: the mode is the host's name (after ssh's --).
if (mode === 'by-host') [mode, count, chars] = [process.argv[process.argv.indexOf('--') + 1], '60000', '4096'];
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
send({ type: 'hello', tool: 'distributor-inspector', protocol: ${AGENT_PROTOCOL_VERSION}, version: 'fake', host: 'fake', platform: process.platform });
process.stdout.on('error', () => process.exit(0));
async function flood() {
  const padding = 'x'.repeat(Number(chars));
  for (let i = 0; i < Number(count); i++) {
    const line = JSON.stringify({ type: 'event', event: 'progress', data: { job: 'ghost-' + i, done: 0, total: 1, bytes: 0, padding } }) + '\\n';
    if (!process.stdout.write(line)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
  process.stdout.end(() => process.exit(0));
}
if (mode === 'flood') void flood();
let buffered = '';
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf('\\n')) !== -1) {
    const call = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (mode === 'flood') continue;
    if (call.method === 'verify') {
      send({ type: 'reply', id: call.id, result: { ok: true, value: { job: 'job-1' } } });
      const entry = {
        destination: 'site-a',
        inspection: { path: '/srv/site-a', status: 'managed', issues: [], hasContent: true },
        summary: { status: 'managed', outputCount: 0, errorCount: 0, warningCount: 0 },
      };
      const verify = { destination: 'site-a', report: { status: 'intact', outputs: [], extra: [] }, stamp: { verifiedAt: '2026-12-04T06:00:00.000Z', basis: {} } };
      // A protocol 2 agent's item (a report without its row) beside a good one.
      send({ type: 'event', event: 'items', data: { job: 'job-1', method: 'verify', items: [verify, { entry, verify }] } });
      send({ type: 'event', event: 'result', data: { job: 'job-1', method: 'verify', result: { intact: 'all of them' } } });
    } else if (call.method === 'watchDestinations') {
      // One malformed change event, then COUNT good ones at once (a burst, as after a stall).
      send({ type: 'reply', id: call.id, result: { ok: true, value: { complete: true, watching: 2, polling: 0 } } });
      send({ type: 'event', event: 'destinationChanges', data: { destinations: 'every one' } });
      for (let i = 0; i < Number(count); i++)
        send({ type: 'event', event: 'destinationChanges', data: { destinations: ['site-' + (i % 2)], at: new Date().toISOString(), complete: true } });
    } else if (call.method === 'hosts' && mode === 'bad-errors') {
      send({ type: 'reply', id: call.id, result: { ok: false, error: { code: 'no such code', message: 'x' } } });
    } else send({ type: 'reply', id: call.id, result: { ok: true, value: {} } });
  }
});
`;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-connection-'));
  fakeAgent = path.join(dir, 'fake-agent.cjs');
  await fs.writeFile(fakeAgent, FAKE_AGENT);
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function connect(mode: string, notices: string[] = []): Promise<AgentConnection> {
  return AgentConnection.connect({
    target: { host: 'fake', path: '/srv' },
    env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: `${process.execPath} ${fakeAgent} ${mode}` },
    clientVersion: APP_VERSION,
    onNotice: (line) => notices.push(line),
  });
}

describe('AgentConnection against an agent whose replies break the API schemas', () => {
  it('fails a call answered {ok:true,value:{}} as agent_protocol, naming the method and the field', async () => {
    const connection = await connect('bad-replies');
    try {
      const opened = await connection.call('openWorkspace', { path: '/srv' });
      expect(opened.ok).toBe(false);
      if (opened.ok) return;
      expect(opened.error.code).toBe('agent_protocol');
      const field = /^fake: the agent's reply to openWorkspace is malformed at (\S+): /.exec(opened.error.message)?.[1];
      expect(field).toBeDefined();
      expect(opened.error.details).toEqual({ field });
      // The connection is still usable: only that call failed.
      const hosts = await connection.call('hosts', {});
      expect(!hosts.ok && hosts.error.message).toMatch(/the agent's reply to hosts is malformed at hosts: /);
      expect(connection.lost).toBeUndefined();
    } finally {
      await connection.close();
    }
  });

  it('fails a call whose error breaks the API error schema as agent_protocol, instead of waiting for it forever', async () => {
    const notices: string[] = [];
    const connection = await connect('bad-errors', notices);
    try {
      const hosts = await connection.call('hosts', {});
      expect(hosts.ok).toBe(false);
      if (hosts.ok) return;
      expect(hosts.error.code).toBe('agent_protocol');
      expect(hosts.error.message).toMatch(/^fake: the agent's reply to hosts \(an error\) is malformed at code: /);
      expect(hosts.error.details).toEqual({ field: 'code' });
      expect(notices).toEqual([]);
    } finally {
      await connection.close();
    }
  });

  it('fails a job whose result breaks its schema as agent_protocol, and reports a bad item of a batch instead of passing it on', async () => {
    const notices: string[] = [];
    const connection = await connect('bad-results', notices);
    try {
      const items: unknown[] = [];
      const ending = await connection.job('verify', {}, { onItem: (item) => items.push(item) });
      expect(ending.ok).toBe(false);
      if (ending.ok) return;
      expect(ending.error.code).toBe('agent_protocol');
      expect(ending.error.message).toMatch(/^fake: the agent's verify result is malformed at intact: /);
      expect(items).toEqual([expect.objectContaining({ entry: expect.objectContaining({ destination: 'site-a' }) })]);
      expect(notices.some((line) => line.startsWith("fake: the agent's verify item 1 of 2 is malformed at entry"))).toBe(true);
    } finally {
      await connection.close();
    }
  });
});

describe('AgentConnection against an agent that floods events for jobs nobody started', () => {
  let client: string;
  beforeAll(async () => {
    // The client alone in a node process of its own, so its peak memory is the client's.
    const entry = path.join(dir, 'flood-client.ts');
    await fs.writeFile(
      entry,
      [
        `import { readFileSync } from 'node:fs';`,
        `import { AgentConnection } from ${JSON.stringify(path.join(here, 'agentConnection.ts'))};`,
        `const connection = await AgentConnection.connect({ target: { host: 'fake', path: '/srv' }, env: process.env, clientVersion: 'fake' });`,
        `await connection.ended;`,
        `const peak = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));`,
        `console.log(JSON.stringify({ code: connection.lost?.code, message: connection.lost?.message, peakKiB: peak ? Number(peak[1]) : undefined }));`,
      ].join('\n'),
    );
    client = path.join(dir, 'flood-client.mjs');
    await build({
      entryPoints: [entry],
      outfile: client,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
    });
  }, 60_000);

  const runClient = async (agentArgs: string) => {
    const { stdout } = await promisify(execFile)(process.execPath, [client], {
      env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: `${process.execPath} ${fakeAgent} ${agentArgs}` },
      timeout: 120_000,
    });
    return JSON.parse(stdout) as { code?: string; message?: string; peakKiB?: number };
  };

  it.runIf(process.platform === 'linux')(
    'drops the host as agent_flood and keeps its memory bounded: 60,000 events of 4 KiB (240 MB) leave the peak near an idle client',
    async () => {
      const idle = await runClient('flood 0 0');
      expect(idle.code).toBe('connection_lost');
      const flooded = await runClient('flood 60000 4096');
      expect(flooded.code).toBe('agent_flood');
      expect(flooded.message).toContain('fake sent more than 16 MiB of events for jobs whose start was not answered');
      expect(flooded.message).toContain('the connection was dropped');
      // What the client may keep (16 MiB of lines), their parsed copies and the stream's buffers; 240 MB kept would be far past it.
      expect(flooded.peakKiB! - idle.peakKiB!).toBeLessThan(96 * 1024);
    },
    180_000,
  );
});

describe("AgentConnection and the agent's change events", () => {
  it('passes on a burst of checked change events, reports a malformed one, and keeps the host', async () => {
    const notices: string[] = [];
    const connection = await connect('changes 400', notices);
    try {
      const heard: string[][] = [];
      connection.onDestinationChanges((changes) => heard.push(changes.destinations));
      expect(await connection.call('watchDestinations', {})).toEqual({ ok: true, value: { complete: true, watching: 2, polling: 0 } });
      // Answered after every event sent before it: they have all been read.
      await connection.call('appInfo', {});
      expect(heard).toHaveLength(400);
      expect(notices.filter((line) => line.includes("the agent's destinationChanges"))).toHaveLength(1);
      expect(connection.lost).toBeUndefined();
    } finally {
      await connection.close();
    }
  });

  it('drops an agent that sends more change events than any watch could as agent_flood, having passed on no more than the bound', async () => {
    const connection = await connect('changes 5000');
    let heard = 0;
    connection.onDestinationChanges(() => heard++);
    await connection.call('watchDestinations', {});
    await connection.ended;
    expect(connection.lost).toMatchObject({ code: 'agent_flood' });
    expect(connection.lost!.message).toContain('more than 1,000 change events in 10 s');
    // 1,000 counted: the malformed one, then 999 passed on; the 1,001st dropped the host.
    expect(heard).toBe(999);
  });
});

describe("the app's Session with hosts whose agents break the protocol", () => {
  it('fails a host that answers openWorkspace with {ok:true,value:{}} as agent_protocol, and one that floods as agent_flood', async () => {
    const file = path.join(dir, 'hosts.json');
    await fs.writeFile(
      file,
      JSON.stringify({
        hosts: [
          { name: 'garbled', url: 'ssh://bad-replies/srv', agent: 'fake' },
          { name: 'flooding', url: 'ssh://flood/srv', agent: 'fake' },
        ],
      }),
    );
    const session = new Session({
      transport: 'http',
      connectHost: sshHostConnector({ env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: `${process.execPath} ${fakeAgent} by-host` } }),
    });
    try {
      await callOk(session, 'openWorkspace', { path: file });
      const settled = async (): Promise<HostState[]> => {
        const deadline = Date.now() + 60_000;
        for (;;) {
          const { hosts } = await callOk(session, 'hosts', {});
          if (hosts.every((host) => host.state === 'failed' || host.state === 'lost') || Date.now() > deadline) return hosts;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const [garbled, flooding] = await settled();
      expect(garbled).toMatchObject({ name: 'garbled', state: 'failed', failure: { code: 'agent_protocol' } });
      expect(garbled!.failure!.message).toMatch(/garbled: \/srv: bad-replies: the agent's reply to openWorkspace is malformed at \S+: /);
      expect(flooding).toMatchObject({ name: 'flooding', state: 'failed', failure: { code: 'agent_flood' } });
      expect(flooding!.failure!.message).toContain(
        'the agent on flood sent more than 16 MiB of events for jobs whose start was not answered',
      );
    } finally {
      await session.close();
    }
  }, 90_000);
});
