// FIFOs where a replace reads: a FIFO named .distributor.json (normal and forced replace, the way out
// of an invalid state) and a FIFO among the source files. A blocking open would wait for a writer
// forever; each test has a short timeout that such a hang would hit. Real FIFOs (mkfifo).

import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyPlan } from './applyPlan';
import { planReplace } from './planReplace';
import { snapshotTree, stateInvariantProblems, writeBundle, writeManagedDestination } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

const HANG_MS = 5_000;
const fifoUnavailable = process.platform === 'win32' ? 'Windows has no mkfifo' : undefined;
const fifoIt = fifoUnavailable ? it.skip : it;

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('fifo-');
});

const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

describe('a FIFO named .distributor.json', () => {
  fifoIt('does not hang a normal replace: refused as an invalid state', { timeout: HANG_MS }, async () => {
    const dest = path.join(root, 'dest');
    await fs.mkdir(dest);
    await fs.writeFile(path.join(dest, 'report.html'), 'old');
    mkfifo(path.join(dest, '.distributor.json'));
    await writeBundle(path.join(root, 'source'), { 'report.md': '# New' });
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'source'),
      mode: 'replace',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    expect(outcome.ok ? undefined : outcome.error.code).toBe('conflict_invalid_state');
  });

  fifoIt('does not hang a forced replace, which removes it and publishes', { timeout: HANG_MS }, async () => {
    const dest = path.join(root, 'dest');
    await fs.mkdir(dest);
    mkfifo(path.join(dest, '.distributor.json'));
    mkfifo(path.join(dest, 'another.fifo'));
    await writeBundle(path.join(root, 'source'), { 'report.md': '# New' });
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: path.join(root, 'source'),
      mode: 'force',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.value.deletes).toContainEqual(expect.objectContaining({ path: '.distributor.json', type: 'other' }));
    const result = await applyPlan(outcome.value);
    expect(result.error).toBeUndefined();
    expect((await fs.lstat(path.join(dest, '.distributor.json'))).isFile()).toBe(true);
    expect(await stateInvariantProblems(dest)).toEqual([]);
  });

  fifoIt('does not hang a normal replace whose recorded output became a FIFO: refused as not a file', { timeout: HANG_MS }, async () => {
    const dest = path.join(root, 'dest');
    const manifest = await writeBundle(path.join(root, 'old'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
    await writeManagedDestination(dest, { manifest, outputs: { 'report.html': 'old' } });
    await fs.rm(path.join(dest, 'report.html'));
    mkfifo(path.join(dest, 'report.html'));
    await writeBundle(path.join(root, 'source'), { 'report.md': '# New' }, { created: '2026-06-05T09:00:00Z' });
    const outcome = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode: 'replace' });
    expect(outcome.ok ? undefined : outcome.error).toMatchObject({ code: 'managed_output_not_a_file', details: { path: 'report.html' } });
  });
});

describe('a FIFO in the source bundle', () => {
  fifoIt('does not hang planning: refused as not a regular file, naming it, nothing changed', { timeout: HANG_MS }, async () => {
    const source = path.join(root, 'source');
    await writeBundle(source, { 'a.txt': 'a', 'b.txt': 'b' });
    await fs.rm(path.join(source, 'b.txt'));
    mkfifo(path.join(source, 'b.txt'));
    const dest = path.join(root, 'dest');
    const before = await snapshotTree(root);
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: source,
      mode: 'replace',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    expect(outcome.ok ? undefined : outcome.error).toMatchObject({
      code: 'source_not_a_file',
      message: expect.stringContaining(path.join(source, 'b.txt')),
    });
    expect(await snapshotTree(root)).toBe(before);
  });

  fifoIt('does not hang apply when a source file is swapped for a FIFO after planning: source_changed', { timeout: HANG_MS }, async () => {
    const source = path.join(root, 'source');
    await writeBundle(source, { 'a.txt': 'a' });
    const dest = path.join(root, 'dest');
    const outcome = await planReplace({
      destinationPath: dest,
      sourcePath: source,
      mode: 'replace',
      configured: { pipelineId: 'p', destinationId: 'd' },
    });
    if (!outcome.ok) throw new Error(outcome.error.message);
    await fs.rm(path.join(source, 'a.txt'));
    mkfifo(path.join(source, 'a.txt'));
    const result = await applyPlan(outcome.value);
    expect(result.error?.code).toBe('source_changed');
    expect(result.changed).toBe(false);
    await expect(fs.lstat(dest)).rejects.toThrow();
  });
});
