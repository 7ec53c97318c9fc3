import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stateSchema } from '../../shared/documentSchemas';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { verifyDestination } from './verify';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { scanWorkspace, type ScannedDestination } from './scan';
import { loadWorkspace, type LoadedWorkspace } from './workspace';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('scan-test')));
afterEach(async () => remove());

async function folderWorkspace(): Promise<LoadedWorkspace> {
  const load = await loadWorkspace(dir);
  if (!load.ok) throw new Error(load.issues.map((issue) => issue.message).join('; '));
  return load.workspace;
}

describe('scanWorkspace', () => {
  it('gives every destination its status and summary, in workspace order', async () => {
    writeManagedDestination(
      path.join(dir, 'a-managed'),
      { 'a.html': 'a', 'b.html': 'b' },
      { pipelineId: 'reports', destinationId: 'archive', publishedAt: '2026-06-04T12:00:00.5Z' },
    );
    mkdirSync(path.join(dir, 'b-empty'));
    mkdirSync(path.join(dir, 'c-unmanaged'));
    writeFileSync(path.join(dir, 'c-unmanaged', 'hand-made.html'), 'x');
    mkdirSync(path.join(dir, 'd-invalid'));
    writeFileSync(
      path.join(dir, 'd-invalid', STATE_FILE_NAME),
      JSON.stringify({ schema_version: 1, pipeline_id: 'reports', outputs: [{}, {}] }),
    );

    const report = await scanWorkspace(await folderWorkspace());
    expect(report.rows.map((row) => [row.destination.id, row.summary.status])).toEqual([
      ['a-managed', 'managed'],
      ['b-empty', 'empty'],
      ['c-unmanaged', 'unmanaged'],
      ['d-invalid', 'invalid'],
    ]);
    expect(report.counts).toEqual({ total: 4, empty: 1, unmanaged: 1, managed: 1, invalid: 1 });
    expect(report.rows[0]!.summary).toEqual({
      status: 'managed',
      pipeline_id: 'reports',
      destination_id: 'archive',
      published_at: '2026-06-04T12:00:00.5Z',
      outputCount: 2,
      errorCount: 0,
      warningCount: 0,
    });
    expect(report.rows[0]!.state?.outputs.map((output) => output.path)).toEqual(['a.html', 'b.html']);
    expect(report.rows[0]!.inspection).not.toHaveProperty('stateText');
    const invalid = report.rows[3]!.summary;
    expect(invalid).toMatchObject({ status: 'invalid', pipeline_id: 'reports', outputCount: 2 });
    expect(invalid.destination_id).toBeUndefined();
    expect(invalid.errorCount).toBeGreaterThan(3);
  });

  it('streams each row as it finishes and counts progress up to the total', async () => {
    for (let i = 0; i < 40; i += 1) writeManagedDestination(path.join(dir, `d${String(i).padStart(2, '0')}`), { 'x.txt': `x${i}` });
    const streamed: ScannedDestination[] = [];
    const progress: { done: number; total: number }[] = [];
    const report = await scanWorkspace(await folderWorkspace(), {
      concurrency: 2,
      onResult: (row) => streamed.push(row),
      onProgress: (step) => progress.push(step),
    });
    expect(streamed).toHaveLength(40);
    expect(new Set(streamed.map((row) => row.destination.id))).toEqual(new Set(report.rows.map((row) => row.destination.id)));
    expect(progress[0]).toEqual({ done: 0, total: 40 });
    expect(progress.map((step) => step.done)).toEqual(Array.from({ length: 41 }, (_, i) => i));
    // Each progress step comes after its row was streamed.
    expect(progress.at(-1)).toEqual({ done: 40, total: 40 });
  });

  it('reports a destination that is a symbolic link without following it', async () => {
    const { dir: outside, remove: removeOutside } = await makeTempDir('scan-outside');
    try {
      writeManagedDestination(path.join(outside, 'real'), { 'a.txt': 'a' });
      symlinkSync(path.join(outside, 'real'), path.join(dir, 'linked'));
      const workspace: LoadedWorkspace = {
        kind: 'file',
        root: dir,
        destinations: [{ id: 'linked', path: path.join(dir, 'linked'), replacePolicy: 'allow' }],
      };
      const [row] = (await scanWorkspace(workspace)).rows;
      expect(row?.summary.status).toBe('unmanaged');
      expect(row?.inspection.issues[0]?.code).toBe('destination_is_symlink');
      expect(row?.state).toBeUndefined();
    } finally {
      await removeOutside();
    }
  });

  it('stops taking work on abort and rejects with the reason', async () => {
    for (let i = 0; i < 50; i += 1) mkdirSync(path.join(dir, `d${i}`));
    const controller = new AbortController();
    let streamed = 0;
    const scanning = scanWorkspace(await folderWorkspace(), {
      concurrency: 2,
      signal: controller.signal,
      onResult: () => {
        streamed += 1;
        if (streamed === 5) controller.abort();
      },
    });
    await expect(scanning).rejects.toMatchObject({ name: 'AbortError' });
    expect(streamed).toBe(5);
  });

  it('verifies managed destinations in the same pass, exactly as verifyDestination does', async () => {
    const { dir: outside, remove: removeOutside } = await makeTempDir('scan-verify-outside');
    try {
      writeManagedDestination(path.join(dir, 'a-intact'), { 'a.html': 'a' });
      writeManagedDestination(path.join(dir, 'b-drifted'), {
        'gone.html': 'g',
        'edited.html': 'e',
        'linked.html': 'l',
        'pages/deep.html': 'd',
      });
      rmSync(path.join(dir, 'b-drifted', 'gone.html'));
      writeFileSync(path.join(dir, 'b-drifted', 'edited.html'), 'E');
      rmSync(path.join(dir, 'b-drifted', 'linked.html'));
      writeFileSync(path.join(outside, 'secret.html'), 'l');
      symlinkSync(path.join(outside, 'secret.html'), path.join(dir, 'b-drifted', 'linked.html'));
      writeFileSync(path.join(dir, 'b-drifted', 'pages', 'extra.txt'), 'x');
      mkdirSync(path.join(dir, 'c-empty'));

      let lastBytes = 0;
      const report = await scanWorkspace(await folderWorkspace(), {
        verify: true,
        retain: 'summary',
        onProgress: (step) => (lastBytes = step.bytes ?? -1),
      });
      const [intact, drifted, empty] = report.rows;
      expect(intact?.verify?.status).toBe('intact');
      expect(empty?.verify).toBeUndefined();
      expect(drifted?.verify?.outputs.map((output) => output.status)).toEqual(['missing', 'hash_mismatch', 'not_a_file', 'ok']);
      expect(drifted?.verify?.extra).toEqual(['pages/extra.txt']);
      // The link is read with readlink in the scan's worker, as verify does, and never followed.
      expect(drifted?.verify?.outputs[2]?.actual).toEqual({ kind: 'symlink', linkTarget: path.join(outside, 'secret.html') });
      const state = stateSchema.parse(JSON.parse(readFileSync(path.join(dir, 'b-drifted', STATE_FILE_NAME), 'utf8')));
      expect(drifted?.verify).toEqual(await verifyDestination(path.join(dir, 'b-drifted'), state));
      // Hashed: a.html, edited.html, pages/deep.html; the missing and linked outputs are never read.
      expect(lastBytes).toBe(3);
    } finally {
      await removeOutside();
    }
  });

  it('never follows a linked parent nor opens a FIFO when verifying in the same pass', async () => {
    const { dir: outside, remove: removeOutside } = await makeTempDir('scan-verify-links');
    try {
      mkdirSync(path.join(outside, 'pages'));
      writeFileSync(path.join(outside, 'pages', 'a.html'), 'a');
      const destination = path.join(dir, 'site');
      writeManagedDestination(destination, { 'pages/a.html': 'a', 'pipe.html': 'p', 'dir.html': 'd', 'ok.html': 'o' });
      rmSync(path.join(destination, 'pages'), { recursive: true });
      symlinkSync(path.join(outside, 'pages'), path.join(destination, 'pages'));
      rmSync(path.join(destination, 'pipe.html'));
      execFileSync('mkfifo', [path.join(destination, 'pipe.html')]);
      rmSync(path.join(destination, 'dir.html'));
      mkdirSync(path.join(destination, 'dir.html'));
      const [row] = (await scanWorkspace(await folderWorkspace(), { verify: true })).rows;
      expect(row?.verify?.outputs.map((output) => [output.path, output.status, output.actual?.kind])).toEqual([
        ['pages/a.html', 'not_a_file', 'link_in_path'],
        ['pipe.html', 'not_a_file', 'fifo'],
        ['dir.html', 'not_a_file', 'directory'],
        ['ok.html', 'ok', undefined],
      ]);
      expect(row?.verify?.extra).toEqual(['pages']);
      expect(row?.verify).toEqual(await verifyDestination(destination, row!.state!));
    } finally {
      await removeOutside();
    }
  }, 10_000);

  it('keeps only summaries when asked, for large workspaces', async () => {
    writeManagedDestination(path.join(dir, 'a'), { 'a.txt': 'a' });
    const report = await scanWorkspace(await folderWorkspace(), { retain: 'summary' });
    expect(report.rows[0]!.inspection.stateJson).toBeUndefined();
    expect(report.rows[0]!.state).toBeUndefined();
    expect(report.rows[0]!.summary).toMatchObject({ status: 'managed', outputCount: 1, destination_id: 'archive' });
  });

  it('gives the same statuses, issues and summaries without the fingerprint, which it then leaves out', async () => {
    writeManagedDestination(path.join(dir, 'a'), { 'a.txt': 'a' });
    mkdirSync(path.join(dir, 'b'));
    writeFileSync(path.join(dir, 'b', STATE_FILE_NAME), '{"schema_version": 1, "outputs": [{"size": 1.0}]}');
    mkdirSync(path.join(dir, 'c'));
    writeFileSync(path.join(dir, 'c', 'x.html'), 'x');
    const workspace = await folderWorkspace();
    const answer = (rows: ScannedDestination[]) => rows.map((row) => [row.summary, row.inspection.status, row.inspection.issues]);
    const full = await scanWorkspace(workspace, { retain: 'summary' });
    const bare = await scanWorkspace(workspace, { retain: 'summary', digests: false });
    expect(answer(bare.rows)).toEqual(answer(full.rows));
    expect(full.rows[0]!.inspection).toMatchObject({ stateSha256: expect.stringMatching(/^sha256:/), listingDigest: expect.any(String) });
    for (const row of bare.rows) {
      expect(row.inspection).not.toHaveProperty('stateSha256');
      expect(row.inspection).not.toHaveProperty('listingDigest');
    }
  });
});
