// The agent and the client over a real OpenSSH (issue 15): an sshd of our own on 127.0.0.1
// (electron/testing/sshHarness.ts), the agent from the repo's build, the client as the CLI runs it.
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../demo/demo';
import { runCliCaptured } from '../testing/cliCapture';
import { APP_VERSION } from '../engine/appVersion';
import { makeTempDir } from '../testing/fixtureTrees';
import { sshUnavailableReason, startSshServer, type ClientSetup, type SshServer } from '../testing/sshHarness';

const unavailable = sshUnavailableReason();
if (unavailable) console.log(`skipped the ssh tests: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('the agent over a real OpenSSH', () => {
  let server: SshServer;
  let dir: string;
  let remove: () => Promise<void>;
  let sshCommand: string;

  beforeAll(async () => {
    server = await startSshServer();
    ({ dir, remove } = await makeTempDir('ssh-agent-test'));
    const made = await createDemoWorkspace(path.join(dir, 'demo'));
    expect(made.ok).toBe(true);
    sshCommand = await server.sshCommand();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await remove?.();
  });

  async function cli(argv: string[], setup?: ClientSetup) {
    const env = { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: setup ? await server.sshCommand(setup) : sshCommand };
    return runCliCaptured(argv, { cwd: dir, env });
  }
  const remote = (argv: string[], setup?: ClientSetup) => cli([...argv, '--agent', server.agentCommand], setup);

  it('scan ssh://…/distributor-inspector.json --verify --json gives the very document of the local scan', async () => {
    const file = path.join(dir, 'demo', 'distributor-inspector.json');
    const local = await cli(['scan', file, '--verify', '--json']);
    const over = await remote(['scan', server.url(file), '--verify', '--json']);
    expect(over.code).toBe(local.code);
    expect(JSON.parse(over.stdout).counts).toEqual(JSON.parse(local.stdout).counts);
    expect(JSON.parse(local.stdout).counts.drifted).toBeGreaterThan(0);
    // The same document, but for when each verify was taken.
    const timeless = (text: string) => text.replace(/"verified_at": "[^"]+"/g, '"verified_at": "…"');
    expect(over.stdout).toContain('"verified_at": "20');
    expect(timeless(over.stdout)).toBe(timeless(local.stdout));
  });

  it('scans a workspace file of local destinations and hosts: every host in parallel, each named, a dead one never stopping the rest', async () => {
    const demo = path.join(dir, 'demo');
    const file = path.join(dir, 'mixed-hosts.json');
    await fs.writeFile(
      file,
      JSON.stringify({
        destinations: [{ path: 'demo/destinations/docs-eu' }],
        hosts: [
          { name: 'web-1', url: server.url(path.join(demo, 'distributor-inspector.json')), agent: server.agentCommand },
          { name: 'gone', url: 'ssh://127.0.0.1:1/srv/www', agent: server.agentCommand },
          { name: 'bare', url: server.url(path.join(demo, 'sources')), agent: '/nonexistent/distributor-inspector' },
          { name: 'web-2', url: server.url(path.join(demo, 'destinations')), agent: server.agentCommand },
        ],
      }),
    );
    const demoScan = JSON.parse((await cli(['scan', path.join(demo, 'distributor-inspector.json'), '--verify', '--json'])).stdout);
    const folderScan = JSON.parse((await cli(['scan', path.join(demo, 'destinations'), '--verify', '--json'])).stdout);
    const result = await cli(['scan', file, '--verify', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const document = JSON.parse(result.stdout);
    expect(document.hosts).toEqual([
      {
        name: 'web-1',
        url: server.url(path.join(demo, 'distributor-inspector.json')),
        state: 'scanned',
        destinations: demoScan.destinations.length,
      },
      {
        name: 'gone',
        url: 'ssh://127.0.0.1:1/srv/www',
        state: 'failed',
        destinations: 0,
        error: expect.objectContaining({ code: 'host_unreachable' }),
      },
      {
        name: 'bare',
        url: server.url(path.join(demo, 'sources')),
        state: 'failed',
        destinations: 0,
        error: expect.objectContaining({ code: 'agent_missing' }),
      },
      { name: 'web-2', url: server.url(path.join(demo, 'destinations')), state: 'scanned', destinations: folderScan.destinations.length },
    ]);
    const ids = document.destinations.map((row: { id: string; host?: string }) => [row.host ?? null, row.id]);
    expect(ids).toEqual([
      [null, 'demo/destinations/docs-eu'],
      ...demoScan.destinations.map((row: { id: string }) => ['web-1', `web-1:${row.id}`]),
      ...folderScan.destinations.map((row: { id: string }) => ['web-2', `web-2:${row.id}`]),
    ]);
    // The same verify results as each workspace's own scan, counted together.
    const docsEu = demoScan.destinations.find((row: { id: string }) => row.id === 'docs-eu');
    expect(document.destinations[0].verify).toEqual(docsEu.verify);
    for (const key of ['total', 'managed', 'intact', 'drifted'] as const)
      expect(document.counts[key]).toBe(
        demoScan.counts[key] + folderScan.counts[key] + (key === 'total' || key === 'managed' || key === docsEu.verify.status ? 1 : 0),
      );

    const text = await cli(['scan', file]);
    expect(text.stdout).toMatch(
      /HOSTS\n {2}web-1 \S+: \d+ destinations?\n {2}gone \S+: failed: .*\(host_unreachable\)\n {2}bare \S+: failed: .*\(agent_missing\)\n/,
    );
  }, 60_000);

  it('refuses a --hosts-parallel that is not a count before contacting anything', async () => {
    const result = await cli(['scan', path.join(dir, 'demo'), '--hosts-parallel', '0']);
    expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining('--hosts-parallel must be a whole number from 1 to 256') });
  });

  it('inspect, compare and scan print the same text over ssh as locally', async () => {
    const dest = path.join(dir, 'demo', 'destinations', 'docs-eu');
    const source = path.join(dir, 'demo', 'sources', 'handbook-2026-06');
    for (const [localArgs, remoteArgs] of [
      [
        ['inspect', dest, '--verify'],
        ['inspect', server.url(dest), '--verify'],
      ],
      [
        ['inspect', dest, '--json'],
        ['inspect', server.url(dest), '--json'],
      ],
      [
        ['compare', dest, source],
        ['compare', server.url(dest), server.url(source)],
      ],
      [
        ['compare', dest, source, '--json'],
        ['compare', server.url(dest), server.url(source), '--json'],
      ],
      [
        ['scan', path.join(dir, 'demo', 'destinations')],
        ['scan', server.url(path.join(dir, 'demo', 'destinations'))],
      ],
    ]) {
      const local = await cli(localArgs!);
      const over = await remote(remoteArgs!);
      expect({ args: remoteArgs, code: over.code, stdout: over.stdout }).toEqual({
        args: remoteArgs,
        code: local.code,
        stdout: local.stdout,
      });
    }
  }, 60_000);

  it('replace over ssh plans without changing anything, then with --yes changes the disk on the host', async () => {
    const dest = path.join(dir, 'target');
    const source = path.join(dir, 'demo', 'sources', 'handbook-2026-06');
    await fs.mkdir(dest);
    const dry = await remote(['replace', server.url(dest), server.url(source), '--pipeline', 'p', '--destination', 'd']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Not applied');
    expect(await fs.readdir(dest)).toEqual([]);
    const applied = await remote([
      'replace',
      server.url(dest),
      server.url(source),
      '--pipeline',
      'p',
      '--destination',
      'd',
      '--yes',
      '--json',
    ]);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(JSON.parse(applied.stdout).result.ok).toBe(true);
    const state = JSON.parse(readFileSync(path.join(dest, '.distributor.json'), 'utf8'));
    expect(state).toMatchObject({ pipeline_id: 'p', destination_id: 'd', distributor_version: APP_VERSION });
    const inspected = await remote(['inspect', server.url(dest), '--verify', '--json']);
    expect(JSON.parse(inspected.stdout)).toMatchObject({ status: 'managed', verify: { status: 'intact' } });
  }, 60_000);

  it("asks for a forced apply's destination id named by its host, as the app does", async () => {
    const dest = path.join(dir, 'forced');
    await fs.mkdir(dest);
    await fs.writeFile(path.join(dest, 'keep.txt'), 'mine');
    // The command line asks for the id as the app does, named by its host: the agent's bare id is not it.
    const source = path.join(dir, 'demo', 'sources', 'handbook-2026-06');
    const env = { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: sshCommand };
    const argv = ['replace', server.url(dest), server.url(source), '--force', '--pipeline', 'p', '--destination', 'd'];
    const bare = await runCliCaptured([...argv, '--agent', server.agentCommand], { cwd: dir, env, answer: 'd' });
    expect(bare.asked).toEqual([expect.stringContaining('Type the destination id "127.0.0.1:d" to confirm')]);
    expect(bare.stdout).toContain('Not applied');
    expect(await fs.readFile(path.join(dest, 'keep.txt'), 'utf8')).toBe('mine');
  });

  async function failureOf(argv: string[], setup?: ClientSetup, agent = server.agentCommand) {
    const result = await cli([...argv, '--agent', agent], setup);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    return result.stderr;
  }
  const dest = () => server.url(path.join(dir, 'demo', 'destinations', 'docs-eu'));

  it('names a wrong key as an authentication failure and says to load a key', async () => {
    const stderr = await failureOf(['inspect', dest()], { identity: 'wrong' });
    expect(stderr).toContain('(auth_failed)');
    expect(stderr).toContain('ssh-add');
    expect(stderr).toContain('IdentityFile');
  });

  it('refuses an unknown host key and gives its fingerprint to check', async () => {
    const stderr = await failureOf(['inspect', dest()], { knownHosts: 'empty' });
    expect(stderr).toContain('(host_key_unknown)');
    expect(stderr).toContain(server.hostKeyFingerprint);
    expect(stderr).toContain('never accepts a host key by itself');
  });

  it('refuses a changed host key and gives the fingerprint the host now sends', async () => {
    const stderr = await failureOf(['inspect', dest()], { knownHosts: 'other' });
    expect(stderr).toContain('(host_key_changed)');
    expect(stderr).toContain(server.hostKeyFingerprint);
  });

  it('names a missing agent and gives the install command', async () => {
    const stderr = await failureOf(['inspect', dest()], undefined, '/nonexistent/distributor-inspector');
    expect(stderr).toContain('(agent_missing)');
    expect(stderr).toContain('npm install -g distributor-inspector');
  });

  it('refuses an agent of another protocol version, naming both versions', async () => {
    const fake = path.join(dir, 'old-agent.sh');
    await fs.writeFile(
      fake,
      `#!/bin/sh\necho '{"type":"hello","tool":"distributor-inspector","protocol":999,"version":"9.9.9","host":"far","platform":"linux"}'\ncat >/dev/null\n`,
      { mode: 0o755 },
    );
    const stderr = await failureOf(['inspect', dest()], undefined, fake);
    expect(stderr).toContain('(agent_incompatible)');
    expect(stderr).toContain('9.9.9');
    expect(stderr).toContain(`npm install -g distributor-inspector@${APP_VERSION}`);
  });

  it('skips and reports a login banner printed before the handshake, then works', async () => {
    const chatty = path.join(dir, 'chatty-agent.sh');
    await fs.writeFile(
      chatty,
      `#!/bin/sh\necho 'Welcome to far.example'\nprintf 'motd \\033[1mbold\\033[0m\\n'\nexec ${server.agentCommand} "$@"\n`,
      {
        mode: 0o755,
      },
    );
    const result = await cli(['inspect', dest(), '--json', '--agent', chatty]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).status).toBe('managed');
    expect(result.stderr).toContain("skipped a line before the agent's handshake");
    expect(result.stderr).toContain('Welcome to far.example');
  });

  it('names an unreachable host', async () => {
    const result = await cli(['inspect', 'ssh://127.0.0.1:1/tmp', '--agent', server.agentCommand]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(host_unreachable)');
  });
});
