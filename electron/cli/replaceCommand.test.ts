import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { snapshotTree, stateInvariantProblems, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';
import { runCliCaptured } from '../testing/cliCapture';

let dir: string;
beforeEach(async () => {
  dir = await tempDirForTest('replace-command-');
});

const cli = (argv: string[], answer?: string) => runCliCaptured(argv, { cwd: dir, env: { NO_COLOR: '1' }, answer });

async function olderDestination() {
  const oldManifest = await writeBundle(path.join(dir, 'old'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(path.join(dir, 'dest'), {
    manifest: oldManifest,
    outputs: { 'report.html': 'old', 'pages/a.html': 'a' },
    extras: { 'notes.txt': 'n' },
  });
  await writeBundle(path.join(dir, 'src'), { 'report.md': '# New', 'b.txt': 'b' }, { created: '2026-06-05T09:00:00Z' });
}

describe('distributor-inspector replace', () => {
  it('prints the plan like terraform plan: totals first, one row per path, extras kept, and changes nothing without --yes', async () => {
    await olderDestination();
    const before = await snapshotTree(dir);
    const { code, stdout } = await cli(['replace', 'dest', 'src']);
    expect(code).toBe(0);
    const totals = stdout.indexOf('Replace: create 1 file, update 2 files (the state file among them), delete 1 file and 1 folder.');
    expect(totals).toBeGreaterThan(0);
    expect(stdout.indexOf('~ update')).toBeGreaterThan(totals);
    expect(stdout).toMatch(/~ update\s+\.distributor\.json {2}the state file/);
    expect(stdout).toMatch(/- delete\s+pages\/a\.html/);
    expect(stdout).toMatch(/- delete\s+pages {2}directory/);
    expect(stdout).toMatch(/~ update\s+report\.html {2}\d+ bytes \(was 3 bytes\), generated from report\.md/);
    expect(stdout).toMatch(/\+ create\s+b\.txt {2}1 byte, copied/);
    expect(stdout).toMatch(/· keep \(extra\)\s+notes\.txt/);
    // A path deleted and written again is one row, never a delete and a write.
    expect(stdout.match(/report\.html/g)?.length).toBe(1);
    expect(stdout).toContain('nothing was changed');
    expect(await snapshotTree(dir)).toBe(before);
  });

  it('prints the plan with its rows and totals as JSON with --json and without --yes, and applies nothing', async () => {
    await olderDestination();
    const before = await snapshotTree(dir);
    const { code, stdout } = await cli(['replace', 'dest', 'src', '--json']);
    expect(code).toBe(0);
    const document = JSON.parse(stdout);
    expect(document.result).toBeUndefined();
    expect(document.plan.summary).toMatchObject({ deleteCount: 4, writeCount: 2 });
    expect(document.plan.extras).toEqual(['notes.txt']);
    expect(document.totals).toEqual({ create: 1, update: 2, delete: 2, unchanged: 0, keep: 1 });
    expect(document.rows.map((row: { kind: string; path: string }) => `${row.kind} ${row.path}`)).toEqual([
      'update .distributor.json',
      'create b.txt',
      'keep notes.txt',
      'delete pages',
      'delete pages/a.html',
      'update report.html',
    ]);
    expect(await snapshotTree(dir)).toBe(before);
  });

  it('applies with --yes and prints plan and result as one JSON document', async () => {
    await olderDestination();
    const { code, stdout } = await cli(['replace', 'dest', 'src', '--yes', '--json', '--base-url', 'https://example.com/a']);
    expect(code).toBe(0);
    const document = JSON.parse(stdout);
    expect(document.plan.summary).toMatchObject({ deleteCount: 4, writeCount: 2 });
    expect(document.result).toMatchObject({ ok: true, stateWritten: true, stagingLeft: false });
    expect(document.result.state.links.primary_url).toBe('https://example.com/a/report.html');
    expect(await stateInvariantProblems(path.join(dir, 'dest'))).toEqual([]);
    expect(await fs.readFile(path.join(dir, 'dest', 'notes.txt'), 'utf8')).toBe('n');
  });

  it('names the phase on a terminal while it applies: checking the source, staging, moving into place, writing the state', async () => {
    await olderDestination();
    const { code, stderr } = await cli(['replace', 'dest', 'src', '--yes'], '');
    expect(code).toBe(0);
    for (const words of [
      'checking the source',
      'staging 0 / 2',
      'removing the old state file',
      'deleting',
      'moving into place',
      'writing the state',
    ])
      expect(stderr).toContain(words);
    // The raw phase ids are not shown.
    expect(stderr).not.toMatch(/\b(write_state|remove_state)\b/);
  });

  it('asks on a terminal, and a forced replace applies only after the destination id is typed', async () => {
    await olderDestination();
    const before = await snapshotTree(dir);
    const wrong = await cli(['replace', 'dest', 'src', '--force'], 'yes');
    expect(wrong.asked[0]).toContain('"archive"');
    expect(wrong.code).toBe(0);
    expect(await snapshotTree(dir)).toBe(before);
    const right = await cli(['replace', 'dest', 'src', '--force'], 'archive');
    expect(right.code).toBe(0);
    expect(right.stdout).toContain('Done');
    expect((await fs.readdir(path.join(dir, 'dest'))).sort()).toEqual(['.distributor.json', 'b.txt', 'report.html']);
  });

  it('exits 1 with the reason on a refusal, changing nothing', async () => {
    await olderDestination();
    await fs.writeFile(path.join(dir, 'dest', 'b.txt'), 'an extra file');
    const before = await snapshotTree(dir);
    const { code, stderr } = await cli(['replace', 'dest', 'src', '--yes']);
    expect(code).toBe(1);
    expect(stderr).toContain('refused');
    expect(stderr).toContain('"b.txt"');
    expect(await snapshotTree(dir)).toBe(before);
  });

  it('exits 2 on a bad source manifest, naming the file and the field', async () => {
    await olderDestination();
    await fs.writeFile(
      path.join(dir, 'src', 'manifest.json'),
      JSON.stringify({ schema_version: 1, id: 'x', digest: 'sha256:1', created: '2026-06-05T09:00:00Z', files: [] }),
    );
    const { code, stderr } = await cli(['replace', 'dest', 'src']);
    expect(code).toBe(2);
    expect(stderr).toContain(path.join(dir, 'src', 'manifest.json'));
    expect(stderr).toContain('digest');
  });

  it('exits 2 when an unmanaged destination is taken over without ids, and 0 once they are given', async () => {
    await fs.mkdir(path.join(dir, 'dest'));
    await fs.writeFile(path.join(dir, 'dest', 'stray.txt'), 's');
    await writeBundle(path.join(dir, 'src'), { 'report.md': '# New' });
    expect((await cli(['replace', 'dest', 'src', '--force', '--yes'])).code).toBe(2);
    const { code } = await cli(['replace', 'dest', 'src', '--force', '--yes', '--pipeline', 'p', '--destination', 'd']);
    expect(code).toBe(0);
  });

  it('says there is nothing to do when the destination already holds the source', async () => {
    const manifest = await writeBundle(path.join(dir, 'src'), { 'report.md': '# Same' });
    await writeManagedDestination(path.join(dir, 'dest'), { manifest, outputs: { 'report.html': 'x' } });
    const { code, stdout } = await cli(['replace', 'dest', 'src', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toContain('Nothing to do');
  });

  it('says how many recorded outputs were changed on disk since published, in the plan and in the confirmation', async () => {
    await olderDestination();
    await fs.writeFile(path.join(dir, 'dest', 'report.html'), 'edited by hand');
    const { code, stdout, asked } = await cli(['replace', 'dest', 'src'], 'no');
    expect(code).toBe(0);
    expect(stdout).toContain('1 recorded output was changed on disk since published');
    expect(stdout).toMatch(/~ update\s+report\.html .*! changed on disk since published: will be lost \(size_mismatch\)/);
    expect(asked[0]).toContain('delete 1 file and 1 folder in');
    expect(asked[0]).toContain('; 1 changed on disk since published will be lost? Type "yes" to apply');
  });

  it('lists nested managed destinations of a forced replace and applies only with --include-nested', async () => {
    await fs.mkdir(path.join(dir, 'dest'));
    await fs.writeFile(path.join(dir, 'dest', 'stray.txt'), 's');
    const manifest = await writeBundle(path.join(dir, 'inner-src'), { 'a.md': '# A' });
    await writeManagedDestination(path.join(dir, 'dest', 'inner'), { manifest, outputs: { 'a.html': 'a' } });
    await writeBundle(path.join(dir, 'src'), { 'report.md': '# New' });
    const ids = ['--pipeline', 'p', '--destination', 'd'];
    const before = await snapshotTree(dir);
    const refused = await cli(['replace', 'dest', 'src', '--force', '--yes', ...ids]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('This also deletes 1 other managed destination inside it (inner)');
    expect(refused.stderr).toContain('--include-nested');
    expect(await snapshotTree(dir)).toBe(before);
    const asked = await cli(['replace', 'dest', 'src', '--force', ...ids], 'd');
    expect(asked.asked).toEqual([]);
    expect(asked.code).toBe(1);
    const applied = await cli(['replace', 'dest', 'src', '--force', '--yes', '--include-nested', ...ids]);
    expect(applied.code).toBe(0);
    expect((await fs.readdir(path.join(dir, 'dest'))).sort()).toEqual(['.distributor.json', 'report.html']);
  });

  it('refuses a forced replace of a folder another user owns unless --allow-other-owner (needs root to chown)', async () => {
    if (process.getuid?.() !== 0) return;
    await fs.mkdir(path.join(dir, 'dest'));
    await fs.writeFile(path.join(dir, 'dest', 'stray.txt'), 's');
    await fs.chown(path.join(dir, 'dest'), 4242, 4242);
    await writeBundle(path.join(dir, 'src'), { 'report.md': '# New' });
    const ids = ['--pipeline', 'p', '--destination', 'd'];
    const refused = await cli(['replace', 'dest', 'src', '--force', '--yes', ...ids]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('destination_other_owner');
    expect((await cli(['replace', 'dest', 'src', '--force', '--yes', '--allow-other-owner', ...ids])).code).toBe(0);
  });
});

describe('replace --yes of a destination holding a large output', () => {
  // Past 1 MiB: its "changed on disk" hash runs in the apply, beside the staging copy.
  const BIG = `${'0123456789abcdef'.repeat(70_000)}end`;

  async function largeDestination(onDisk: string) {
    const oldManifest = await writeBundle(path.join(dir, 'old'), { 'big.bin': BIG }, { created: '2026-06-04T11:55:00Z' });
    await writeManagedDestination(path.join(dir, 'dest'), { manifest: oldManifest, outputs: { 'big.bin': BIG } });
    await fs.writeFile(path.join(dir, 'dest', 'big.bin'), onDisk);
    await writeBundle(path.join(dir, 'src'), { 'big.bin': BIG }, { created: '2026-06-05T09:00:00Z' });
  }

  it('says after the apply that the large output was edited on disk and its edits are lost', async () => {
    await largeDestination(`X${BIG.slice(1)}`);
    const { code, stdout } = await cli(['replace', 'dest', 'src', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/~ update\s+big\.bin .*its bytes on disk are checked as it is applied/);
    expect(stdout).toMatch(
      /Checked as it was applied: 1 recorded output was changed on disk since published, and those edits were lost:\n {2}big\.bin {2}! changed on disk since published: lost \(hash_mismatch\)\nDone: /,
    );
    expect(await stateInvariantProblems(path.join(dir, 'dest'))).toEqual([]);
  });

  it('prints with --json the plan as the apply found it: the mark, the count and the rows a plan hashed first has', async () => {
    await largeDestination(`X${BIG.slice(1)}`);
    const { code, stdout } = await cli(['replace', 'dest', 'src', '--yes', '--json']);
    expect(code).toBe(0);
    const document = JSON.parse(stdout);
    expect(document.plan.deletes.find((entry: { path: string }) => entry.path === 'big.bin')).toEqual({
      path: 'big.bin',
      type: 'file',
      size: BIG.length,
      changed: 'hash_mismatch',
    });
    expect(document.plan.summary.changedCount).toBe(1);
    expect(document.rows.find((row: { path: string }) => row.path === 'big.bin')).toMatchObject({
      kind: 'update',
      changed: 'hash_mismatch',
    });
    expect(document.result.checkedDeletes).toEqual([{ path: 'big.bin', changed: 'hash_mismatch' }]);
  });

  it('counts an untouched large output as the same bytes written again once the apply proved it', async () => {
    await largeDestination(BIG);
    const { code, stdout } = await cli(['replace', 'dest', 'src', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'Checked as it was applied: the old output was as published.\nDone: updated 1 file (the state file), kept 1 file',
    );
  });
});
