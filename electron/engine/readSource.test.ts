import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleManifest } from '../../shared/sampleDocuments';
import { readSource } from './readSource';

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'read-source-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function bundle(manifest: unknown = sampleManifest()): Promise<string> {
  const dir = path.join(root, 'bundle');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'manifest.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  return dir;
}

describe('readSource', () => {
  it('reads the manifest of a bundle directory', async () => {
    const dir = await bundle();
    const result = await readSource(dir);
    expect(result).toMatchObject({
      ok: true,
      bundleDir: dir,
      manifestFile: path.join(dir, 'manifest.json'),
      issues: [],
      manifest: { id: 'reports.example.2026-06-04' },
    });
  });

  it('reads a manifest.json given directly, with its directory as the bundle', async () => {
    const dir = await bundle();
    expect(await readSource(path.join(dir, 'manifest.json'))).toMatchObject({ ok: true, bundleDir: dir });
  });

  it('keeps warnings of a valid manifest', async () => {
    const result = await readSource(await bundle({ ...sampleManifest(), tool: 'make' }));
    expect(result).toMatchObject({ ok: true, issues: [{ code: 'unknown_field', path: ['tool'] }] });
  });

  it('says a missing source does not exist, naming it', async () => {
    const missing = path.join(root, 'nope');
    expect(await readSource(missing)).toEqual({
      ok: false,
      manifestFile: missing,
      issues: [expect.objectContaining({ code: 'source_missing', message: `${missing} does not exist` })],
    });
  });

  it('says a bundle without manifest.json has none, naming the file', async () => {
    const dir = path.join(root, 'empty');
    await fs.mkdir(dir);
    const result = await readSource(dir);
    expect(result).toMatchObject({ ok: false, manifestFile: path.join(dir, 'manifest.json') });
    expect(result.issues[0]).toMatchObject({ code: 'manifest_unreadable', message: `${path.join(dir, 'manifest.json')} does not exist` });
  });

  it('says a manifest.json that is a directory is one', async () => {
    const dir = path.join(root, 'odd');
    await fs.mkdir(path.join(dir, 'manifest.json'), { recursive: true });
    expect((await readSource(dir)).issues[0]?.message).toMatch(/is a directory, not a manifest file$/);
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO, named or in a bundle, naming it, without blocking on it', async () => {
    const fifo = path.join(root, 'manifest.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (const target of [fifo, root]) {
      const read = await Promise.race([readSource(target), new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 3000))]);
      expect(read !== 'hung' && read.issues[0]?.message).toBe(`${fifo} is a FIFO (named pipe), not a manifest file`);
    }
  });

  it('returns the issues of an invalid manifest, each naming its field', async () => {
    const result = await readSource(await bundle({ ...sampleManifest(), digest: 'md5:x', created: '2026-02-30T00:00:00Z' }));
    expect(result.ok).toBe(false);
    expect(result.issues.map((issue) => [issue.path, issue.code])).toEqual([
      [['created'], 'invalid_timestamp'],
      [['digest'], 'invalid_sha256'],
    ]);
  });

  it('returns the issue of a manifest that is not JSON', async () => {
    expect((await readSource(await bundle('not json'))).issues.map((issue) => issue.code)).toEqual(['invalid_json']);
  });
});
