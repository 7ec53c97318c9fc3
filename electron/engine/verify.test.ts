import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { stateSchema } from '../../shared/documentSchemas';
import type { State } from '../../shared/stateSchema';
import type { OutputVerification, VerifyReport } from '../../shared/verifyReport';
import { makeTempDir, sha256Of, writeManagedDestination } from '../testing/fixtureTrees';
import { HashPool } from './hashPool';
import { verifyDestination, verifyWorkspace } from './verify';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('verify-test')));
afterEach(async () => remove());

function managed(name: string, files: Record<string, string | Buffer>): { destination: string; state: State } {
  const destination = path.join(dir, name);
  const state = stateSchema.parse(writeManagedDestination(destination, files));
  return { destination, state };
}

const byPath = (report: VerifyReport): Record<string, OutputVerification | undefined> =>
  Object.fromEntries(report.outputs.map((output) => [output.path, output]));

describe('verifyDestination', () => {
  it('reports an untouched destination as intact, with the hash and size of every output', async () => {
    const { destination, state } = managed('site', { 'index.html': '<h1>hi</h1>', 'pages/a.html': 'a', 'empty.txt': '' });
    const report = await verifyDestination(destination, state);
    expect(report.status).toBe('intact');
    expect(report.extra).toEqual([]);
    expect(byPath(report)['pages/a.html']).toEqual({ path: 'pages/a.html', status: 'ok', expected: { sha256: sha256Of('a'), size: 1 } });
    expect(report.outputs.map((output) => output.status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('tells missing, size_mismatch, hash_mismatch and not_a_file apart', async () => {
    const { destination, state } = managed('site', {
      'gone.html': 'x',
      'longer.html': 'abc',
      'edited.html': 'abc',
      'dir.html': 'd',
      'ok.html': 'ok',
    });
    rmSync(path.join(destination, 'gone.html'));
    writeFileSync(path.join(destination, 'longer.html'), 'abcdef');
    writeFileSync(path.join(destination, 'edited.html'), 'xyz');
    rmSync(path.join(destination, 'dir.html'));
    mkdirSync(path.join(destination, 'dir.html', 'inside'), { recursive: true });
    writeFileSync(path.join(destination, 'dir.html', 'inside', 'f.txt'), 'f');

    const report = await verifyDestination(destination, state);
    const outputs = byPath(report);
    expect(report.status).toBe('drifted');
    expect(outputs['gone.html']).toEqual({ path: 'gone.html', status: 'missing', expected: { sha256: sha256Of('x'), size: 1 } });
    expect(outputs['longer.html']).toMatchObject({ status: 'size_mismatch', expected: { size: 3 }, actual: { size: 6 } });
    // A size mismatch needs no hash: the file is not read.
    expect(outputs['longer.html']?.actual?.sha256).toBeUndefined();
    expect(outputs['edited.html']).toMatchObject({
      status: 'hash_mismatch',
      expected: { sha256: sha256Of('abc') },
      actual: { sha256: sha256Of('xyz'), size: 3 },
    });
    expect(outputs['dir.html']).toMatchObject({ status: 'not_a_file', actual: { kind: 'directory' } });
    expect(outputs['ok.html']?.status).toBe('ok');
    // The directory standing where an output should be is reported once, as that output, not descended into.
    expect(report.extra).toEqual([]);
  });

  it('reports a symlinked output as not_a_file without following it, even to an unreadable file', async () => {
    const { dir: outside, remove: removeOutside } = await makeTempDir('verify-outside');
    try {
      const secret = path.join(outside, 'secret.html');
      writeFileSync(secret, 'same bytes');
      const { destination, state } = managed('site', { 'page.html': 'same bytes' });
      rmSync(path.join(destination, 'page.html'));
      symlinkSync(secret, path.join(destination, 'page.html'));
      chmodSync(secret, 0o000);
      const report = await verifyDestination(destination, state);
      expect(report.outputs[0]).toMatchObject({ path: 'page.html', status: 'not_a_file', actual: { kind: 'symlink', linkTarget: secret } });
      expect(report.outputs[0]?.actual?.sha256).toBeUndefined();
      expect(report.status).toBe('drifted');
    } finally {
      await removeOutside();
    }
  });

  it('does not hang on a symlink to a FIFO, nor on a FIFO standing in for an output', async () => {
    const { dir: outside, remove: removeOutside } = await makeTempDir('verify-fifo');
    try {
      const fifo = path.join(outside, 'pipe');
      execFileSync('mkfifo', [fifo]);
      const { destination, state } = managed('site', { 'linked.html': 'l', 'piped.html': 'p' });
      rmSync(path.join(destination, 'linked.html'));
      symlinkSync(fifo, path.join(destination, 'linked.html'));
      rmSync(path.join(destination, 'piped.html'));
      execFileSync('mkfifo', [path.join(destination, 'piped.html')]);
      const report = await verifyDestination(destination, state);
      expect(byPath(report)['linked.html']).toMatchObject({ status: 'not_a_file', actual: { kind: 'symlink' } });
      expect(byPath(report)['piped.html']).toMatchObject({ status: 'not_a_file', actual: { kind: 'fifo' } });
    } finally {
      await removeOutside();
    }
  }, 5_000);

  it('does not follow a symlinked parent directory out of the destination', async () => {
    const { dir: outside, remove: removeOutside } = await makeTempDir('verify-parent');
    try {
      mkdirSync(path.join(outside, 'pages'));
      writeFileSync(path.join(outside, 'pages', 'a.html'), 'a');
      const { destination, state } = managed('site', { 'pages/a.html': 'a' });
      rmSync(path.join(destination, 'pages'), { recursive: true });
      symlinkSync(path.join(outside, 'pages'), path.join(destination, 'pages'));
      const report = await verifyDestination(destination, state);
      expect(report.outputs[0]).toMatchObject({ status: 'not_a_file', actual: { kind: 'link_in_path' } });
      // The link itself is an extra entry, listed and not descended into.
      expect(report.extra).toEqual(['pages']);
    } finally {
      await removeOutside();
    }
  });

  it('lists extra files and empty extra folders, but not the state file, the staging folder or the parents of outputs', async () => {
    const { destination, state } = managed('site', { 'pages/a.html': 'a', 'index.html': 'i' });
    writeFileSync(path.join(destination, 'stray.txt'), 's');
    mkdirSync(path.join(destination, 'old', 'deeper'), { recursive: true });
    writeFileSync(path.join(destination, 'old', 'deeper', 'left.html'), 'l');
    mkdirSync(path.join(destination, 'empty-dir'));
    mkdirSync(path.join(destination, STAGING_DIR_NAME));
    writeFileSync(path.join(destination, STAGING_DIR_NAME, 'half.html'), 'h');
    symlinkSync('/etc', path.join(destination, 'etc-link'));
    rmSync(path.join(destination, 'pages', 'a.html'));
    const report = await verifyDestination(destination, state);
    expect(report.extra).toEqual(['empty-dir/', 'etc-link', 'old/deeper/left.html', 'stray.txt']);
    // Extra files alone do not make a destination drifted; the missing output does.
    expect(byPath(report)['pages/a.html']?.status).toBe('missing');
  });

  it('keeps a destination with only extra files intact', async () => {
    const { destination, state } = managed('site', { 'a.html': 'a' });
    writeFileSync(path.join(destination, 'notes.txt'), 'n');
    const report = await verifyDestination(destination, state);
    expect(report).toMatchObject({ status: 'intact', extra: ['notes.txt'] });
  });

  it('reports progress up to every output and every byte', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
    const { destination, state } = managed('site', { 'big.bin': big, 'small.txt': 'abc' });
    const seen: { done: number; total: number; bytes: number }[] = [];
    await verifyDestination(destination, state, { onProgress: (progress) => seen.push(progress) });
    expect(seen[0]).toEqual({ done: 0, total: 2, bytes: 0 });
    expect(seen.at(-1)).toEqual({ done: 2, total: 2, bytes: big.length + 3 });
  });
});

describe('verifyWorkspace', () => {
  it('verifies many destinations through one pool and returns reports in target order', async () => {
    const targets = Array.from({ length: 12 }, (_, i) => managed(`d${i}`, { 'a.txt': `a${i}`, 'b/c.txt': `c${i}` }));
    writeFileSync(path.join(targets[5]!.destination, 'a.txt'), 'changed');
    const pool = new HashPool({ size: 2 });
    try {
      const finished: number[] = [];
      const reports = await verifyWorkspace(
        targets.map(({ destination, state }) => ({ path: destination, state })),
        { pool, concurrency: 4, onResult: (index) => finished.push(index) },
      );
      expect(reports.map((report) => report.status)).toEqual(targets.map((_, i) => (i === 5 ? 'drifted' : 'intact')));
      expect(finished.sort((a, b) => a - b)).toEqual(targets.map((_, i) => i));
      expect(pool.workerCount).toBeLessThanOrEqual(2);
    } finally {
      await pool.close();
    }
    expect(pool.workerCount).toBe(0);
  });
});
