// The handshake's deadline of AgentConnection.connect, on a fake clock (no real wait): a stand-in for ssh
// that prints a login banner and then hangs is stopped when the deadline passes, counted from ssh's start
// (the banner does not extend it), and the connect fails as connect_timeout, naming the host; a connect
// that gets its hello leaves no timer behind.
import { readFileSync, existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../engine/appVersion';
import { AGENT_PROTOCOL_VERSION } from '../../shared/agentProtocol';
import { FakeClock } from '../testing/fakeClock';
import { AgentConnection } from './agentConnection';
import { RemoteFailure } from './sshFailures';
import { processEnd, processEnded } from '../testing/processEnded';

let dir: string;
let hungSsh: string;
let helloSsh: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'handshake-deadline-'));
  hungSsh = path.join(dir, 'hung-ssh');
  // A login banner once the test says (the file `go`), then a remote command that never answers; its pid is
  // what the deadline must end.
  await fs.writeFile(
    hungSsh,
    `#!/bin/sh\necho $$ > ${dir}/hung.pid\nwhile [ ! -e ${dir}/go ]; do sleep 0.02; done\necho "Welcome to web"\nexec sleep 600\n`,
    { mode: 0o755 },
  );
  helloSsh = path.join(dir, 'hello-ssh');
  const hello = JSON.stringify({
    type: 'hello',
    tool: 'distributor-inspector',
    protocol: AGENT_PROTOCOL_VERSION,
    version: 'fake',
    host: 'web',
    platform: 'linux',
  });
  await fs.writeFile(helloSsh, `#!/bin/sh\necho '${hello}'\nexec cat > /dev/null\n`, { mode: 0o755 });
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function until<T>(check: () => T | undefined | false): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the handshake deadline', () => {
  it('stops a host that printed a banner and then hung at the deadline from its start, failing as connect_timeout', async () => {
    const clock = new FakeClock();
    const notices: string[] = [];
    let settled: unknown;
    const connecting = AgentConnection.connect({
      target: { user: 'deploy', host: 'web', port: 2222, path: '/srv' },
      env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: hungSsh },
      clientVersion: APP_VERSION,
      onNotice: (line) => notices.push(line),
      connectTimeoutMs: 5_000,
      connectTimeoutHint: 'allow longer with --connect-timeout SECONDS',
      clock,
    }).then(
      () => (settled = 'connected'),
      (failure: unknown) => (settled = failure),
    );
    const pid = Number(
      await until(() => existsSync(path.join(dir, 'hung.pid')) && readFileSync(path.join(dir, 'hung.pid'), 'utf8').trim()),
    );
    clock.advance(3_000);
    await fs.writeFile(path.join(dir, 'go'), '');
    await until(() => notices.some((line) => line.includes('Welcome to web')));
    // The banner, 3 s in, did not move the deadline: 2 s are left of the 5.
    expect(clock.pending()).toEqual([2_000]);
    clock.advance(1_999);
    expect(settled).toBeUndefined();
    expect(processEnded(pid)).toBe(false);
    clock.advance(1);
    await connecting;
    expect(settled).toBeInstanceOf(RemoteFailure);
    const failure = settled as RemoteFailure;
    expect(failure.code).toBe('connect_timeout');
    expect(failure.message).toMatch(
      /^deploy@web did not complete the agent's handshake within 5 s, so ssh was stopped: it logged in and printed 1 line/,
    );
    expect(failure.message).toContain('ssh -p 2222 -v deploy@web shows where it stops');
    expect(failure.message).toMatch(/or allow longer with --connect-timeout SECONDS\.$/);
    await processEnd(pid);
  });

  it('clears its timer once the hello has come', async () => {
    const clock = new FakeClock();
    const connection = await AgentConnection.connect({
      target: { host: 'web', path: '/srv' },
      env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: helloSsh },
      clientVersion: APP_VERSION,
      clock,
    });
    try {
      expect(connection.hello.host).toBe('web');
      expect(clock.pending()).toEqual([]);
      clock.advance(120_000);
      expect(connection.lost).toBeUndefined();
    } finally {
      await connection.close();
    }
  });
});
