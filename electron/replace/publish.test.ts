import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseState } from '../../shared/parseDocument';
import { APP_VERSION } from '../engine/appVersion';
import { execFileSync } from 'node:child_process';
import type { ManifestFile } from '../../shared/manifestSchema';
import { preparePublication, type PublicationInput } from './publish';
import { isStreamedSource, readVerifiedSourceFile, verifySourceFile } from './sourceFile';
import { sha256, writeBundle } from '../testing/fixtures';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
let bundle: string;
beforeEach(async () => {
  root = await tempDirForTest('publish-');
  bundle = path.join(root, 'bundle');
});

async function publish(files: Record<string, string>, overrides: Partial<PublicationInput> = {}) {
  const manifest = await writeBundle(bundle, files);
  return preparePublication({
    bundleRealPath: bundle,
    manifest,
    pipelineId: 'reports',
    destinationId: 'archive',
    publishedAt: '2026-06-05T10:00:00.000Z',
    ...overrides,
  });
}

describe('preparePublication', () => {
  it('builds a valid state: generated html for markdown, copies for the rest, urls, primary link and version', async () => {
    const result = await publish({ 'report.md': '# Report', 'data/a b.csv': 'a,b' }, { baseUrl: 'https://example.com/archive' });
    if (!result.ok) throw new Error(result.error.message);
    expect(parseState(JSON.stringify(result.value.state)).status).toBe('managed');
    expect(result.value.state.distributor_version).toBe(APP_VERSION);
    expect(result.value.state.published_at).toBe('2026-06-05T10:00:00.000Z');
    const [report, data] = result.value.outputs;
    expect(report).toMatchObject({
      path: 'report.html',
      kind: 'generated',
      transform: 'markdown_to_html',
      source_path: 'report.md',
      url: 'https://example.com/archive/report.html',
    });
    expect(data).toEqual({
      path: 'data/a b.csv',
      kind: 'source',
      source_path: 'data/a b.csv',
      sha256: sha256('a,b'),
      size: 3,
      url: 'https://example.com/archive/data/a%20b.csv',
    });
    expect(result.value.state.links?.primary_url).toBe('https://example.com/archive/report.html');
    expect(result.value.outputs.map((output) => output.path)).not.toContain('manifest.json');
  });

  it('gives no urls and no primary link without a base URL', async () => {
    const result = await publish({ 'report.md': '# Report' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.outputs[0]?.url).toBeUndefined();
    expect(result.value.state.links).toBeUndefined();
  });

  it('refuses two source files that would become the same output', async () => {
    const result = await publish({ 'a.md': '# A', 'a.html': '<p>a</p>' });
    expect(result.ok ? undefined : result.error.code).toBe('output_collision');
  });

  it('refuses an output that another output needs as its folder', async () => {
    const result = await publish({ 'x.md': '# X', 'x.html/a.txt': 'a' });
    expect(result.ok ? undefined : result.error).toMatchObject({ code: 'output_collision', details: { path: 'x.html' } });
  });

  it('publishes a source file under .distributor-staging/: the contract reserves only the state file', async () => {
    const result = await publish({ '.distributor-staging/x.txt': 'x', '.distributor-staging/staging.json': '{}' });
    expect(result.ok ? result.value.outputs.map((output) => output.path) : result.error.code).toEqual([
      '.distributor-staging/x.txt',
      '.distributor-staging/staging.json',
    ]);
  });

  it('refuses a missing source file, naming it', async () => {
    const manifest = await writeBundle(bundle, { 'a.txt': 'a' });
    await fs.rm(path.join(bundle, 'a.txt'));
    const result = await preparePublication({
      bundleRealPath: bundle,
      manifest,
      pipelineId: 'p',
      destinationId: 'd',
      publishedAt: '2026-06-05T10:00:00Z',
    });
    expect(result.ok ? undefined : result.error).toMatchObject({
      code: 'source_missing_file',
      message: expect.stringContaining(path.join(bundle, 'a.txt')),
    });
  });

  it('refuses a source file reached through a symlinked folder that leads out of the bundle', async () => {
    const manifest = await writeBundle(bundle, { 'docs/a.txt': 'a' });
    await fs.rename(path.join(bundle, 'docs'), path.join(root, 'elsewhere'));
    await fs.symlink(path.join(root, 'elsewhere'), path.join(bundle, 'docs'));
    const result = await preparePublication({
      bundleRealPath: bundle,
      manifest,
      pipelineId: 'p',
      destinationId: 'd',
      publishedAt: '2026-06-05T10:00:00Z',
    });
    expect(result.ok ? undefined : result.error.code).toBe('source_outside_bundle');
  });

  it('refuses a source file whose size differs from its manifest', async () => {
    const manifest = await writeBundle(bundle, { 'a.txt': 'a' });
    await fs.writeFile(path.join(bundle, 'a.txt'), 'ab');
    const result = await preparePublication({
      bundleRealPath: bundle,
      manifest,
      pipelineId: 'p',
      destinationId: 'd',
      publishedAt: '2026-06-05T10:00:00Z',
    });
    expect(result.ok ? undefined : result.error).toMatchObject({ code: 'source_mismatch', details: { expectedSize: 1, actualSize: 2 } });
  });

  it('refuses a source file shorter than its manifest says, naming both sizes', async () => {
    const manifest = await writeBundle(bundle, { 'a.txt': 'abc' });
    await fs.writeFile(path.join(bundle, 'a.txt'), 'a');
    const read = await readVerifiedSourceFile(bundle, manifest.files[0]!);
    expect(read.ok ? undefined : read.error).toMatchObject({
      code: 'source_mismatch',
      message: expect.stringContaining('has 1 bytes, but its manifest says 3'),
      details: { path: 'a.txt', expectedSize: 3, actualSize: 1 },
    });
  });

  it('refuses a source file that is a symbolic link, without following it', async () => {
    const manifest = await writeBundle(bundle, { 'a.txt': 'a' });
    await fs.writeFile(path.join(root, 'outside.txt'), 'a');
    await fs.rm(path.join(bundle, 'a.txt'));
    await fs.symlink(path.join(root, 'outside.txt'), path.join(bundle, 'a.txt'));
    const read = await readVerifiedSourceFile(bundle, manifest.files[0]!);
    expect(read.ok ? undefined : read.error.code).toBe('source_is_symlink');
  });

  it('refuses a base URL with a query, naming the field', async () => {
    const result = await publish({ 'a.txt': 'a' }, { baseUrl: 'https://example.com/?q=1' });
    expect(result.ok ? undefined : result.error).toMatchObject({ code: 'invalid_base_url', details: { field: 'base_url' } });
  });
});

describe('a large source file published as it is, verified in chunks', () => {
  // Past the synchronous read (1 MiB): streamed. Two chunks and a bit.
  const BIG = 'x'.repeat(2 * 1024 * 1024 + 100);
  const other = (text: string) => `y${text.slice(1)}`;

  /** Each way a large source file can be wrong, made on disk after its manifest was written. */
  const hostile: Record<string, (file: string) => Promise<void>> = {
    missing: (file) => fs.rm(file),
    'one byte changed': (file) => fs.writeFile(file, other(BIG)),
    'one byte longer': (file) => fs.appendFile(file, 'z'),
    'one byte shorter': (file) => fs.writeFile(file, BIG.slice(1)),
    'a link to a copy outside the bundle': async (file) => {
      await fs.writeFile(path.join(root, 'outside.bin'), BIG);
      await fs.rm(file);
      await fs.symlink(path.join(root, 'outside.bin'), file);
    },
    'a FIFO': async (file) => {
      await fs.rm(file);
      execFileSync('mkfifo', [file]);
    },
    'a folder': async (file) => {
      await fs.rm(file);
      await fs.mkdir(file);
    },
    'reached through a linked folder': async () => {
      await fs.rename(path.join(bundle, 'media'), path.join(root, 'media-elsewhere'));
      await fs.symlink(path.join(root, 'media-elsewhere'), path.join(bundle, 'media'));
    },
  };

  async function bigBundle(): Promise<ManifestFile> {
    const manifest = await writeBundle(bundle, { 'media/big.bin': BIG, 'small.txt': 'small' });
    return manifest.files[0]!;
  }

  it('streams only files past the synchronous read that are published as they are, never a markdown file', () => {
    expect(isStreamedSource({ path: 'media/big.bin', size: BIG.length })).toBe(true);
    expect(isStreamedSource({ path: 'media/big.bin', size: 1024 * 1024 })).toBe(false);
    expect(isStreamedSource({ path: 'notes/big.md', size: BIG.length })).toBe(false);
  });

  it("accepts the file as its manifest describes it, and the publication records the manifest's sha256 and size", async () => {
    const file = await bigBundle();
    expect(await verifySourceFile(bundle, file)).toEqual({ ok: true, value: undefined });
    const result = await publish({ 'media/big.bin': BIG, 'small.txt': 'small' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.outputs[0]).toEqual({
      path: 'media/big.bin',
      kind: 'source',
      source_path: 'media/big.bin',
      sha256: sha256(BIG),
      size: BIG.length,
    });
  });

  for (const [name, spoil] of Object.entries(hostile)) {
    it(`refuses a large source file that is ${name} exactly as the whole read refuses it (code, message and details)`, async () => {
      const file = await bigBundle();
      await spoil(path.join(bundle, 'media', 'big.bin'));
      const whole = await readVerifiedSourceFile(bundle, file);
      expect(whole.ok).toBe(false);
      expect(await verifySourceFile(bundle, file)).toEqual(whole);
      const manifest = JSON.parse(await fs.readFile(path.join(bundle, 'manifest.json'), 'utf8'));
      const planned = await preparePublication({
        bundleRealPath: bundle,
        manifest,
        pipelineId: 'p',
        destinationId: 'd',
        publishedAt: '2026-06-05T10:00:00Z',
      });
      expect(planned).toEqual(whole);
    });
  }
});
