import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compare, type Comparison } from '../../shared/compare';
import { formatIssuePath } from '../../shared/issues';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { createDemoWorkspace, DEMO_MARKER_FILE, WORKSPACE_FILE_NAME, type WorkspaceEntry } from './demo';
import { LARGE_DESTINATION_COUNT, writeLargeDestinations } from './demoLarge';
import { realDemoDisk } from './demoDisk';
import { listDemoTree } from './demoMarker';
import { inspectDestination } from '../engine/inspectDestination';
import { readSource } from '../engine/readSource';
import { compareFolder } from '../replace/compareFolder';

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-test-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function entries(dir: string): Promise<WorkspaceEntry[]> {
  return JSON.parse(await fs.readFile(path.join(dir, WORKSPACE_FILE_NAME), 'utf8')).destinations;
}

async function comparisonOf(dir: string, entry: WorkspaceEntry): Promise<Comparison> {
  const inspection = await inspectDestination(path.join(dir, entry.path));
  const source = await readSource(path.join(dir, entry.source));
  if (!source.ok) throw new Error(`demo source ${entry.source} is invalid`);
  const destination = inspection.state
    ? { status: 'managed' as const, state: inspection.state }
    : inspection.status === 'invalid'
      ? { status: 'invalid' as const }
      : { status: 'none' as const };
  return compare({
    destination,
    hasContent: inspection.hasContent,
    source: source.manifest,
    configured: { pipelineId: entry.pipeline_id, destinationId: entry.destination_id },
  });
}

/** What verify will say of each output, computed here independently: lstat, size, then sha256. */
async function outputStatuses(dest: string): Promise<Record<string, string>> {
  const inspection = await inspectDestination(dest);
  const statuses: Record<string, string> = {};
  for (const output of inspection.state!.outputs) {
    const file = path.join(dest, output.path);
    const stat = await fs.lstat(file).catch(() => undefined);
    if (!stat) statuses[output.path] = 'missing';
    else if (!stat.isFile()) statuses[output.path] = 'not_a_file';
    else if (stat.size !== output.size) statuses[output.path] = 'size_mismatch';
    else
      statuses[output.path] =
        `sha256:${createHash('sha256')
          .update(await fs.readFile(file))
          .digest('hex')}` === output.sha256
          ? 'ok'
          : 'hash_mismatch';
  }
  return statuses;
}

async function treeDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (at: string): Promise<void> => {
    for (const name of (await fs.readdir(at)).sort()) {
      const file = path.join(at, name);
      const stat = await fs.lstat(file);
      hash.update(
        `${path.relative(dir, file)}\0${stat.isSymbolicLink() ? `link:${await fs.readlink(file)}` : stat.isDirectory() ? 'dir' : (await fs.readFile(file)).toString('base64')}\n`,
      );
      if (stat.isDirectory()) await walk(file);
    }
  };
  await walk(dir);
  return hash.digest('hex');
}

describe('the demo workspace', () => {
  it('holds a destination of every status, with the issues each case is about', async () => {
    const result = await createDemoWorkspace(root);
    expect(result.ok).toBe(true);
    const byName = new Map<string, Awaited<ReturnType<typeof inspectDestination>>>();
    for (const entry of await entries(root)) byName.set(path.basename(entry.path), await inspectDestination(path.join(root, entry.path)));
    const statuses = new Set([...byName.values()].map((inspection) => inspection.status));
    expect([...statuses].sort()).toEqual(['empty', 'invalid', 'managed', 'unmanaged']);

    const issuesOf = (name: string) =>
      byName.get(name)!.issues.map((issue) => `${issue.severity} ${issue.code} ${formatIssuePath(issue.path)}`);
    expect(issuesOf('broken-sha')).toContain('error invalid_sha256 outputs[1].sha256');
    expect(issuesOf('broken-path')).toContain('error unclean_path outputs[2].path');
    expect(issuesOf('broken-duplicate')).toContain('error duplicate_path outputs[4].path');
    expect(issuesOf('broken-duplicate').some((line) => line.endsWith('schema_version'))).toBe(true);
    expect(issuesOf('broken-json')).toEqual(['error invalid_json (document)']);
    expect(byName.get('release-notes')!.status).toBe('managed');
    expect(issuesOf('release-notes')).toEqual(
      expect.arrayContaining([
        'warning unknown_field build',
        'warning unknown_field outputs[0].cache_control',
        'warning duplicate_key distributor_version',
      ]),
    );
    expect(issuesOf('release-notes').some((line) => line.startsWith('warning case_collision outputs['))).toBe(true);
    expect(byName.get('status-missing')!.status).toBe('empty');
    expect(byName.get('legacy-site')!.status).toBe('unmanaged');
    expect(byName.get('status-copied')!.status).toBe('unmanaged');
  });

  it('holds an unmanaged folder whose files are the publication of its source byte for byte: it can be adopted', async () => {
    await createDemoWorkspace(root);
    const compared = await compareFolder({
      destinationPath: path.join(root, 'destinations', 'status-copied'),
      sourcePath: path.join(root, 'sources', 'status-page'),
    });
    if (!compared.ok) throw new Error(compared.error.message);
    expect(compared.value.counts).toEqual({ matches: 2, differs: 0, missing: 0, extra: 1 });
    expect(compared.value.adoptable).toBe(true);
  });

  it('yields every compare decision and every conflict reason against the configured sources', async () => {
    await createDemoWorkspace(root);
    const seen = new Map<string, string>();
    for (const entry of await entries(root)) {
      const comparison = await comparisonOf(root, entry);
      seen.set(path.basename(entry.path), comparison.reason ? `${comparison.decision}:${comparison.reason}` : comparison.decision);
    }
    expect(seen.get('docs-eu')).toBe('skip');
    expect(seen.get('docs-us')).toBe('replace');
    expect(seen.get('docs-apac')).toBe('skip_newer');
    expect(seen.get('legacy-site')).toBe('unmanaged');
    expect(seen.get('status-copied')).toBe('unmanaged');
    expect(seen.get('status-new')).toBe('publish');
    expect(seen.get('broken-sha')).toBe('conflict:invalid_state');
    expect(seen.get('docs-mirror')).toBe('conflict:identity_mismatch');
    expect(seen.get('docs-rebuilt')).toBe('conflict:digest_mismatch');
    expect(seen.get('docs-edited')).toBe('conflict:manifest_mismatch');
  });

  it('writes outputs whose bytes match their state, except in the drifted case, which shows every verify status', async () => {
    await createDemoWorkspace(root);
    for (const name of ['docs-eu', 'docs-us', 'docs-apac', 'release-notes', 'docs-mirror', 'docs-rebuilt', 'docs-edited', 'docs-latam']) {
      expect(new Set(Object.values(await outputStatuses(path.join(root, 'destinations', name)))), name).toEqual(new Set(['ok']));
    }
    const drifted = await outputStatuses(path.join(root, 'destinations', 'runbook-prod'));
    expect(drifted).toEqual({
      'index.html': 'ok',
      'checklists/deploy.txt': 'size_mismatch',
      'checklists/rollback.txt': 'hash_mismatch',
      'contacts.txt': 'missing',
      'escalation.txt': 'not_a_file',
      'diagrams/topology.txt': 'not_a_file',
    });
    expect((await fs.lstat(path.join(root, 'destinations/runbook-prod/escalation.txt'))).isSymbolicLink()).toBe(true);
    expect((await fs.lstat(path.join(root, 'destinations/runbook-prod/diagrams/topology.txt'))).isDirectory()).toBe(true);
  });

  it('leaves an interrupted replace: the old valid state plus a staging folder', async () => {
    await createDemoWorkspace(root);
    const dest = path.join(root, 'destinations', 'docs-latam');
    expect((await inspectDestination(dest)).state?.source.manifest.created).toBe('2026-05-01T09:00:00Z');
    expect((await fs.readdir(path.join(dest, STAGING_DIR_NAME, 'files'))).length).toBeGreaterThan(0);
    // Reported as an interrupted replace: the folder carries apply's marker, not just the name.
    expect((await inspectDestination(dest)).issues.map((issue) => issue.code)).toContain('interrupted');
  });

  it('writes source bundles whose files match their manifests byte for byte', async () => {
    await createDemoWorkspace(root);
    for (const name of await fs.readdir(path.join(root, 'sources'))) {
      const source = await readSource(path.join(root, 'sources', name));
      expect(source.ok, name).toBe(true);
      if (!source.ok) continue;
      for (const file of source.manifest.files) {
        const bytes = await fs.readFile(path.join(source.bundleDir, file.path));
        expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`, `${name}/${file.path}`).toBe(file.sha256);
        expect(bytes.length).toBe(file.size);
      }
    }
  });

  it('reopens an earlier demo as it is, keeping every change, and writes nothing', async () => {
    const dir = path.join(root, 'not', 'yet');
    expect((await createDemoWorkspace(dir)).ok).toBe(true);
    await fs.writeFile(path.join(dir, 'destinations', 'docs-eu', 'index.html'), 'changed by a test');
    await fs.mkdir(path.join(dir, '.inspector-backups', 'docs-eu', '2026-12-06T010000.000Z'), { recursive: true });
    await fs.writeFile(path.join(dir, '.inspector-history.jsonl'), '{"a":1}\n');
    const before = await treeDigest(dir);
    const again = await createDemoWorkspace(dir);
    expect(again).toMatchObject({ ok: true, value: { reopened: true, replacedPrevious: false, large: false } });
    expect(again.ok && again.value.destinationCount).toBe((await entries(dir)).length);
    expect(await treeDigest(dir)).toBe(before);
  });

  it('makes the demo afresh on a reset: the same bytes, with its backups, history and added files gone', async () => {
    expect((await createDemoWorkspace(root)).ok).toBe(true);
    const first = await treeDigest(root);
    await fs.writeFile(path.join(root, 'destinations', 'docs-eu', 'index.html'), 'changed by a test');
    await fs.writeFile(path.join(root, 'destinations', 'docs-eu', 'added-by-a-replace.html'), 'new');
    const backup = path.join(root, '.inspector-backups', 'docs-eu', '2026-12-06T010000.000Z', 'files');
    await fs.mkdir(backup, { recursive: true });
    await fs.writeFile(path.join(backup, 'index.html'), 'old');
    await fs.symlink('/etc', path.join(backup, 'a-link'));
    await fs.writeFile(path.join(root, '.inspector-history.jsonl'), '{"a":1}\n{"b":2}\n');
    const again = await createDemoWorkspace(root, { reset: true });
    expect(again).toMatchObject({
      ok: true,
      value: { reopened: false, replacedPrevious: true, removed: { backups: 1, historyRecords: 2, addedInDestinations: 1 } },
    });
    expect(await treeDigest(root)).toBe(first);
  });

  it('refuses a non-empty folder that is not a previous demo, and changes nothing in it', async () => {
    await fs.writeFile(path.join(root, 'precious.txt'), 'keep me');
    const result = await createDemoWorkspace(root);
    expect(result).toEqual({ ok: false, error: expect.stringContaining(DEMO_MARKER_FILE) });
    expect(await fs.readdir(root)).toEqual(['precious.txt']);
  });

  it('makes many small destinations for --large, with every status among them', async () => {
    // The full 10,000 takes seconds; the bench and the e2e specs open it. Here a slice of the same generator.
    const made = await writeLargeDestinations(realDemoDisk(root), 'destinations', 400);
    expect(made).toHaveLength(400);
    const statuses = new Set<string>();
    for (const entry of made) statuses.add((await inspectDestination(path.join(root, entry.path))).status);
    expect([...statuses].sort()).toEqual(['empty', 'invalid', 'managed', 'unmanaged']);
    expect(LARGE_DESTINATION_COUNT).toBe(10_000);
  });
});

const isRoot = process.getuid?.() === 0;
const hasOwners = process.getuid !== undefined;

describe('the demo folder on a re-run', () => {
  async function marker(dir: string): Promise<{ paths: string[] } & Record<string, unknown>> {
    return JSON.parse(await fs.readFile(path.join(dir, DEMO_MARKER_FILE), 'utf8'));
  }

  it('records in its marker every path it wrote, and only those', async () => {
    await createDemoWorkspace(root);
    const written = (await listDemoTree(root)).map((entry) => entry.relative).sort();
    const recorded = (await marker(root)).paths;
    expect(recorded).toEqual(expect.arrayContaining(written));
    // The one path it wrote and removed again: the drifted case's missing output.
    expect(recorded.filter((each) => !written.includes(each))).toEqual(['destinations/runbook-prod/contacts.txt']);
    expect(written).toEqual(expect.arrayContaining(['destinations/runbook-prod/escalation.txt', 'sources', WORKSPACE_FILE_NAME]));
  });

  it('on a reset, keeps a site the user added under destinations/ and refuses, naming it and removing nothing', async () => {
    await createDemoWorkspace(root);
    await fs.mkdir(path.join(root, 'destinations', 'my-site'));
    await fs.writeFile(path.join(root, 'destinations', 'my-site', 'index.html'), 'mine');
    await fs.writeFile(path.join(root, 'sources', 'handbook-2026-05', 'notes.txt'), 'mine too');
    await fs.writeFile(path.join(root, 'my-notes.txt'), 'and mine');
    await fs.mkdir(path.join(root, '.inspector-backups'));
    const before = await treeDigest(root);
    const again = await createDemoWorkspace(root, { reset: true });
    expect(again.ok).toBe(false);
    const message = again.ok ? '' : again.error;
    expect(message).toContain('"destinations/my-site"');
    expect(message).toContain('"destinations/my-site/index.html"');
    expect(message).toContain('"sources/handbook-2026-05/notes.txt"');
    expect(message).toContain('"my-notes.txt"');
    expect(message).toContain('Nothing was removed');
    expect(await treeDigest(root)).toBe(before);
    // Without a reset it is the user's workspace, reopened with their site in it.
    expect(await createDemoWorkspace(root)).toMatchObject({ ok: true, value: { reopened: true } });
    expect(await treeDigest(root)).toBe(before);
  });

  it('refuses to reopen a demo whose workspace file no longer loads, naming it and the way out', async () => {
    await createDemoWorkspace(root);
    await fs.writeFile(path.join(root, WORKSPACE_FILE_NAME), '{ not json');
    const again = await createDemoWorkspace(root);
    expect(again).toEqual({ ok: false, error: expect.stringContaining(path.join(root, WORKSPACE_FILE_NAME)) });
    expect(again.ok || again.error).toContain('demo --reset');
  });

  it('empties a demo cut short of its own paths and writes it whole again', async () => {
    expect((await createDemoWorkspace(root)).ok).toBe(true);
    const whole = await treeDigest(root);
    // What a Ctrl-C half way leaves: the marker (written first) and some of the files.
    await fs.rm(path.join(root, WORKSPACE_FILE_NAME));
    await fs.rm(path.join(root, 'destinations'), { recursive: true });
    expect((await createDemoWorkspace(root)).ok).toBe(true);
    expect(await treeDigest(root)).toBe(whole);
  });

  it.each([
    ['not JSON', '{"generator": "distributor-inspector demo", "format": 2', 'is not valid JSON'],
    ['the format before paths were recorded', '{"generator":"distributor-inspector demo","large":false}', 'field format'],
    ['another program', '{"generator":"someone else","format":2,"large":false,"paths":[]}', 'field generator'],
    [
      'a path that climbs out',
      '{"generator":"distributor-inspector demo","format":2,"large":false,"paths":["../victim"]}',
      'field paths[0]',
    ],
  ])('refuses a marker that is %s, and removes nothing', async (_what, text, expected) => {
    await createDemoWorkspace(root);
    await fs.writeFile(path.join(root, DEMO_MARKER_FILE), text);
    const before = await treeDigest(root);
    const again = await createDemoWorkspace(root);
    expect(again).toEqual({ ok: false, error: expect.stringContaining(expected) });
    expect(again.ok || again.error).toContain(path.join(root, DEMO_MARKER_FILE));
    expect(await treeDigest(root)).toBe(before);
  });

  it.skipIf(!hasOwners)('refuses a marker that is a FIFO, at once, without opening it blocking', async () => {
    const { execFileSync } = await import('node:child_process');
    await fs.mkdir(path.join(root, 'destinations'));
    execFileSync('mkfifo', [path.join(root, DEMO_MARKER_FILE)]);
    const result = await Promise.race([createDemoWorkspace(root), new Promise((resolve) => setTimeout(() => resolve('hung'), 3000))]);
    expect(result).toEqual({ ok: false, error: expect.stringContaining('is a FIFO (named pipe)') });
  });
});

describe('the demo folder is private to the user', () => {
  it.skipIf(!hasOwners)('creates a missing folder, and its missing parents, with mode 0700', async () => {
    const dir = path.join(root, 'cache', 'distributor-inspector', 'demo');
    expect((await createDemoWorkspace(dir)).ok).toBe(true);
    expect((await fs.stat(dir)).mode & 0o777).toBe(0o700);
    expect((await fs.stat(path.dirname(dir))).mode & 0o777).toBe(0o700);
  });

  it.skipIf(!hasOwners)('refuses an empty folder that group or others can write, and writes nothing into it', async () => {
    const dir = path.join(root, 'shared');
    await fs.mkdir(dir);
    await fs.chmod(dir, 0o777);
    const result = await createDemoWorkspace(dir);
    expect(result).toEqual({ ok: false, error: expect.stringContaining('writable by group or others (mode 0777)') });
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it.skipIf(!hasOwners)('refuses a previous demo whose folder was made writable by others, removing nothing', async () => {
    await createDemoWorkspace(root);
    await fs.chmod(root, 0o757);
    const before = await treeDigest(root);
    expect((await createDemoWorkspace(root)).ok).toBe(false);
    expect((await createDemoWorkspace(root, { reset: true })).ok).toBe(false);
    expect(await treeDigest(root)).toBe(before);
    await fs.chmod(root, 0o700);
  });

  // Only root can give a folder to another user; elsewhere the pure rule is tested in demoFolder.test.ts.
  it.skipIf(!isRoot)('refuses a folder another user created, even with a marker in it (runs as root only)', async () => {
    const dir = path.join(root, 'planted');
    await createDemoWorkspace(dir);
    await fs.chown(dir, 65534, 65534);
    const before = await treeDigest(dir);
    const result = await createDemoWorkspace(dir);
    expect(result).toEqual({ ok: false, error: expect.stringContaining('belongs to another user (uid 65534') });
    expect(await treeDigest(dir)).toBe(before);
  });

  it.skipIf(!hasOwners)('refuses a folder whose parent others can write without the sticky bit', async () => {
    const parent = path.join(root, 'open');
    await fs.mkdir(parent);
    await fs.chmod(parent, 0o777);
    const result = await createDemoWorkspace(path.join(parent, 'demo'));
    expect(result).toEqual({ ok: false, error: expect.stringContaining('without the sticky bit') });
  });

  it('refuses a symbolic link in place of the folder', async () => {
    await fs.mkdir(path.join(root, 'elsewhere'));
    await fs.symlink(path.join(root, 'elsewhere'), path.join(root, 'link'));
    const result = await createDemoWorkspace(path.join(root, 'link'));
    expect(result).toEqual({ ok: false, error: expect.stringContaining('is a symbolic link') });
    expect(await fs.readdir(path.join(root, 'elsewhere'))).toEqual([]);
  });
});
