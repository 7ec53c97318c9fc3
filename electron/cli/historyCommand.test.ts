import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE_NAME } from '../history/journalPath';
import { writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { runCliCaptured } from '../testing/cliCapture';

let dir: string;
beforeEach(async () => {
  dir = await tempDirForTest('history-command-');
});

const cli = (argv: string[], env: Record<string, string> = {}) => runCliCaptured(argv, { cwd: dir, env: { NO_COLOR: '1', ...env } });

async function workspaceWithOlderDestination() {
  const oldManifest = await writeBundle(path.join(dir, 'old'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(path.join(dir, 'sites', 'dest'), {
    manifest: oldManifest,
    outputs: { 'report.html': 'old' },
    extras: { 'notes.txt': 'n' },
  });
  await writeBundle(path.join(dir, 'src'), { 'report.md': '# New', 'b.txt': 'b' }, { created: '2026-06-05T09:00:00Z' });
  const file = path.join(dir, 'distributor-inspector.json');
  await fs.writeFile(file, JSON.stringify({ destinations: [{ path: 'sites/dest', source: 'src' }] }));
  return { file, oldManifest };
}

describe('distributor-inspector history', () => {
  it('lists a replace applied with --workspace from the journal beside the workspace file, in text and JSON', async () => {
    const { oldManifest } = await workspaceWithOlderDestination();
    expect((await cli(['replace', 'sites/dest', 'src', '--yes', '--workspace', '.'])).code).toBe(0);
    const forced = await cli(['replace', 'sites/dest', 'src', '--force', '--yes', '--workspace', 'distributor-inspector.json']);
    expect(forced.code).toBe(0);
    const journal = path.join(dir, HISTORY_FILE_NAME);
    expect((await fs.readFile(journal, 'utf8')).trim().split('\n')).toHaveLength(2);

    const listed = await cli(['history', '--workspace', 'distributor-inspector.json', '--json']);
    expect(listed.code).toBe(0);
    const document = JSON.parse(listed.stdout);
    expect(document.file).toBe(journal);
    expect(document.records).toMatchObject([
      {
        transport: 'cli',
        action: 'replace',
        destination: { path: path.join(dir, 'sites', 'dest') },
        counts: { delete: 2, write: 2, keep: 0 },
        sourceBefore: { id: oldManifest.id, digest: oldManifest.digest },
        sourceAfter: { id: expect.any(String) },
        result: { outcome: 'applied', changed: true, stateWritten: true },
      },
      { action: 'force', result: { outcome: 'applied' } },
    ]);
    expect(document.records[0].sourceAfter.digest).not.toBe(oldManifest.digest);

    const text = await cli(['history', 'sites/dest', '--workspace', '.']);
    expect(text.stdout).toMatch(/TIME +ACTION +DESTINATION +RESULT +DELETE +WRITE +KEEP +SOURCE +BY/);
    expect(text.stdout).toContain(`${oldManifest.id} ${oldManifest.digest.slice(0, 19)} → sha256:`);
    expect(text.stdout).toContain('2 records');
    expect((await cli(['history', 'elsewhere', '--workspace', '.'])).stdout).toContain('No applies recorded for elsewhere');
  });

  it("journals a CLI replace without a workspace in the user's own state folder", async () => {
    // No workspace file here or above: the command says so once, and the user's state folder holds the journal.
    await fs.rm((await workspaceWithOlderDestination()).file);
    const state = path.join(dir, 'state');
    const replaced = await cli(['replace', 'sites/dest', 'src', '--yes'], { XDG_STATE_HOME: state });
    expect(replaced.code).toBe(0);
    expect(replaced.stderr.match(/no workspace/g)).toHaveLength(1);
    const listed = JSON.parse((await cli(['history', '--json'], { XDG_STATE_HOME: state })).stdout);
    expect(listed.file).toBe(path.join(state, 'distributor-inspector', 'history.jsonl'));
    expect(listed.records).toHaveLength(1);
    await expect(fs.access(path.join(dir, HISTORY_FILE_NAME))).rejects.toThrow();
  });

  it('reports a torn last record with exit 1 and lists the others; an unreadable journal is exit 2', async () => {
    await workspaceWithOlderDestination();
    const journal = path.join(dir, 'journal.jsonl');
    expect((await cli(['replace', 'sites/dest', 'src', '--yes', '--history', 'journal.jsonl'])).code).toBe(0);
    await fs.appendFile(journal, '{"format":1,"at":"2026-');
    const torn = await cli(['history', '--history', 'journal.jsonl']);
    expect(torn.code).toBe(1);
    expect(torn.stderr).toContain(`${journal}: line 2: the last record was cut off mid-write`);
    expect(torn.stdout).toContain('1 record');
    await fs.rm(journal);
    await fs.mkdir(journal);
    expect(await cli(['history', '--history', 'journal.jsonl'])).toMatchObject({ code: 2, stderr: expect.stringContaining(journal) });
  });

  it('still applies when the journal cannot be written, and says so', async () => {
    await workspaceWithOlderDestination();
    await fs.writeFile(path.join(dir, 'blocker'), '');
    const result = await cli(['replace', 'sites/dest', 'src', '--yes', '--history', 'blocker/journal.jsonl']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: ');
    expect(result.stderr).toContain('the history record could not be written');
  });

  it('refuses --history and --workspace together, and with ssh:// paths', async () => {
    expect(await cli(['history', '--history', 'a', '--workspace', 'b'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('not both'),
    });
    expect(await cli(['replace', 'ssh://h/a', 'ssh://h/b', '--history', 'x'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('kept on that host'),
    });
  });
});
