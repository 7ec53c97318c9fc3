// `distributor-inspector compare-folder` and `adopt` on real temp folders: the folder compare printed
// path by path with its counts, an adopt that writes only the state file (asked for "yes", or --yes),
// nothing changed without it, a refusal naming the file that differs, and the exit codes.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseState } from '../../shared/parseDocument';
import { snapshotTree } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { recoveryWorkspace, type Published } from '../testing/recoveryFixtures';
import { runCliCaptured } from '../testing/cliCapture';

let dir: string;
let fixture: Published & { workspaceFile: string };
beforeEach(async () => {
  dir = await tempDirForTest('adopt-command-');
  fixture = await recoveryWorkspace(dir);
  await fs.rm(path.join(fixture.dest, '.distributor.json'));
  await fs.writeFile(path.join(fixture.dest, 'notes.txt'), 'operator notes');
  await fs.symlink('../outside', path.join(fixture.dest, 'escape'));
});

/** Runs the CLI in `dir` (its workspace), keeping backups in a temp state folder (never the user's own). */
async function cli(argv: string[], answer?: string) {
  return runCliCaptured(argv, { cwd: dir, env: { NO_COLOR: '1', XDG_STATE_HOME: path.join(dir, 'state') }, answer });
}

describe('distributor-inspector compare-folder', () => {
  it('prints each path as matching or extra, the link with its target, the counts, and that the folder can be adopted', async () => {
    const { code, stdout } = await cli(['compare-folder', 'dest']);
    expect(code).toBe(0);
    expect(stdout).toContain('4 match · 0 differ · 0 missing · 2 extra');
    expect(stdout).toMatch(/= matches +report\.html +generated from report\.md/);
    expect(stdout).toMatch(/\+ extra +escape +symlink, → \.\.\/outside \(not followed\)/);
    expect(stdout).toContain('Adoptable');
  });

  it('exits 1 and names the file that stops an adopt when one differs', async () => {
    await fs.writeFile(path.join(fixture.dest, 'data.csv'), 'edited by hand\n');
    const { code, stdout } = await cli(['compare-folder', 'dest', 'source', '--json']);
    expect(code).toBe(1);
    const answer = JSON.parse(stdout);
    expect(answer.counts).toEqual({ matches: 3, differs: 1, missing: 0, extra: 2 });
    expect(answer.blockers[0]).toMatchObject({ code: 'outputs_differ', paths: ['data.csv'] });
  });
});

describe('distributor-inspector adopt', () => {
  it('prints what it writes and changes nothing without --yes', async () => {
    const before = await snapshotTree(dir);
    const { code, stdout } = await cli(['adopt', 'dest']);
    expect(code).toBe(0);
    expect(stdout).toContain('Adopt of');
    expect(stdout).toContain('Write only .distributor.json, recording 4 files already in place');
    expect(stdout).toContain('Not applied');
    expect(await snapshotTree(dir)).toBe(before);
  });

  it('asks for "yes", writes only the state file, keeps the extras, and prints the Undo line', async () => {
    const before = await snapshotTree(fixture.dest);
    const { code, stdout, asked } = await cli(['adopt', 'dest'], 'yes');
    expect(asked[0]).toContain('Write only .distributor.json in');
    expect(code).toBe(0);
    expect(stdout).toContain('Done: state written, recording 4 files as they stand');
    expect(stdout).toMatch(/Undo: .* backups restore /);
    const after = await snapshotTree(fixture.dest);
    expect(
      after
        .split('\n')
        .filter((line) => !line.startsWith('.distributor.json'))
        .join('\n'),
    ).toBe(before);
    expect(parseState(await fs.readFile(path.join(fixture.dest, '.distributor.json'))).status).toBe('managed');
  });

  it('refuses with exit 1, naming the file, when a file differs', async () => {
    await fs.rm(path.join(fixture.dest, 'pages/deep/b.txt'));
    const before = await snapshotTree(dir);
    const { code, stderr } = await cli(['adopt', 'dest', '--yes']);
    expect(code).toBe(1);
    expect(stderr).toContain('pages/deep/b.txt');
    expect(stderr).toContain('(not_adoptable)');
    expect(await snapshotTree(dir)).toBe(before);
  });
});
