// The command line and the app answer from one service (issue 25), on the demo in real temp folders:
// for every destination, `compare --json` run in the demo folder (the workspace found from there)
// decides what the Session decides; a forced replace there needs no ids; `history` shows the app's
// applies and the CLI's; and without a workspace a CLI apply keeps a backup whose printed Undo line,
// run by a shell as printed, puts the bytes back (and runs nothing hidden in a folder's name). Over a
// real sshd, a destination on a host gets the same answer, and the same refusal, from both.

import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, DestinationEntry, ScanEntry } from '../../shared/api';
import { Session } from '../service/session';
import { makeDemoFixture, type DemoFixture } from '../testing/demoFixture';
import { callOk, jobEnd } from '../testing/sessionCalls';
import { runCliCaptured } from '../testing/cliCapture';
import { makeTempDir, removeTempDir, snapshotTree, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { ensureBuiltCli, sshUnavailableReason, startSshServer } from '../testing/sshHarness';
import { sshHostConnector } from '../remote/hostConnector';
import { samplePoints, withReplayHint } from '../testing/testSampling';

let demo: DemoFixture;
let env: Record<string, string>;
beforeAll(async () => {
  demo = await makeDemoFixture('one-door-');
  env = { NO_COLOR: '1', HOME: demo.dir, XDG_STATE_HOME: path.join(demo.dir, 'state') };
}, 60_000);
afterAll(async () => demo.remove());

const cliInDemo = (argv: string[]) => runCliCaptured(argv, { cwd: demo.root, env });

describe('one door: the command line and the app agree', () => {
  it('decides with compare --json what the Session decides, for every destination of the demo, the workspace found from the current folder', async () => {
    const session = new Session({ transport: 'http' });
    try {
      const workspace = await callOk(session, 'openWorkspace', { path: demo.workspaceFile });
      expect(workspace.destinations.length).toBeGreaterThan(10);
      for (const destination of workspace.destinations) {
        const app = await session.call('compare', { destination: destination.id });
        const cli = await cliInDemo(['compare', path.relative(demo.root, destination.path), '--json']);
        if (!app.ok) {
          // No configured source (or one that does not read): the CLI says so as an input error.
          expect(cli.code, `${destination.id}: ${cli.stdout}${cli.stderr}`).toBe(2);
          continue;
        }
        const { comparison } = app.value as { comparison: { decision: string; reason?: string } };
        const document = JSON.parse(cli.stdout) as { decision: string; reason?: string };
        expect({ id: destination.id, decision: document.decision, reason: document.reason }).toEqual({
          id: destination.id,
          decision: comparison.decision,
          reason: comparison.reason,
        });
        expect(cli.stderr, destination.id).not.toContain('no workspace');
      }
    } finally {
      await session.close();
    }
  }, 120_000);

  it("reads every destination of the demo as the app does: scan --json rows and inspect --json answers equal the Session's", async () => {
    const session = new Session({ transport: 'http', statCacheFile: false });
    try {
      await callOk(session, 'openWorkspace', { path: demo.workspaceFile });
      const events: ApiEvent[] = [];
      session.onEvent((event) => events.push(event));
      const { job } = await callOk(session, 'scan', {});
      expect((await jobEnd(session, job, events)).event).toBe('result');
      const app = new Map(
        events.flatMap((event) =>
          event.event === 'items' && event.data.job === job
            ? event.data.items.map((item) => [(item as ScanEntry).destination, item as ScanEntry] as const)
            : [],
        ),
      );
      const scan = await cliInDemo(['scan', demo.workspaceFile, '--json']);
      const document = JSON.parse(scan.stdout) as {
        destinations: { id: string; status: string; outputCount: number; errorCount: number; warningCount: number; sync?: unknown }[];
      };
      expect(document.destinations.map((row) => row.id)).toEqual([...app.keys()]);
      for (const row of document.destinations) {
        const entry = app.get(row.id)!;
        const { status, outputCount, errorCount, warningCount } = entry.summary;
        expect({
          id: row.id,
          status: row.status,
          outputCount: row.outputCount,
          errorCount: row.errorCount,
          warningCount: row.warningCount,
          sync: row.sync,
        }).toEqual({
          id: row.id,
          status,
          outputCount,
          errorCount,
          warningCount,
          sync: entry.sync,
        });
        const answer = await callOk(session, 'inspectDestination', { destination: row.id });
        const inspect = await cliInDemo(['inspect', answer.destination.path, '--json']);
        const read = JSON.parse(inspect.stdout) as { status: string; issues: unknown[] };
        expect({ id: row.id, status: read.status, issues: read.issues }).toEqual({
          id: row.id,
          status: answer.inspection.status,
          issues: answer.inspection.issues,
        });
      }
    } finally {
      await session.close();
    }
  }, 180_000);

  it('applies a forced replace of a destination the workspace configures with no ids given, and history shows the app and the CLI', async () => {
    // docs-mirror holds another destination id: only the workspace's configured ids make a plan.
    const forced = await cliInDemo(['replace', 'destinations/docs-mirror', '--force', '--yes', '--json']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout).result).toMatchObject({ ok: true, mode: 'force' });

    const session = new Session({ transport: 'http' });
    try {
      await callOk(session, 'openWorkspace', { path: demo.workspaceFile });
      const events: ApiEvent[] = [];
      session.onEvent((event) => events.push(event));
      const { planId } = await callOk(session, 'planReplace', { destination: 'docs-us', mode: 'replace' });
      const { job } = await callOk(session, 'applyPlan', { confirmed: true, planId });
      const end = await jobEnd(session, job, events);
      expect(end).toMatchObject({ event: 'result', data: { result: { ok: true } } });
    } finally {
      await session.close();
    }

    const listed = await cliInDemo(['history', '--json']);
    expect(listed.code).toBe(0);
    const records = JSON.parse(listed.stdout).records as { destination: { id?: string }; transport: string; action: string }[];
    expect(records.map((record) => [record.destination.id, record.action, record.transport])).toEqual([
      ['docs-mirror', 'force', 'cli'],
      ['docs-us', 'replace', 'http'],
    ]);
    // history DEST from elsewhere finds the journal of the workspace that holds DEST.
    const elsewhere = await runCliCaptured(['history', path.join(demo.root, 'destinations', 'docs-us'), '--json'], { cwd: demo.dir, env });
    expect(JSON.parse(elsewhere.stdout).records.map((record: { transport: string }) => record.transport)).toEqual(['http']);
  }, 120_000);
});

describe('one door: the same safety without a workspace', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir('one-door-bare-');
  });
  afterAll(async () => removeTempDir(dir));

  it('keeps a backup of a CLI apply in the state folder, and its Undo line run by sh as printed restores the bytes', async () => {
    const cli = await ensureBuiltCli();
    const old = await writeBundle(path.join(dir, 'old'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
    // A folder name a careless Undo line would run: pasted, it must name the folder and run nothing.
    const dest = path.join(dir, "site x $(touch pwned) 'q'");
    await writeManagedDestination(dest, { manifest: old, outputs: { 'report.html': 'old' }, extras: { 'notes.txt': 'kept by hand' } });
    await writeBundle(path.join(dir, 'src'), { 'report.md': '# New' }, { created: '2026-06-05T09:00:00Z' });
    const before = await snapshotTree(dest);
    const state = path.join(dir, 'state');
    const bareEnv = { NO_COLOR: '1', HOME: dir, XDG_STATE_HOME: state };

    const replaced = await runCliCaptured(['replace', dest, 'src', '--force', '--yes'], { cwd: dir, env: bareEnv });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stderr.match(/no workspace/g)).toHaveLength(1);
    expect(replaced.stdout).toContain(`Backup: what this removes is kept in ${path.join(state, 'distributor-inspector', 'backups')}`);
    expect(await snapshotTree(dest)).not.toBe(before);
    const undo = /^Undo: (.*)$/m.exec(replaced.stdout)?.[1];
    expect(undo).toBeDefined();

    // `distributor-inspector` on the PATH is the built CLI; the line runs from another folder, as pasted.
    const bin = path.join(dir, 'bin');
    await fs.mkdir(bin);
    await fs.writeFile(path.join(bin, 'distributor-inspector'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`, { mode: 0o755 });
    const elsewhere = path.join(dir, 'elsewhere');
    await fs.mkdir(elsewhere);
    // As printed, plus --yes: without a terminal the restore would only show its plan.
    const run = spawnSync('sh', ['-c', `${undo} --yes`], {
      cwd: elsewhere,
      encoding: 'utf8',
      env: { PATH: `${bin}:${process.env.PATH ?? ''}`, ...bareEnv },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('Restored');
    expect(await snapshotTree(dest)).toBe(before);
    await expect(fs.access(path.join(elsewhere, 'pwned'))).rejects.toThrow();
    await expect(fs.access(path.join(dir, 'pwned'))).rejects.toThrow();
  }, 300_000);
});

const noSsh = sshUnavailableReason();
describe.skipIf(noSsh !== undefined)('one door: a destination on a host', () => {
  it("compares the destinations of a host's workspace as the app does (a seeded sample; every one under TEST_FULL=1), and refuses a source missing there in the same words", async () => {
    const server = await startSshServer();
    const hostEnv = { ...env, DISTRIBUTOR_INSPECTOR_SSH: await server.sshCommand() };
    // The app's workspace names the host as the command line names an ssh:// path's: by its host name.
    const file = path.join(demo.dir, 'hosts.json');
    await fs.writeFile(
      file,
      JSON.stringify({ hosts: [{ name: '127.0.0.1', url: server.url(demo.workspaceFile), agent: server.agentCommand }] }),
    );
    const session = new Session({ transport: 'http', connectHost: sshHostConnector({ env: hostEnv }) });
    const compareBoth = async (destination: DestinationEntry, source: string) => ({
      app: await session.call('compare', { destination: destination.id, source }),
      // The command line names what the workspace configures: the source and the ids, on that host.
      cli: await runCliCaptured(
        [
          'compare',
          server.url(destination.path),
          server.url(source),
          ...(destination.pipelineId ? ['--pipeline', destination.pipelineId] : []),
          ...(destination.destinationId ? ['--destination', destination.destinationId] : []),
          '--json',
          '--agent',
          server.agentCommand,
        ],
        { cwd: demo.dir, env: hostEnv },
      ),
    });
    try {
      const connected = new Promise<ApiEvent>((resolve) =>
        session.onEvent((event) => event.event === 'hostState' && event.data.host.state !== 'connecting' && resolve(event)),
      );
      await callOk(session, 'openWorkspace', { path: file });
      const settled = await connected;
      const destinations = settled.event === 'hostState' ? (settled.data.destinations ?? []) : [];
      expect(destinations.length).toBeGreaterThan(10);
      // Each CLI compare is an ssh login and an agent start: npm test compares a seeded sample of the
      // destinations (the first, the last and a few others), npm run test:full every one.
      const withSource = destinations.filter((entry) => entry.source !== undefined);
      try {
        for (const destination of samplePoints(withSource.length, 'host destinations').map((point) => withSource[point - 1]!)) {
          expect(destination.id).toMatch(/^127\.0\.0\.1:/);
          const { app, cli } = await compareBoth(destination, destination.source!);
          expect(app.ok, destination.id).toBe(true);
          const { comparison } = (app as { value: { comparison: { decision: string; reason?: string } } }).value;
          const document = JSON.parse(cli.stdout) as { decision: string; reason?: string };
          expect({ id: destination.id, decision: document.decision, reason: document.reason }).toEqual({
            id: destination.id,
            decision: comparison.decision,
            reason: comparison.reason,
          });
        }
      } catch (error) {
        withReplayHint(error);
      }
      const { app, cli } = await compareBoth(destinations[0]!, path.join(demo.root, 'sources', 'not-there'));
      expect(app).toMatchObject({ ok: false, error: { code: 'invalid_source' } });
      const issues = (app as unknown as { error: { details: { issues: { message: string }[] } } }).error.details.issues;
      expect(cli.code).toBe(2);
      expect(cli.stderr).toContain(issues[0]!.message);
    } finally {
      await session.close();
      await server.stop();
    }
  }, 180_000);
});
