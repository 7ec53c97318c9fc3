import { spawn, spawnSync } from 'node:child_process';
import { promises as fs, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleManifest, sampleSha256, sampleState, type EditableJson, type SampleManifestOptions } from '../../shared/sampleDocuments';
import type { CliIo, Command } from './command';
import { commands } from './commands';
import { runCli } from './run';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { ensureBuilt } from '../testing/builtApp';
import { writeBundle, writeInterruptedStaging, writeManagedDestination } from '../testing/fixtures';

const ESCAPE = '\u001b[';
const STACK_FRAME = /\n\s+at /;

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'cli-run-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function cli(argv: string[], { isTerminal = false, env = {} as Record<string, string> } = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), isTerminal, env, cwd: root };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

async function write(relative: string, content: string | object): Promise<string> {
  const file = path.join(root, relative);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/** A managed destination `dest` whose state records the sample manifest (3 files). */
async function managedDestination(change: (state: EditableJson) => void = () => {}): Promise<void> {
  const state: EditableJson = sampleState({ extraFiles: 2 });
  change(state);
  await write('dest/.distributor.json', state);
  await write('dest/report.html', '<p>report</p>');
}

async function sourceBundle(options: SampleManifestOptions = {}, change: (m: EditableJson) => void = () => {}): Promise<void> {
  const manifest: EditableJson = sampleManifest({ extraFiles: 2, ...options });
  change(manifest);
  await write('bundle/manifest.json', manifest);
}

describe('inspect', () => {
  it('calls a missing directory empty and exits 0', async () => {
    const { code, stdout, stderr } = await cli(['inspect', 'missing', '--json']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual({ path: path.join(root, 'missing'), status: 'empty', issues: [] });
  });

  it('calls a directory with content but no state unmanaged and exits 0', async () => {
    await write('dest/index.html', 'x');
    const { code, stdout } = await cli(['inspect', 'dest', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).status).toBe('unmanaged');
  });

  it('prints a managed state as {status, issues, state} with the state as parsed, and exits 0', async () => {
    await managedDestination((state) => (state.future_field = { nested: [1, 2] }));
    const { code, stdout } = await cli(['inspect', 'dest', '--json']);
    expect(code).toBe(0);
    const document = JSON.parse(stdout);
    expect(document.status).toBe('managed');
    expect(document.issues).toEqual([expect.objectContaining({ path: ['future_field'], code: 'unknown_field', severity: 'warning' })]);
    expect(document.state).toEqual(JSON.parse(await fs.readFile(path.join(root, 'dest/.distributor.json'), 'utf8')));
  });

  it('exits 1 on an invalid state, listing every issue and the state as far as it parsed', async () => {
    await managedDestination((state) => ((state.outputs[0].size = -1), delete state.pipeline_id));
    const { code, stdout } = await cli(['inspect', 'dest', '--json']);
    expect(code).toBe(1);
    const document = JSON.parse(stdout);
    expect(document.status).toBe('invalid');
    expect(document.issues.map((issue: { code: string }) => issue.code)).toEqual(['negative_size', 'missing_field']);
    expect(document.state.destination_id).toBe('archive');
  });

  it('exits 1 on a state file that is not JSON, with no state in the document', async () => {
    await write('dest/.distributor.json', '{"schema_version": 1');
    const { code, stdout } = await cli(['inspect', 'dest', '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'invalid', issues: [{ code: 'invalid_json', path: [] }] });
    expect(JSON.parse(stdout).state).toBeUndefined();
  });

  it('exits 1 on a destination that is a symbolic link', async () => {
    await managedDestination();
    await fs.symlink(path.join(root, 'dest'), path.join(root, 'link'));
    const { code, stdout } = await cli(['inspect', 'link']);
    expect(code).toBe(1);
    expect(stdout).toContain('destination_is_symlink');
  });

  it('summarises for people: status, ids, published_at, counts, then each issue as path, code, message', async () => {
    await managedDestination((state) => ((state.outputs[2].path = 'REPORT.html'), (state.outputs[1].sha256 = 'sha256:x')));
    const { code, stdout } = await cli(['inspect', 'dest']);
    expect(code).toBe(1);
    expect(stdout).not.toContain(ESCAPE);
    const lines = stdout.split('\n');
    expect(lines).toContain(`destination          ${path.join(root, 'dest')}`);
    expect(lines).toContain('status               invalid');
    expect(lines).toContain('pipeline_id          reports');
    expect(lines).toContain('destination_id       archive');
    expect(lines).toContain('published_at         2026-06-04T12:00:00Z');
    expect(lines).toContain('outputs              3 (3 generated, 0 source)');
    expect(lines).toContain('issues               1 error, 1 warning');
    expect(stdout).toMatch(/\n {2}error {4}outputs\[1\]\.sha256 {2}invalid_sha256 {2}"sha256" must be "sha256:"/);
    expect(stdout).toMatch(/\n {2}warning {2}outputs\[2\]\.path {4}case_collision {2}output path "REPORT\.html"/);
  });

  it('colours the summary on a terminal, and not when NO_COLOR is set', async () => {
    await managedDestination();
    const coloured = await cli(['inspect', 'dest'], { isTerminal: true });
    expect(coloured.stdout).toContain(`${ESCAPE}32mmanaged`);
    expect((await cli(['inspect', 'dest'], { isTerminal: true, env: { NO_COLOR: '1' } })).stdout).not.toContain(ESCAPE);
  });

  it('exits 2 without a stack when the destination cannot be read, naming it', async () => {
    await write('file', 'x');
    const { code, stdout, stderr } = await cli(['inspect', 'file/dest']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `distributor-inspector inspect: cannot read destination ${path.join(root, 'file/dest')}: a parent of it is not a directory\n`,
    );
  });

  it('exits 2 on a missing argument or an unknown option, with the usage', async () => {
    for (const argv of [['inspect'], ['inspect', 'a', 'b'], ['inspect', 'dest', '--jsn']]) {
      const { code, stderr } = await cli(argv);
      expect(code).toBe(2);
      expect(stderr).toContain('Usage: distributor-inspector inspect DEST [--verify] [--json]');
      expect(stderr).not.toMatch(STACK_FRAME);
    }
  });
});

describe('compare', () => {
  const compareJson = async (...extra: string[]) => {
    const result = await cli(['compare', 'dest', 'bundle', '--json', ...extra]);
    return { ...result, document: result.stdout ? JSON.parse(result.stdout) : undefined };
  };

  it('publishes into an empty destination, with no diff, and exits 0', async () => {
    await sourceBundle();
    const { code, document } = await compareJson();
    expect(code).toBe(0);
    expect(document).toMatchObject({ decision: 'publish', rule: 1, diff: null, destination: { status: 'empty' } });
  });

  it('calls a destination with content but no state unmanaged, and exits 1', async () => {
    await sourceBundle();
    await write('dest/index.html', 'x');
    const { code, document } = await compareJson();
    expect(code).toBe(1);
    expect(document).toMatchObject({ decision: 'unmanaged', rule: 2, diff: null });
  });

  it('is a conflict on an invalid state, says why in words, and exits 1', async () => {
    await sourceBundle();
    await managedDestination((state) => (state.schema_version = 2));
    const json = await compareJson();
    expect(json.code).toBe(1);
    expect(json.document).toMatchObject({ decision: 'conflict', reason: 'invalid_state', rule: 3, diff: null });
    const human = await cli(['compare', 'dest', 'bundle']);
    expect(human.stdout).toContain('The state file is invalid');
    expect(human.stdout).toMatch(/error {2}schema_version {2}invalid_value/);
  });

  it('is an identity conflict when --pipeline or --destination differ, naming each, and exits 1', async () => {
    await sourceBundle();
    await managedDestination();
    const { code, document } = await compareJson('--pipeline', 'other', '--destination', 'archive');
    expect(code).toBe(1);
    expect(document).toMatchObject({
      decision: 'conflict',
      reason: 'identity_mismatch',
      rule: 4,
      mismatches: [{ field: 'pipeline_id', expected: 'other', actual: 'reports' }],
    });
    const human = await cli(['compare', 'dest', 'bundle', '--destination', 'mirror']);
    expect(human.stdout).toContain('its destination id is "archive", expected "mirror"');
  });

  it('skips the same manifest with an empty diff and its outputs verified, and exits 0', async () => {
    const manifest = await writeBundle(path.join(root, 'bundle'), { 'report.md': '# report\n' });
    await writeManagedDestination(path.join(root, 'dest'), { manifest, outputs: { 'report.html': '<p>report</p>' } });
    const { code, document } = await compareJson('--pipeline', 'reports', '--destination', 'archive');
    expect(code).toBe(0);
    expect(document).toMatchObject({
      decision: 'skip',
      rule: 5,
      explanation: { title: 'Up to date', tone: 'good' },
      drift: { verifiedCount: 1, drifted: [], extras: [] },
      diff: { fields: {}, added: [], removed: [], changed: [], unchangedCount: 1 },
    });
  });

  it('says a matching manifest over outputs edited by hand has drifted, names them and the way back, and exits 1', async () => {
    const manifest = await writeBundle(path.join(root, 'bundle'), { 'report.md': '# report\n' });
    const dest = path.join(root, 'dest');
    await writeManagedDestination(dest, {
      manifest,
      outputs: { 'report.html': '<p>report</p>', 'b.html': 'b', 'c.html': 'c' },
      extras: { 'notes.txt': 'by hand' },
    });
    await fs.writeFile(path.join(dest, 'report.html'), '<p>REPORT</p>');
    await fs.rm(path.join(dest, 'c.html'));
    const { code, document } = await compareJson();
    expect(code).toBe(1);
    expect(document).toMatchObject({
      decision: 'skip',
      drift: {
        verifiedCount: 3,
        drifted: [
          { path: 'report.html', status: 'hash_mismatch' },
          { path: 'c.html', status: 'missing' },
        ],
        extras: ['notes.txt'],
      },
      explanation: { title: 'Manifest matches, outputs drifted', tone: 'warning', normalReplaceAllowed: false },
    });
    const human = await cli(['compare', 'dest', 'bundle']);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^decision {5}skip, but 2 of 3 outputs drifted {2}\(rule 5 of 9\)$/m);
    expect(human.stdout).toContain(
      'The destination records exactly this source manifest, but 2 of 3 outputs differ from what the state records: report.html (hash_mismatch) and c.html (missing).',
    );
    expect(human.stdout).toMatch(/hash_mismatch {2}report\.html/);
    expect(human.stdout).toContain(`Repair restores them (Actions → Repair, or distributor-inspector repair ${dest})`);
    expect(human.stdout).toContain('the state file, the 2 recorded outputs still there, and the 1 file no state records (notes.txt)');
    expect(human.stdout).not.toContain('nothing to do');
  });

  it('names a staging folder left by an interrupted replace first, never says replace is allowed, and exits 1', async () => {
    await sourceBundle({ created: '2026-06-05T00:00:00Z' });
    await managedDestination();
    await writeInterruptedStaging(path.join(root, 'dest'));
    const { code, document } = await compareJson();
    expect(code).toBe(1);
    expect(document).toMatchObject({
      decision: 'replace',
      explanation: { title: 'Interrupted replace', tone: 'warning', normalReplaceAllowed: false },
      destination: { issues: [{ code: 'interrupted', path: [STAGING_DIR_NAME] }] },
    });
    const human = await cli(['compare', 'dest', 'bundle']);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^decision {5}replace, but an interrupted replace left \.distributor-staging {2}\(rule 6 of 9\)$/m);
    expect(human.stdout).toContain(`A staging folder (${STAGING_DIR_NAME}) from an interrupted replace is in the destination`);
    expect(human.stdout).toContain(`distributor-inspector discard-staging ${path.join(root, 'dest')}`);
    expect(human.stdout).not.toContain('replace is allowed');
  });

  it('replaces an older publication, and lists the diff with counts for people', async () => {
    await sourceBundle({ created: '2026-06-05T00:00:00Z' }, (m) => {
      m.files[0].size = 99;
      m.files.push({ path: 'new.md', sha256: sampleSha256(4), size: 4 });
      m.files.splice(1, 1);
    });
    await managedDestination();
    const { code, stdout } = await cli(['compare', 'dest', path.join(root, 'bundle', 'manifest.json')]);
    expect(code).toBe(0);
    expect(stdout).not.toContain(ESCAPE);
    expect(stdout).toMatch(/^decision {5}replace {2}\(rule 6 of 9\)$/m);
    expect(stdout).toContain('older publication of the same source');
    expect(stdout).toContain('created  2026-06-04T11:55:00Z → 2026-06-05T00:00:00Z (the source is newer)');
    expect(stdout).toContain('Files: 1 added, 1 removed, 1 changed, 1 unchanged');
    expect(stdout).toMatch(/added {4}new\.md {11}4 bytes/);
    expect(stdout).toMatch(/removed {2}pages\/page-0\.md {2}100 bytes/);
    expect(stdout).toMatch(/changed {2}report\.md {8}size 1234 → 99 bytes/);
  });

  it('skips a newer publication (exit 0) and refuses a different digest or files at one instant (exit 1)', async () => {
    await managedDestination();
    await sourceBundle({ created: '2026-06-04T11:00:00Z' });
    expect(await compareJson()).toMatchObject({ code: 0, document: { decision: 'skip_newer', rule: 7 } });
    await sourceBundle({ digest: sampleSha256(2) });
    expect(await compareJson()).toMatchObject({ code: 1, document: { decision: 'conflict', reason: 'digest_mismatch', rule: 8 } });
    await sourceBundle({}, (m) => m.files.pop());
    expect(await compareJson()).toMatchObject({ code: 1, document: { decision: 'conflict', reason: 'manifest_mismatch', rule: 9 } });
  });

  it('exits 2 on an invalid source manifest, naming the file and each field, without a stack', async () => {
    await managedDestination();
    await sourceBundle({}, (m) => ((m.digest = 'md5:1'), (m.files[1].path = '../up.md')));
    const { code, stdout, stderr } = await cli(['compare', 'dest', 'bundle']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const file = path.join(root, 'bundle', 'manifest.json');
    // The first line says once that it runs without a workspace (none in this folder or above).
    expect(stderr.split('\n')).toEqual([
      expect.stringMatching(/^distributor-inspector compare: no workspace /),
      `distributor-inspector compare: the source manifest ${file} is not usable:`,
      `  ${file}: digest: "digest" must be "sha256:" followed by 64 lowercase hex digits (invalid_sha256)`,
      `  ${file}: files[1].path: "path" is not a clean relative path: it has a ".." segment (unclean_path)`,
      '',
    ]);
  });

  it('exits 2 on a source that is not JSON, naming the file once', async () => {
    await write('bundle/manifest.json', '{');
    const { code, stderr } = await cli(['compare', 'dest', 'bundle']);
    expect(code).toBe(2);
    const file = path.join(root, 'bundle', 'manifest.json');
    expect(stderr).toMatch(
      new RegExp(`\\n  ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the file is not valid JSON: .* \\(invalid_json\\)\\n$`),
    );
  });

  it('exits 2 on a missing source, a source without manifest.json and an empty --pipeline', async () => {
    await fs.mkdir(path.join(root, 'nobundle'));
    const gone = await cli(['compare', 'dest', 'gone']);
    expect(gone.stderr.split('\n')[2]).toBe(`  ${path.join(root, 'gone')} does not exist (source_missing)`);
    for (const [argv, words] of [
      [['compare', 'dest', 'gone'], 'does not exist'],
      [['compare', 'dest', 'nobundle'], 'manifest.json does not exist'],
      [['compare', 'dest', 'nobundle', '--pipeline='], '--pipeline needs a non-empty id'],
    ] as const) {
      const { code, stderr } = await cli([...argv]);
      expect(code).toBe(2);
      expect(stderr).toContain(words);
      expect(stderr).not.toMatch(STACK_FRAME);
    }
  });
});

describe('runCli', () => {
  const exploding: Command = {
    name: 'explode',
    usage: 'explode',
    summary: 'a command with a bug, for this test',
    options: {},
    positionals: [0, 0],
    run: async () => {
      throw new Error('boom');
    },
  };
  const explodingEntry = { name: exploding.name, load: async () => exploding };
  beforeAll(() => void commands.push(explodingEntry));
  afterAll(() => void commands.splice(commands.indexOf(explodingEntry), 1));

  it('hides the stack of an unexpected error unless --debug is given', async () => {
    const quiet = await cli(['explode']);
    expect(quiet.code).toBe(2);
    expect(quiet.stderr).toBe('distributor-inspector explode: unexpected error: boom\nRun again with --debug to see the details.\n');
    const loud = await cli(['explode', '--debug']);
    expect(loud.stderr).toMatch(STACK_FRAME);
  });

  it('lists every command under the name the loaded command gives itself', async () => {
    for (const entry of commands) expect((await entry.load()).name).toBe(entry.name);
    expect(new Set(commands.map((entry) => entry.name)).size).toBe(commands.length);
  });

  it('prints the usage with every command, and exits 2 on an unknown command', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('inspect DEST [--verify] [--json]');
    expect(help.stdout).toContain('compare DEST [SOURCE] [--pipeline ID] [--destination ID] [--json]');
    expect((await cli(['frobnicate'])).code).toBe(2);
  });
});

describe('demo', () => {
  it('writes to a folder private to the user when given no DIR, and says where with --json', async () => {
    const cache = path.join(root, 'cache');
    const { code, stdout } = await cli(['demo', '--json'], { env: { XDG_CACHE_HOME: cache } });
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    const expected = path.join(cache, 'distributor-inspector', 'demo');
    expect(summary).toMatchObject({ dir: expected, workspaceFile: path.join(expected, 'distributor-inspector.json') });
    if (process.getuid) expect((await fs.stat(expected)).mode & 0o777).toBe(0o700);
  });

  it.skipIf(!process.getuid)('refuses a DIR writable by others, exits 2, and names the folder', async () => {
    await fs.mkdir(path.join(root, 'open'));
    await fs.chmod(path.join(root, 'open'), 0o777);
    const { code, stderr } = await cli(['demo', 'open']);
    expect(code).toBe(2);
    expect(stderr).toContain(`${path.join(root, 'open')} is writable by group or others`);
  });
});

describe('the built binary', () => {
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  // Built before any test runs, when a source is newer (scripts/vitestGlobalSetup.ts).
  beforeAll(() => ensureBuilt(['node']), 120_000);

  it('loads only the code inspect runs for a cold inspect: not the browser host, markdown-it, replace or demo', async () => {
    const dist = path.join(repo, 'dist');
    const read = (file: string) => readFileSync(path.join(dist, file), 'utf8');
    // What `import` loads before the first line runs: the static imports, transitively.
    const closure = (file: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(file)) return seen;
      seen.add(file);
      for (const [, next] of read(file).matchAll(/from\s*"\.\/([^"]+)"/g)) closure(next!, seen);
      return seen;
    };
    const entry = read('cli.js');
    const inspectChunk = /import\("\.\/(cli-inspectCommand-[^"]+)"\)/.exec(entry)?.[1];
    expect(inspectChunk, 'cli.js loads inspect with a dynamic import of its own chunk').toBeDefined();
    const loaded = new Set([...closure('cli.js'), ...closure(inspectChunk!)]);
    const names = [...loaded].join(' ');
    expect(names).not.toMatch(/serveCommand|replaceCommand|demoCommand|compareCommand|scanCommand/);
    const text = [...loaded].map(read).join('\n');
    expect(text).not.toContain('text/event-stream'); // the browser host
    expect(text).not.toContain('linkify'); // markdown-it
    // Nor zod: a valid state is decided by plain predicates, and the schemas that describe an invalid
    // one come from schemasOnDemand.cjs on first use (scripts/buildPlugins.mjs).
    expect(read('schemasOnDemand.cjs')).toContain('ZodType');
    expect(text).not.toContain('ZodType');
    const bytes = [...loaded].reduce((sum, file) => sum + statSync(path.join(dist, file)).size, 0);
    // The state rules and the CLI's shell: ~53 KB. With zod (without its locales) it was ~250 KB; the whole CLI was 674 KB.
    expect(bytes).toBeLessThan(100_000);
    expect(read('hashWorker.js')).not.toContain('ZodType');
  });

  it('describes an invalid state and reads a staging marker in the built CLI and its workers exactly as from source', async () => {
    // The built bundles load zod's schemas from schemasOnDemand.cjs on first use; from source they are plain imports.
    await managedDestination((state) => {
      state.schema_version = 2;
      state.outputs[0].size = -1;
      state.outputs[1].kind = 'other';
      state.source.manifest.files[2].sha256 = 'sha256:NOPE';
      delete state.pipeline_id;
    });
    await writeInterruptedStaging(path.join(root, 'dest'));
    await fs.mkdir(path.join(root, 'workspace'));
    await fs.rename(path.join(root, 'dest'), path.join(root, 'workspace', 'dest'));
    await managedDestination();
    await writeInterruptedStaging(path.join(root, 'dest'));
    await fs.rename(path.join(root, 'dest'), path.join(root, 'workspace', 'staged'));
    const built = (...argv: string[]) =>
      spawnSync(process.execPath, [path.join(repo, 'dist/cli.js'), ...argv], { cwd: root, encoding: 'utf8' });
    // A workspace file too: its schema is on demand, and one with a bad field is described by zod.
    await write('listed/distributor-inspector.json', {
      schema_version: 1,
      destinations: [{ path: '../workspace/dest', pipeline_id: 'reports', destination_id: 'archive' }],
    });
    await write('badly-listed/distributor-inspector.json', { schema_version: 1, destinations: [{ path: 7, replace_policy: 'maybe' }] });
    const runs = new Map<string, ReturnType<typeof built>>();
    for (const argv of [
      ['inspect', 'workspace/dest', '--json'],
      ['inspect', 'workspace/staged', '--json'],
      ['scan', 'workspace', '--json'],
      ['scan', 'listed/distributor-inspector.json', '--json'],
      ['scan', 'badly-listed/distributor-inspector.json', '--json'],
    ]) {
      const fromSource = await cli(argv);
      const fromBuild = built(...argv);
      runs.set(argv.join(' '), fromBuild);
      expect({ code: fromBuild.status, stdout: fromBuild.stdout, stderr: fromBuild.stderr }, argv.join(' ')).toEqual(fromSource);
    }
    // What the built CLI printed above, read again rather than run again (each run is a Node start).
    const ran = (command: string) => runs.get(command)!;
    const inspected = JSON.parse(ran('inspect workspace/dest --json').stdout);
    expect(inspected.issues.map((issue: { code: string }) => issue.code)).toEqual(
      expect.arrayContaining(['invalid_value', 'negative_size', 'invalid_sha256', 'missing_field', 'interrupted']),
    );
    expect(JSON.parse(ran('inspect workspace/staged --json').stdout).issues).toEqual([expect.objectContaining({ code: 'interrupted' })]);
    expect(ran('scan badly-listed/distributor-inspector.json --json').stderr).toMatch(/invalid_value|invalid_type|"path"/);
  });

  it('runs inspect and compare from bin/, piped, with no colour codes and the documented exit codes', async () => {
    await managedDestination((state) => (state.outputs[2].path = 'REPORT.html'));
    await sourceBundle({ created: '2026-06-05T00:00:00Z' });
    const run = (...argv: string[]) =>
      spawnSync(process.execPath, [path.join(repo, 'bin/distributor-inspector.js'), ...argv], { cwd: root, encoding: 'utf8' });
    const inspect = run('inspect', 'dest');
    expect(inspect.status).toBe(0);
    expect(inspect.stdout).toContain('status               managed');
    expect(inspect.stdout).toContain('case_collision');
    expect(inspect.stdout + inspect.stderr).not.toContain(ESCAPE);
    expect(JSON.parse(run('inspect', 'dest', '--json').stdout).status).toBe('managed');
    const compared = run('compare', 'dest', 'bundle');
    expect(compared.status).toBe(0);
    expect(compared.stdout).toContain('replace');
    expect(compared.stdout).not.toContain(ESCAPE);
    const bad = run('compare', 'dest', 'nowhere');
    expect(bad.status).toBe(2);
    expect(bad.stderr).not.toMatch(STACK_FRAME);
  });

  it('exits quietly when the pipe it prints into closes early (scan … --json | head -1)', async () => {
    // Enough rows to outgrow the pipe's buffer, so later writes meet a closed pipe (EPIPE).
    const workspace = path.join(root, 'many');
    await Promise.all(Array.from({ length: 3000 }, (_, i) => fs.mkdir(path.join(workspace, `site-${i}`), { recursive: true })));
    const child = spawn(process.execPath, [path.join(repo, 'bin/distributor-inspector.js'), 'scan', workspace, '--json'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // Like head -1: read the first chunk, then close our end of the pipe.
    await new Promise<void>((resolve) => child.stdout.once('data', () => (child.stdout.destroy(), resolve())));
    const code = await Promise.race([
      new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode))),
      new Promise<string>((resolve) => setTimeout(() => resolve('still running after 20 s'), 20_000)),
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  }, 30_000);
});
