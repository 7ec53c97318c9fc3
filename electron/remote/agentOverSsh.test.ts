// The agent's own answers over a real OpenSSH (issue 15), asked through an AgentConnection as the
// Session's connector makes it: an sshd of our own on 127.0.0.1 (electron/testing/sshHarness.ts), the
// agent from the repo's build. What the command line prints over ssh is electron/cli/remoteCommands.test.ts.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '../engine/appVersion';
import { writeBundle } from '../testing/fixtures';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { sshUnavailableReason, startSshServer, type SshServer } from '../testing/sshHarness';
import { AgentConnection } from './agentConnection';
import { RemoteFailure } from './sshFailures';

const unavailable = sshUnavailableReason();
if (unavailable) console.log(`skipped the agent ssh tests: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('the agent over a real OpenSSH, asked through its connection', () => {
  let server: SshServer;
  let dir: string;
  let remove: () => Promise<void>;
  let sshCommand: string;

  beforeAll(async () => {
    server = await startSshServer();
    ({ dir, remove } = await makeTempDir('agent-ssh-test'));
    sshCommand = await server.sshCommand();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await remove?.();
  });

  function connectOptions(extra: Partial<Parameters<typeof AgentConnection.connect>[0]> = {}) {
    return {
      target: { host: '127.0.0.1', port: server.port, path: '/' },
      agent: server.agentCommand,
      env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: sshCommand },
      clientVersion: APP_VERSION,
      ...extra,
    };
  }

  it('refuses a forced apply without the typed destination id, as the local session does', async () => {
    const dest = path.join(dir, 'forced');
    await fs.mkdir(dest);
    await fs.writeFile(path.join(dest, 'keep.txt'), 'mine');
    const source = path.join(dir, 'bundle');
    await writeBundle(source, { 'index.html': 'published' });
    const connection = await AgentConnection.connect(connectOptions());
    try {
      const opened = await connection.call('openWorkspace', { path: dest, asDestination: true });
      if (!opened.ok) throw new Error(opened.error.message);
      const planned = await connection.call('planReplace', {
        destination: opened.value.destinations[0]!.id,
        mode: 'force',
        source,
        pipelineId: 'p',
        destinationId: 'd',
      });
      if (!planned.ok) throw new Error(planned.error.message);
      const refused = await connection.call('applyPlan', { confirmed: true, planId: planned.value.planId, confirm: 'wrong' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'confirmation_required' } });
      const outside = await connection.call('inspectDestination', { destination: '../etc' });
      expect(outside).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(await connection.call('revealPath', { destination: 'forced' })).toMatchObject({ ok: false, error: { code: 'not_available' } });
    } finally {
      await connection.close();
    }
    expect(await fs.readFile(path.join(dest, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('reports a connection lost mid-verify as an unknown outcome, with what to do', async () => {
    const big = path.join(dir, 'big');
    await fs.mkdir(big);
    const files: Record<string, string> = {};
    for (let index = 0; index < 40; index++) files[`f${index}.bin`] = 'x'.repeat(2 * 1024 * 1024);
    writeManagedDestination(big, files);
    const connection = await AgentConnection.connect(connectOptions());
    const opened = await connection.call('openWorkspace', { path: big, asDestination: true });
    if (!opened.ok) throw new Error(opened.error.message);
    let running: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (running = resolve));
    const verifying = connection.job('verify', {}, { onProgress: () => running() });
    // The job runs on the host (its first progress came); the host goes away before it can answer.
    await started;
    server.killAll();
    const failure = await verifying.then(
      () => undefined,
      (cause: unknown) => cause,
    );
    expect(failure).toBeInstanceOf(RemoteFailure);
    expect((failure as RemoteFailure).code).toBe('connection_lost');
    expect((failure as RemoteFailure).message).toContain('outcome is unknown');
    expect((failure as RemoteFailure).message).toContain('stale');
    await connection.close();
    // Later tests of this file would need a fresh server: this one runs last.
  }, 60_000);
});
