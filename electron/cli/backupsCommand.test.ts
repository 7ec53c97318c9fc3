// The command line's backups: a forced replace with --workspace keeps a backup beside the workspace
// file and prints where, `backups list` shows it (text and JSON), `backups restore` puts the
// destination back only with --yes, journaled; a bare DEST keeps one in the workspace found from the
// current folder, or in the user's state folder; --no-backup keeps none and says so; errors exit 2.

import { installedCommand } from '../service/installedCommand';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { BACKUPS_FOLDER_NAME } from '../backup/backupLocation';
import { HISTORY_FILE_NAME } from '../history/journalPath';
import { snapshotTree, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { runCliCaptured } from '../testing/cliCapture';

let dir: string;
beforeEach(async () => {
  dir = await tempDirForTest('backups-command-');
});

const cli = (argv: string[]) =>
  runCliCaptured(argv, { cwd: dir, env: { NO_COLOR: '1', HOME: dir, XDG_STATE_HOME: path.join(dir, 'state') } });

async function workspace(backups?: unknown) {
  const old = await writeBundle(path.join(dir, 'old'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  const dest = path.join(dir, 'sites', 'dest');
  await writeManagedDestination(dest, { manifest: old, outputs: { 'report.html': 'old' }, extras: { 'notes.txt': 'n' } });
  await writeBundle(path.join(dir, 'src'), { 'report.md': '# New', 'b.txt': 'b' }, { created: '2026-06-05T09:00:00Z' });
  await fs.writeFile(
    path.join(dir, 'distributor-inspector.json'),
    JSON.stringify({ destinations: [{ path: 'sites/dest', source: 'src' }], ...(backups !== undefined ? { backups } : {}) }),
  );
  return { dest };
}

describe('distributor-inspector backups', () => {
  it('lists the backup a forced replace kept, restores it only with --yes, and journals both', async () => {
    const { dest } = await workspace();
    const before = await snapshotTree(dest);
    const forced = await cli(['replace', 'sites/dest', 'src', '--force', '--yes', '--workspace', '.']);
    expect(forced.code).toBe(0);
    const folder = path.join(dir, BACKUPS_FOLDER_NAME, 'sites%2Fdest');
    expect(forced.stdout).toContain(`Backup: what this removes is kept in ${folder}`);
    const id = /Backup (\S+) \(moved\)/.exec(forced.stdout)?.[1];
    expect(id).toBeDefined();
    // Exactly the command that undoes it: the id in its workspace, and the workspace.
    expect(forced.stdout).toContain(
      `Undo: ${installedCommand()} backups restore sites/dest ${id} --workspace ${path.join(dir, 'distributor-inspector.json')}\n`,
    );

    const listed = await cli(['backups', 'list', 'sites/dest', '--workspace', '.', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).backups).toMatchObject([{ id, action: 'force', outcome: 'applied', method: 'rename' }]);
    const text = await cli(['backups', 'list', '--workspace', '.']);
    expect(text.stdout).toMatch(new RegExp(`${id}\\s+sites/dest\\s+force\\s+applied`));

    const dry = await cli(['backups', 'restore', 'sites/dest', id!, '--workspace', '.']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Not applied');
    expect(await snapshotTree(dest)).not.toBe(before);

    const restored = await cli(['backups', 'restore', 'sites/dest', id!, '--workspace', '.', '--yes', '--json']);
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout).result).toMatchObject({ ok: true, mode: 'restore', stateWritten: true });
    expect(await snapshotTree(dest)).toBe(before);
    const journal = (await fs.readFile(path.join(dir, HISTORY_FILE_NAME), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(journal.map((record) => [record.action, record.backupId])).toEqual([
      ['force', id],
      ['restore', id],
    ]);

    const again = await cli(['backups', 'restore', 'sites/dest', id!, '--workspace', '.', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing to do');
  });

  it('refuses a restore of a destination changed since, with exit 1', async () => {
    const { dest } = await workspace();
    await cli(['replace', 'sites/dest', 'src', '--force', '--yes', '--workspace', '.']);
    const [{ id }] = JSON.parse((await cli(['backups', 'list', '--workspace', '.', '--json'])).stdout).backups;
    await fs.writeFile(path.join(dest, 'b.txt'), 'edited by hand');
    const refused = await cli(['backups', 'restore', 'sites/dest', id, '--workspace', '.', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('"b.txt" changed since the forced replace wrote it');
    expect(refused.stderr).toContain('(destination_changed)');
  });

  it('keeps a backup for a bare DEST as the app does; --no-backup keeps none and says so; --backup-dir keeps one there', async () => {
    const { dest } = await workspace();
    // The workspace file in the current folder is found: its backups folder, as the app's.
    const found = await cli(['replace', 'sites/dest', 'src', '--force', '--yes']);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain(`Backup: what this removes is kept in ${path.join(dir, BACKUPS_FOLDER_NAME)}`);
    const off = await cli(['replace', 'sites/dest', 'src', '--force', '--yes', '--no-backup']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('Backups are off (--no-backup): what this deletes is gone for good.');
    expect(off.stdout).not.toMatch(/Undo:/);
    const kept = await cli(['replace', 'sites/dest', 'src', '--force', '--yes', '--backup-dir', 'kept']);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/Backup \S+ \(moved\)/);
    expect(kept.stdout).toContain(`Undo: ${installedCommand()} backups restore sites/dest `);
    expect(kept.stdout).toMatch(/ backups restore sites\/dest \S+ --workspace \S+ --backup-dir \S+kept\n/);
    const listed = JSON.parse((await cli(['backups', 'list', 'sites/dest', '--backup-dir', 'kept', '--json'])).stdout);
    expect(listed.backups).toHaveLength(1);
    expect(listed.backups[0].destination.path).toBe(dest);
  });

  it("prunes to the workspace file's keep", async () => {
    await workspace({ keep: 3 });
    for (let n = 0; n < 2; n++) await cli(['replace', 'sites/dest', 'src', '--force', '--yes', '--workspace', '.']);
    await fs.writeFile(
      path.join(dir, 'distributor-inspector.json'),
      JSON.stringify({ destinations: [{ path: 'sites/dest', source: 'src' }], backups: { keep: 1 } }),
    );
    const pruned = await cli(['backups', 'prune', '--workspace', '.', '--json']);
    expect(pruned.code).toBe(0);
    expect(JSON.parse(pruned.stdout)).toMatchObject({ kept: 1 });
    expect(JSON.parse(pruned.stdout).removed).toHaveLength(1);
  });

  it('exits 2 naming what is missing or wrong', async () => {
    await workspace();
    await fs.rm(path.join(dir, 'distributor-inspector.json'));
    // Without a workspace, the user's own backups (none yet), and the command says so once.
    const own = await cli(['backups', 'list']);
    expect(own).toMatchObject({ code: 0, stdout: expect.stringContaining(`No backups in ${path.join(dir, 'state')}`) });
    expect(own.stderr.match(/no workspace/g)).toHaveLength(1);
    await workspace();
    expect(await cli(['backups', 'undo'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown subcommand "undo"') });
    const unknown = await cli(['backups', 'restore', 'sites/dest', '2026-01-01T000000.000Z', '--workspace', '.']);
    // The service's words, the same as the app's.
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('has no backup 2026-01-01T000000.000Z') });
    const notAnId = await cli(['backups', 'restore', 'sites/dest', '../x', '--workspace', '.']);
    expect(notAnId).toMatchObject({ code: 2, stderr: expect.stringContaining('is not a backup id') });
    await fs.writeFile(path.join(dir, 'distributor-inspector.json'), JSON.stringify({ destinations: [], backups: { keep: 0 } }));
    const bad = await cli(['backups', 'list', '--workspace', '.']);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('distributor-inspector.json: backups.keep') });
    await fs.writeFile(path.join(dir, 'distributor-inspector.json'), JSON.stringify({ destinations: [], backups: 'off' }));
    expect(await cli(['backups', 'list', '--workspace', '.'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('backups are off'),
    });
  });
});
