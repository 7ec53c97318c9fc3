import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { createProgressBar, renderProgress } from './progressBar';
import { toTerminal } from './terminalText';
import { runCliCaptured } from '../testing/cliCapture';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('scan-command-test')));
afterEach(async () => remove());

const cli = (...argv: string[]) => runCliCaptured(argv, { cwd: dir });

describe('distributor-inspector scan', () => {
  it('prints one JSON document and exits 0 when everything is managed and intact', async () => {
    writeManagedDestination(path.join(dir, 'sites', 'a'), { 'index.html': 'a' }, { destinationId: 'a' });
    mkdirSync(path.join(dir, 'sites', 'b'));
    const before = Date.now();
    const { code, stdout, stderr } = await cli('scan', 'sites', '--verify', '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const document = JSON.parse(stdout);
    // Pretty-printed as every --json of the CLI, though its rows were printed as they came.
    expect(stdout).toBe(`${JSON.stringify(document, null, 2)}\n`);
    expect(document.counts).toEqual({ total: 2, managed: 1, unmanaged: 0, empty: 1, invalid: 0, intact: 1, drifted: 0 });
    expect(document.destinations[0]).toMatchObject({
      id: 'a',
      status: 'managed',
      destination_id: 'a',
      outputCount: 1,
      verify: { status: 'intact', extra: [] },
      freshness: 'fresh',
    });
    // When the verify was taken, as the app's export says it.
    expect(Date.parse(document.destinations[0].verified_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(document.destinations[1]).toMatchObject({ id: 'b', status: 'empty' });
    expect(document.destinations[1].verify).toBeUndefined();
    expect(document.destinations[1].verified_at).toBeUndefined();
  });

  it('exits 1 with --json too, counting the drifted destination and listing its changed output', async () => {
    writeManagedDestination(path.join(dir, 'a'), { 'index.html': 'a', 'about.html': 'b' });
    writeManagedDestination(path.join(dir, 'b'), { 'index.html': 'b' });
    writeFileSync(path.join(dir, 'a', 'about.html'), 'B');
    const { code, stdout } = await cli('scan', '.', '--verify', '--json');
    expect(code).toBe(1);
    const document = JSON.parse(stdout);
    expect(document.counts).toMatchObject({ total: 2, intact: 1, drifted: 1 });
    expect(document.destinations[0].verify.status).toBe('drifted');
    expect(document.destinations[0].verify.outputs).toContainEqual(
      expect.objectContaining({ path: 'about.html', status: 'hash_mismatch' }),
    );
    expect(document.destinations[1].verify.status).toBe('intact');
  });

  it('exits 1 and names the drifted output when a file changed', async () => {
    writeManagedDestination(path.join(dir, 'a'), { 'index.html': 'a', 'about.html': 'b' });
    writeFileSync(path.join(dir, 'a', 'about.html'), 'B');
    const { code, stdout } = await cli('scan', '.', '--verify');
    expect(code).toBe(1);
    expect(stdout).toMatch(/managed\s+drifted\s+a/);
    expect(stdout).toMatch(/hash_mismatch\s+about\.html/);
    expect(stdout).toContain('verified 1: 0 intact, 1 drifted');
  });

  it('reads the workspace file a folder holds, and says which file it used', async () => {
    writeManagedDestination(path.join(dir, 'destinations', 'docs'), { 'index.html': 'a' }, { destinationId: 'docs' });
    mkdirSync(path.join(dir, 'sources'));
    const file = path.join(dir, 'distributor-inspector.json');
    writeFileSync(file, JSON.stringify({ destinations: [{ path: 'destinations/docs', destination_id: 'docs' }] }));
    const text = await cli('scan', '.');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`Workspace file: ${file} (the workspace file in ${dir})`);
    expect(text.stdout).toMatch(/managed\s+docs/);
    expect(text.stdout).not.toMatch(/\bsources\b/);
    const json = JSON.parse((await cli('scan', '.', '--json')).stdout);
    expect(json.workspace).toMatchObject({ kind: 'file', file, root: dir });
    expect(json.destinations.map((row: { id: string }) => row.id)).toEqual(['docs']);
  });

  it('names the folder it scanned when no workspace file is in it', async () => {
    mkdirSync(path.join(dir, 'a'));
    const { stdout } = await cli('scan', '.');
    expect(stdout.split('\n')[0]).toBe(`Workspace folder: ${dir}`);
  });

  it('exits 1 on an invalid state without --verify', async () => {
    mkdirSync(path.join(dir, 'bad'));
    writeFileSync(path.join(dir, 'bad', '.distributor.json'), '{"schema_version": "1"}');
    const { code, stdout } = await cli('scan', '.');
    expect(code).toBe(1);
    expect(stdout).toContain('schema_version');
  });

  it('exits 2 on a bad workspace file, printing each issue with the file and the field', async () => {
    const file = path.join(dir, 'distributor-inspector.json');
    writeFileSync(file, JSON.stringify({ destinations: [{ path: 'a' }, { path: 7 }, { path: 'c', replace_policy: 'never' }] }));
    const { code, stdout, stderr } = await cli('scan', 'distributor-inspector.json');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      `distributor-inspector scan: ${file}: destinations[1].path: "path" must be a string, not the number 7`,
      expect.stringMatching(
        new RegExp(`^distributor-inspector scan: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: destinations\\[2\\]\\.replace_policy: `),
      ),
    ]);
  });

  it('draws no progress bar when stderr is not a terminal', async () => {
    writeManagedDestination(path.join(dir, 'a'), { 'index.html': 'a' });
    const { stderr } = await cli('scan', '.', '--verify', '--json');
    expect(stderr).toBe('');
  });
});

describe('the progress bar', () => {
  it('renders the share done, the counts and the bytes', () => {
    expect(renderProgress('verify', { done: 50, total: 200, bytes: 3 * 1024 * 1024 })).toBe(
      `verify [#######---------------------]  25%  50/200  3.0 MiB`,
    );
  });

  it('redraws at most every 100 ms but always draws the last step, and clears itself', () => {
    let written = '';
    let clock = 0;
    const bar = createProgressBar(
      (text) => (written += text),
      true,
      () => clock,
    );
    bar.update('scan', { done: 1, total: 3 });
    clock = 50;
    bar.update('scan', { done: 2, total: 3 });
    bar.update('scan', { done: 3, total: 3 });
    bar.clear();
    // What the terminal gets, once runCli has turned the bar's marks into real sequences.
    const shown = toTerminal(written);
    expect(shown.split('\r\u001b[K').filter(Boolean)).toEqual([
      renderProgress('scan', { done: 1, total: 3 }),
      renderProgress('scan', { done: 3, total: 3 }),
    ]);
    expect(shown.endsWith('\r\u001b[K')).toBe(true);
  });
});

describe('distributor-inspector inspect --verify', () => {
  it('adds the verify report to the JSON document and exits 1 when drifted', async () => {
    writeManagedDestination(path.join(dir, 'site'), { 'index.html': 'i', 'about.html': 'a' });
    writeFileSync(path.join(dir, 'site', 'about.html'), 'changed');
    writeFileSync(path.join(dir, 'site', 'stray.txt'), 's');
    const { code, stdout } = await cli('inspect', 'site', '--verify', '--json');
    expect(code).toBe(1);
    const document = JSON.parse(stdout);
    expect(document.status).toBe('managed');
    expect(document.verify).toMatchObject({ status: 'drifted', extra: ['stray.txt'] });
    expect(document.verify.outputs.map((output: { path: string; status: string }) => [output.path, output.status])).toEqual([
      ['index.html', 'ok'],
      ['about.html', 'size_mismatch'],
    ]);
  });

  it('shows an intact destination in words and exits 0', async () => {
    writeManagedDestination(path.join(dir, 'site'), { 'index.html': 'i' });
    const { code, stdout } = await cli('inspect', 'site', '--verify');
    expect(code).toBe(0);
    expect(stdout).toContain('✓ intact: 1 of 1 outputs match their recorded hash and size');
  });

  it('says there is nothing to verify in a destination that is not managed', async () => {
    mkdirSync(path.join(dir, 'plain'));
    writeFileSync(path.join(dir, 'plain', 'x.html'), 'x');
    const { code, stdout } = await cli('inspect', 'plain', '--verify', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).verify).toBeUndefined();
  });
});

describe('scan and the sync axis', () => {
  it('gives each destination Compare’s decision against its configured source and the reason, in --json and the table', async () => {
    const { makeDemoFixture } = await import('../testing/demoFixture');
    const demo = await makeDemoFixture('scan-sync-');
    try {
      const json = await cli('scan', demo.workspaceFile, '--json');
      const document = JSON.parse(json.stdout) as {
        destinations: { id: string; sync?: { kind: string; decision?: string; reason?: string } }[];
      };
      const sync = new Map(document.destinations.map((row) => [row.id, row.sync]));
      expect(sync.get('docs-rebuilt')).toMatchObject({ kind: 'conflict', decision: 'conflict', reason: 'digest_mismatch' });
      expect(sync.get('docs-us')).toMatchObject({ kind: 'publish_waiting', decision: 'replace' });
      expect(sync.get('docs-apac')).toMatchObject({ kind: 'destination_newer', decision: 'skip_newer' });
      expect(sync.get('docs-eu')).toMatchObject({ kind: 'up_to_date', decision: 'skip' });
      const text = await cli('scan', demo.workspaceFile);
      expect(text.stdout).toMatch(/STATUS\s+ID\s+OUTPUTS\s+ISSUES\s+PUBLISHED\s+SYNC/);
      expect(text.stdout).toMatch(/docs-rebuilt .*conflict \(digest_mismatch\)/);
    } finally {
      await demo.remove();
    }
  });
});
