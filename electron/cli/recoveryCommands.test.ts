// `distributor-inspector repair` and `discard-staging` on real temp folders: the plan printed (what is
// rewritten, what is refused by name and why, the extras kept; what a staging folder holds), nothing
// changed without --yes or "yes", the exit codes (0 done, 1 refused or nothing possible, 2 input).

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { HISTORY_FILE_NAME } from '../history/journalPath';
import { snapshotTree, stateInvariantProblems, writeInterruptedStaging } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { driftByHand, recoveryWorkspace, type Published } from '../testing/recoveryFixtures';
import { runCliCaptured } from '../testing/cliCapture';

let dir: string;
let fixture: Published & { workspaceFile: string };
beforeEach(async () => {
  dir = await tempDirForTest('recovery-command-');
  fixture = await recoveryWorkspace(dir);
});

/** Runs the CLI in `dir`, journaling into a temp file and keeping backups in a temp state folder (never the user's own). */
async function cli(argv: string[], answer?: string) {
  const history = argv.includes('--workspace') ? [] : ['--history', path.join(dir, 'history.jsonl')];
  return runCliCaptured([...argv, ...history], { cwd: dir, env: { NO_COLOR: '1', XDG_STATE_HOME: path.join(dir, 'state') }, answer });
}

const read = (relative: string) => fs.readFile(path.join(fixture.dest, relative), 'utf8');

describe('distributor-inspector repair', () => {
  it('prints what it rewrites and keeps, and changes nothing without --yes', async () => {
    await driftByHand(fixture.dest);
    const before = await snapshotTree(dir);
    const { code, stdout } = await cli(['repair', 'dest', 'source']);
    expect(code).toBe(0);
    expect(stdout).toContain('Repair: create 1 file, update 2 files.');
    expect(stdout).toContain('3 drifted outputs: 3 rewritten, 0 refused.');
    expect(stdout).toContain('~ report.html  size changed; regenerated from report.md');
    expect(stdout).toContain('+ pages/deep/b.txt  missing; copied from the source');
    expect(stdout).toMatch(/Kept \(extra files, never touched\):\n {2}· notes\.txt/);
    expect(stdout).toContain('Not applied');
    expect(await snapshotTree(dir)).toBe(before);
  });

  it('asks for "yes" on a terminal, then restores the outputs and keeps the extra file and the state', async () => {
    await driftByHand(fixture.dest);
    const stateBefore = await read('.distributor.json');
    const { code, stdout, asked } = await cli(['repair', 'dest', 'source'], 'yes');
    expect(asked[0]).toMatch(/^Repair: create 1 file, update 2 files in \S+\? Type "yes" to apply: $/);
    expect(code).toBe(0);
    expect(stdout).toContain('Done: created 1 file, updated 2 files, kept 2 files (the state file among them)');
    expect(await stateInvariantProblems(fixture.dest)).toEqual([]);
    expect(await read('.distributor.json')).toBe(stateBefore);
    expect(await read('notes.txt')).toBe('operator notes');
  });

  it('repairs from the source the workspace configures, and journals it there', async () => {
    await driftByHand(fixture.dest);
    const { code, stdout } = await cli(['repair', 'dest', '--workspace', fixture.workspaceFile, '--yes', '--json']);
    expect(code).toBe(0);
    const document = JSON.parse(stdout);
    expect(document.plan.mode).toBe('repair');
    expect(document.result).toMatchObject({ ok: true, mode: 'repair', stateWritten: false });
    expect(await stateInvariantProblems(fixture.dest)).toEqual([]);
    const journal = await fs.readFile(path.join(dir, HISTORY_FILE_NAME), 'utf8');
    expect(journal).toContain('"action":"repair"');
  });

  it("keeps what it overwrites in the workspace's backups, and backups restore puts the hand-edited bytes back", async () => {
    await driftByHand(fixture.dest);
    const edited = await snapshotTree(fixture.dest);
    const dry = await cli(['repair', 'dest', '--workspace', fixture.workspaceFile]);
    expect(dry.stdout).toContain(`Backup: what this removes is kept in ${path.join(dir, '.inspector-backups', 'archive')}`);
    const { code, stdout } = await cli(['repair', 'dest', '--workspace', fixture.workspaceFile, '--yes']);
    expect(code).toBe(0);
    const id = /Undo: .* backups restore \S+ (\S+)/.exec(stdout)?.[1];
    expect(id).toBeDefined();
    expect(await read('report.html')).not.toBe('<p>edited by hand</p>');
    const restored = await cli(['backups', 'restore', 'dest', id!, '--workspace', fixture.workspaceFile, '--yes']);
    expect(restored.code).toBe(0);
    expect(await snapshotTree(fixture.dest)).toBe(edited);
    const journal = (await fs.readFile(path.join(dir, HISTORY_FILE_NAME), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(journal.map((record) => [record.action, record.destination.id, record.backupId ?? null])).toEqual([
      ['repair', 'archive', id],
      ['restore', 'archive', expect.any(String)],
    ]);
  });

  it("keeps a backup in the user's state folder without a workspace, and says plainly what --no-backup means", async () => {
    await driftByHand(fixture.dest);
    await fs.rm(fixture.workspaceFile);
    const kept = await cli(['repair', 'dest', 'source']);
    expect(kept.stdout).toContain(`Backup: what this removes is kept in ${path.join(dir, 'state', 'distributor-inspector', 'backups')}`);
    const { stdout } = await cli(['repair', 'dest', 'source', '--no-backup']);
    expect(stdout).toContain('Backups are off (--no-backup): what this deletes is gone for good.');
  });

  it('refuses a partial repair by name unless --accept-partial, and then leaves the refused output as it is', async () => {
    await driftByHand(fixture.dest);
    await fs.writeFile(path.join(fixture.source, 'report.md'), '# Report\n\nNew figures.\n');
    const refused = await cli(['repair', 'dest', 'source', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/! report\.html {2}size changed: the expected bytes are not available for report\.html/);
    expect(refused.stderr).toContain('1 output cannot be repaired (report.html); run again with --accept-partial');
    expect(await read('data.csv')).toBe('a,b\n1,3\n');
    const partial = await cli(['repair', 'dest', 'source', '--yes', '--accept-partial']);
    expect(partial.code).toBe(0);
    expect(partial.stdout).toMatch(/Done: (created|updated) .* \(1 refused output left as it was\)/);
    expect(await read('data.csv')).toBe('a,b\n1,2\n');
    expect(await read('report.html')).toBe('<p>edited by hand</p>');
  });

  it('exits 1 when nothing can be repaired, 0 when nothing drifted, and 2 without a source to prove from', async () => {
    expect((await cli(['repair', 'dest', 'source'])).stdout).toContain('Nothing to repair');
    expect((await cli(['repair', 'dest', 'source'])).code).toBe(0);
    await fs.writeFile(path.join(fixture.dest, 'report.html'), 'edited');
    await fs.writeFile(path.join(fixture.source, 'report.md'), '# Changed\n');
    const nothing = await cli(['repair', 'dest', 'source', '--yes']);
    expect(nothing.code).toBe(1);
    expect(nothing.stdout).toContain('Nothing can be repaired: every drifted output is refused.');
    // Without a workspace that configures its source (the one here is found from DEST), SOURCE is needed.
    await fs.rm(fixture.workspaceFile);
    const noSource = await cli(['repair', 'dest']);
    expect(noSource.code).toBe(2);
    expect(noSource.stderr).toContain('give SOURCE');
    const badSource = await cli(['repair', 'dest', 'nowhere']);
    expect(badSource.code).toBe(2);
    const noState = await cli(['repair', 'plain', 'source', '--json']);
    expect(noState.code).toBe(1);
    expect(JSON.parse(noState.stdout).refusal.code).toBe('no_state');
  });
});

describe('distributor-inspector discard-staging', () => {
  it('says which publication the staging folder holds and how many files, and removes only it with --yes', async () => {
    await writeInterruptedStaging(fixture.dest, { 'report.html': 'half', 'pages/a.html': 'half a' });
    const dry = await cli(['discard-staging', 'dest']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`- ${STAGING_DIR_NAME}/`);
    expect(dry.stdout).toContain('an interrupted replace of reports.example, started 2026-06-05T09:30:00Z');
    expect(dry.stdout).toContain('2 files staged (10 bytes)');
    await fs.access(path.join(fixture.dest, STAGING_DIR_NAME));
    const asked = await cli(['discard-staging', 'dest'], 'no');
    expect(asked.asked[0]).toContain(`Discard staging: delete 1 folder (${STAGING_DIR_NAME}) in`);
    await fs.access(path.join(fixture.dest, STAGING_DIR_NAME));
    const done = await cli(['discard-staging', 'dest', '--yes']);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`Done: deleted 1 folder, kept 1 file (the state file): ${STAGING_DIR_NAME}`);
    await expect(fs.access(path.join(fixture.dest, STAGING_DIR_NAME))).rejects.toThrow();
    expect(await stateInvariantProblems(fixture.dest)).toEqual([]);
  });

  it("keeps the staging folder in the workspace's backups, journals its id, and backups restore puts it back byte for byte", async () => {
    await writeInterruptedStaging(fixture.dest, { 'report.html': 'half' });
    const before = await snapshotTree(fixture.dest);
    const dry = await cli(['discard-staging', 'dest', '--workspace', fixture.workspaceFile]);
    expect(dry.stdout).toContain(`Backup: what this removes is kept in ${path.join(dir, '.inspector-backups', 'archive')}`);
    const { code, stdout } = await cli(['discard-staging', 'dest', '--workspace', fixture.workspaceFile, '--yes']);
    expect(code).toBe(0);
    expect(stdout).toContain(`Done: deleted 1 folder, kept 1 file (the state file): ${STAGING_DIR_NAME}`);
    const id = /Undo: .* backups restore \S+ (\S+)/.exec(stdout)?.[1];
    expect(id).toBeDefined();
    await expect(fs.access(path.join(fixture.dest, STAGING_DIR_NAME))).rejects.toThrow();
    const restored = await cli(['backups', 'restore', 'dest', id!, '--workspace', fixture.workspaceFile, '--yes']);
    expect(restored.code).toBe(0);
    expect(await snapshotTree(fixture.dest)).toBe(before);
    const journal = (await fs.readFile(path.join(dir, HISTORY_FILE_NAME), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(journal.map((record) => [record.action, record.backupId ?? null])).toEqual([
      ['discard_staging', id],
      ['restore', id],
    ]);
  });

  it('says plainly that backups are off with --no-backup', async () => {
    await writeInterruptedStaging(fixture.dest);
    const { stdout } = await cli(['discard-staging', 'dest', '--no-backup']);
    expect(stdout).toContain('Backups are off (--no-backup): what this deletes is gone for good.');
  });

  it('exits 1 when there is nothing to discard', async () => {
    const { code, stderr } = await cli(['discard-staging', 'dest', '--yes']);
    expect(code).toBe(1);
    expect(stderr).toContain('distributor-inspector discard-staging: refused:');
    expect(stderr).toContain('(no_staging)');
  });
});
