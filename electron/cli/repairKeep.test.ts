// `distributor-inspector repair DEST --keep PATH` on real temp folders: the kept output is listed and
// left as it is (its hotfix bytes, still drifted afterwards), the others are rewritten, the journal
// names what was kept, and a kept path that is not clean or not in the plan is refused by name.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { snapshotTree } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { driftByHand, recoveryWorkspace, type Published } from '../testing/recoveryFixtures';
import { runCliCaptured } from '../testing/cliCapture';

let dir: string;
let fixture: Published & { workspaceFile: string };
const HOTFIX = '<p>hotfix on the server</p>';

beforeEach(async () => {
  dir = await tempDirForTest('repair-keep-command-');
  fixture = await recoveryWorkspace(dir);
  await driftByHand(fixture.dest);
  await fs.writeFile(path.join(fixture.dest, 'report.html'), HOTFIX);
});

async function cli(argv: string[], answer?: string) {
  const history = ['--history', path.join(dir, 'history.jsonl')];
  return runCliCaptured([...argv, ...history], { cwd: dir, env: { NO_COLOR: '1', XDG_STATE_HOME: path.join(dir, 'state') }, answer });
}

const read = (relative: string) => fs.readFile(path.join(fixture.dest, relative), 'utf8');

describe('distributor-inspector repair --keep', () => {
  it('lists the kept output, asks naming it, rewrites only the others and leaves the hotfix drifted', async () => {
    const stateBefore = await read('.distributor.json');
    const { code, stdout, asked } = await cli(['repair', 'dest', 'source', '--keep', 'report.html'], 'yes');
    expect(stdout).toContain('3 drifted outputs: 2 rewritten, 1 kept as it is, 0 refused.');
    expect(stdout).toMatch(
      /Kept as they are \(--keep: not rewritten, still drifted afterwards[^\n]*\):\n {2}· report\.html {2}size changed/,
    );
    expect(asked[0]).toMatch(/^Repair: .* in \S+, and 1 drifted output you keep as it is\? Type "yes" to apply: $/);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Done: .*kept 3 files \(the state file among them\) \(1 drifted output kept as it was\)/);
    expect(await read('report.html')).toBe(HOTFIX);
    expect(await read('data.csv')).toBe('a,b\n1,2\n');
    expect(await read('.distributor.json')).toBe(stateBefore);

    // Verify still reports the kept one: the repair did not pretend it matches.
    const verified = await runCliCaptured(['inspect', 'dest', '--verify', '--json'], { cwd: dir, env: { NO_COLOR: '1' } });
    expect(verified.code).toBe(1);
    const outputs = JSON.parse(verified.stdout).verify.outputs as { path: string; status: string }[];
    expect(outputs.filter((output) => output.status !== 'ok').map((output) => output.path)).toEqual(['report.html']);

    const [line] = (await fs.readFile(path.join(dir, 'history.jsonl'), 'utf8')).trim().split('\n');
    expect(JSON.parse(line!).repair.kept).toEqual({ count: 1, paths: ['report.html'] });
  });

  it('takes --keep again and again, and with every drifted output kept has nothing to do', async () => {
    const before = await snapshotTree(dir);
    const { code, stdout } = await cli([
      'repair',
      'dest',
      'source',
      '--keep',
      'report.html',
      '--keep',
      'data.csv',
      '--keep',
      'pages/deep/b.txt',
      '--yes',
    ]);
    expect(stdout).toContain('Nothing to rewrite: every drifted output is kept as it is or refused.');
    expect(code).toBe(0);
    expect(await snapshotTree(dir)).toBe(before);
  });

  it('refuses a kept path that is not clean, or that the repair would not rewrite, and changes nothing', async () => {
    const before = await snapshotTree(dir);
    for (const [keep, words] of [
      ['../dest/report.html', 'the path to keep "../dest/report.html" has a ".." segment (keep_unclean_path)'],
      ['pages/a.html', '"pages/a.html" is not a drifted output this repair rewrites'],
      ['notes.txt', '"notes.txt" is not a drifted output this repair rewrites'],
    ]) {
      const { code, stderr } = await cli(['repair', 'dest', 'source', '--keep', keep!, '--yes']);
      expect(code).toBe(1);
      expect(stderr).toContain(words);
    }
    expect(await snapshotTree(dir)).toBe(before);
  });

  it('prints the kept outputs in --json, and says what --keep does in --help', async () => {
    const { stdout } = await cli(['repair', 'dest', 'source', '--keep', 'data.csv', '--json']);
    expect(JSON.parse(stdout).plan.repair.kept).toEqual([{ path: 'data.csv', status: 'hash_mismatch', origin: 'source_file' }]);
    const help = await runCliCaptured(['repair', '--help'], { cwd: dir, env: { NO_COLOR: '1' } });
    expect(help.stdout).toContain('[--keep PATH]...');
    expect(help.stdout).toContain('each --keep PATH (a drifted output, say an intentional hotfix) is left as it is and stays drifted');
  });
});
