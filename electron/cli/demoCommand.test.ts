import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Session } from '../service/session';
import { callOk, jobEnd } from '../testing/sessionCalls';
import type { CliIo } from './command';
import { runCli } from './run';
import { packageBin } from '../service/installedCommand';

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'cli-demo-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function cli(argv: string[], more: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const env = { XDG_CACHE_HOME: path.join(root, 'cache'), ...more };
  const io: CliIo = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal: false, env, cwd: root };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

/** What `npm start` does before it opens the app: `demo --json`, then the workspace file it names. */
async function startScriptDemo() {
  const run = await cli(['demo', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { dir: string; workspaceFile: string; reopened: boolean; replacedPrevious: boolean };
}

/** A repair through the API, as the app makes one: the demo folder gains a backup and a journal record. */
async function repairThroughTheApi(workspaceFile: string, id: string): Promise<void> {
  const session = new Session({ transport: 'http', progressIntervalMs: 0, liveRefresh: false });
  try {
    await callOk(session, 'openWorkspace', { path: workspaceFile });
    const { planId, plan } = await callOk(session, 'planRepair', { destination: id });
    expect(plan.repair?.refused ?? []).toEqual([]);
    const { job } = await callOk(session, 'applyPlan', { confirmed: true, planId });
    expect(await jobEnd(session, job)).toMatchObject({ event: 'result', data: { result: { ok: true, changed: true } } });
  } finally {
    await session.close();
  }
}

describe('demo, as npm start runs it', () => {
  it('opens the same demo again after a repair wrote backups and history into it, then makes it afresh only on --reset', async () => {
    const first = await startScriptDemo();
    expect(first).toMatchObject({ reopened: false, replacedPrevious: false });
    const page = path.join(first.dir, 'destinations', 'docs-eu', 'assets', 'logo.png');
    const published = await fs.readFile(page);
    await fs.appendFile(page, 'edited by hand');
    await repairThroughTheApi(first.workspaceFile, 'docs-eu');
    const kept = await fs.readdir(first.dir);
    expect(kept).toEqual(expect.arrayContaining(['.inspector-backups', '.inspector-history.jsonl']));

    const second = await startScriptDemo();
    expect(second).toMatchObject({ dir: first.dir, workspaceFile: first.workspaceFile, reopened: true, replacedPrevious: false });
    expect(await fs.readdir(first.dir)).toEqual(kept);
    expect((await fs.readFile(page)).equals(published)).toBe(true);

    const text = await cli(['demo']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Reopened the demo workspace, as you left it,');
    expect(text.stdout).toContain('demo --reset');

    const reset = await cli(['demo', '--reset']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('Made the demo workspace afresh');
    expect(reset.stdout).toContain('Removed the earlier demo: 1 backup, 1 history record, and 0 paths added to its destinations.');
    expect(await fs.readdir(first.dir)).not.toContain('.inspector-backups');
  });

  it('refuses a --reset of a folder that is not a demo, exactly as a first run does, and removes nothing', async () => {
    await fs.mkdir(path.join(root, 'mine'));
    await fs.writeFile(path.join(root, 'mine', 'precious.txt'), 'keep me');
    for (const argv of [
      ['demo', 'mine'],
      ['demo', 'mine', '--reset'],
    ]) {
      const run = await cli(argv);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('holds no earlier demo');
    }
    expect(await fs.readdir(path.join(root, 'mine'))).toEqual(['precious.txt']);
  });
});

describe('the commands the demo prints', () => {
  it('says node and the absolute bin when distributor-inspector is not on PATH, never npx', async () => {
    const run = await cli(['demo', path.join(root, 'demo')], { PATH: path.join(root, 'empty') });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('npx');
    expect(run.stdout).toContain(`  node ${packageBin()} serve ${path.join(root, 'demo', 'distributor-inspector.json')}\n`);
    expect(run.stdout).toContain(`  node ${packageBin()} scan ${path.join(root, 'demo', 'distributor-inspector.json')} --verify\n`);
  });

  it('says the bare name when PATH runs this package’s bin, and hands it to npm start in --json', async () => {
    const bin = path.join(root, 'bin');
    await fs.mkdir(bin);
    await fs.symlink(packageBin(), path.join(bin, 'distributor-inspector'));
    const run = await cli(['demo', path.join(root, 'demo')], { PATH: bin });
    expect(run.stdout).toContain(`  distributor-inspector serve ${path.join(root, 'demo', 'distributor-inspector.json')}\n`);
    const json = await cli(['demo', path.join(root, 'demo'), '--json'], { PATH: bin });
    expect(JSON.parse(json.stdout).command).toBe('distributor-inspector');
  });
});
