import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleState } from '../../shared/sampleDocuments';
import { inspectDestination } from './inspectDestination';

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'inspect-destination-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const validState = () => JSON.stringify(sampleState(), null, 2);

async function destination(files: Record<string, string> = {}): Promise<string> {
  const dir = path.join(root, 'dest');
  await fs.mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
  return dir;
}

describe('inspectDestination: the status of a destination from the disk alone', () => {
  it('calls a missing directory empty', async () => {
    const result = await inspectDestination(path.join(root, 'nowhere'));
    expect(result).toEqual({ path: path.join(root, 'nowhere'), status: 'empty', issues: [], hasContent: false });
  });

  it('calls an empty directory empty', async () => {
    expect(await inspectDestination(await destination())).toMatchObject({ status: 'empty', issues: [], hasContent: false });
  });

  it('calls a directory with a file but no state unmanaged', async () => {
    expect(await inspectDestination(await destination({ 'report.html': '<p>' }))).toMatchObject({
      status: 'unmanaged',
      issues: [],
      hasContent: true,
    });
  });

  it('calls a directory holding only an empty folder unmanaged', async () => {
    const dir = await destination();
    await fs.mkdir(path.join(dir, 'pages'));
    expect((await inspectDestination(dir)).status).toBe('unmanaged');
  });

  it('calls a destination with a valid state managed, with the state, its JSON and its fingerprint', async () => {
    const text = validState();
    const dir = await destination({ '.distributor.json': text, 'report.html': '<p>' });
    const result = await inspectDestination(dir);
    expect(result.status).toBe('managed');
    expect(result.issues).toEqual([]);
    expect(result.state?.pipeline_id).toBe('reports');
    expect(result.stateJson).toEqual(JSON.parse(text));
    expect(result.stateSha256).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
    expect(result.hasContent).toBe(true);
    expect(result.stateText).toBeUndefined();
  });

  it('gives the same inspection without its digests when asked for none, for every kind of destination', async () => {
    const cases: Record<string, Record<string, string>> = {
      managed: { '.distributor.json': validState(), 'report.html': '<p>' },
      invalid: { '.distributor.json': '{"schema_version": 2}' },
      unmanaged: { 'index.html': 'x' },
      empty: {},
      interrupted: { '.distributor.json': validState(), '.distributor-staging/staging.json': '{}' },
    };
    for (const [name, files] of Object.entries(cases)) {
      const dir = await destination(files);
      const full = await inspectDestination(dir, { includeText: true });
      const { stateSha256, listingDigest, ...rest } = full;
      expect(listingDigest, name).toMatch(/^sha256:/);
      if (full.stateText !== undefined) expect(stateSha256, name).toMatch(/^sha256:/);
      const withoutDigests = await inspectDestination(dir, { includeText: true, digests: false });
      expect(withoutDigests, name).toEqual(rest);
      expect(Object.keys(withoutDigests), name).toEqual(Object.keys(rest));
      await fs.rm(dir, { recursive: true });
    }
  });

  it('does not count the state file itself as content', async () => {
    expect(await inspectDestination(await destination({ '.distributor.json': validState() }))).toMatchObject({
      status: 'managed',
      hasContent: false,
    });
  });

  it('gives the raw text when asked, also for an invalid state', async () => {
    const dir = await destination({ '.distributor.json': '{"schema_version": 2}' });
    const result = await inspectDestination(dir, { includeText: true });
    expect(result).toMatchObject({ status: 'invalid', stateText: '{"schema_version": 2}', stateJson: { schema_version: 2 } });
    expect(result.state).toBeUndefined();
  });

  it('calls a state file that is not JSON invalid, with the issue and no JSON', async () => {
    const result = await inspectDestination(await destination({ '.distributor.json': '{ not json' }));
    expect(result.status).toBe('invalid');
    expect(result.issues.map((issue) => issue.code)).toEqual(['invalid_json']);
    expect(result.stateJson).toBeUndefined();
  });

  it('calls a state file that is not UTF-8 invalid', async () => {
    const dir = await destination();
    await fs.writeFile(path.join(dir, '.distributor.json'), Buffer.from([0x7b, 0xff, 0x7d]));
    expect((await inspectDestination(dir)).issues.map((issue) => issue.code)).toEqual(['not_utf8']);
  });

  it('calls an empty state file invalid', async () => {
    expect((await inspectDestination(await destination({ '.distributor.json': '' }))).issues.map((issue) => issue.code)).toEqual([
      'empty_file',
    ]);
  });

  it('reports a state file that is a symbolic link as invalid, without following it', async () => {
    await fs.writeFile(path.join(root, 'elsewhere.json'), validState());
    const dir = await destination();
    await fs.symlink(path.join(root, 'elsewhere.json'), path.join(dir, '.distributor.json'));
    const result = await inspectDestination(dir, { includeText: true });
    expect(result.status).toBe('invalid');
    expect(result.issues).toEqual([
      expect.objectContaining({ code: 'state_not_a_file', message: expect.stringContaining('symbolic link') }),
    ]);
    expect(result.stateJson).toBeUndefined();
    expect(result.stateText).toBeUndefined();
  });

  it('reports a state file that is a directory as invalid', async () => {
    const dir = await destination();
    await fs.mkdir(path.join(dir, '.distributor.json'));
    const result = await inspectDestination(dir);
    expect(result.status).toBe('invalid');
    expect(result.issues).toEqual([expect.objectContaining({ code: 'state_not_a_file', message: expect.stringContaining('a directory') })]);
  });

  it.skipIf(process.platform === 'win32')('reports a state file that is a FIFO as invalid, naming it, without blocking on it', async () => {
    const dir = await destination();
    expect(spawnSync('mkfifo', [path.join(dir, '.distributor.json')]).status).toBe(0);
    const result = await Promise.race([inspectDestination(dir), new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 3000))]);
    expect(result).toMatchObject({ status: 'invalid' });
    expect(result !== 'hung' && result.issues).toEqual([
      expect.objectContaining({
        code: 'state_not_a_file',
        message: `${path.join(dir, '.distributor.json')} is a FIFO (named pipe), not a state file`,
      }),
    ]);
  });

  it.skipIf(process.getuid?.() !== 0)('reports a state file that is a device as invalid, naming it (mknod needs root)', async () => {
    const dir = await destination();
    expect(spawnSync('mknod', [path.join(dir, '.distributor.json'), 'c', '1', '3']).status).toBe(0);
    const result = await inspectDestination(dir);
    expect(result.issues).toEqual([
      expect.objectContaining({ code: 'state_not_a_file', message: expect.stringContaining('is a character device') }),
    ]);
  });

  it('reports a destination that is itself a symbolic link, without following it', async () => {
    const real = await destination({ '.distributor.json': validState() });
    const link = path.join(root, 'link');
    await fs.symlink(real, link);
    const result = await inspectDestination(link);
    expect(result.status).toBe('unmanaged');
    expect(result.issues).toEqual([expect.objectContaining({ code: 'destination_is_symlink', severity: 'error' })]);
    expect(result.stateJson).toBeUndefined();
  });

  it('reports a dangling symbolic link as a destination that is a link, not as missing', async () => {
    const link = path.join(root, 'dangling');
    await fs.symlink(path.join(root, 'gone'), link);
    expect((await inspectDestination(link)).issues[0]?.code).toBe('destination_is_symlink');
  });

  it('reports a destination that is a regular file', async () => {
    const file = path.join(root, 'file');
    await fs.writeFile(file, 'x');
    const result = await inspectDestination(file);
    expect(result.status).toBe('unmanaged');
    expect(result.issues[0]?.code).toBe('destination_not_directory');
  });

  it('resolves a relative destination path', async () => {
    const dir = await destination();
    const result = await inspectDestination(path.relative(process.cwd(), dir));
    expect(result.path).toBe(dir);
  });
});
