import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatIssuePath } from '../../shared/issues';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { loadWorkspace, WORKSPACE_FILE_NAME } from './workspace';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('workspace-test')));
afterEach(async () => remove());

function writeWorkspace(json: unknown): string {
  const file = path.join(dir, WORKSPACE_FILE_NAME);
  writeFileSync(file, typeof json === 'string' ? json : JSON.stringify(json));
  return file;
}

async function issuesOf(json: unknown) {
  const load = await loadWorkspace(writeWorkspace(json));
  if (load.ok) throw new Error('expected the workspace file to be refused');
  expect(load.file).toBe(path.join(dir, WORKSPACE_FILE_NAME));
  return load.issues.map((issue) => ({
    at: formatIssuePath(issue.path),
    code: issue.code,
    message: issue.message,
    severity: issue.severity,
  }));
}

describe('a folder workspace', () => {
  it('lists each immediate subdirectory as a destination, in name order, skipping hidden ones and files', async () => {
    mkdirSync(path.join(dir, 'b-site'));
    mkdirSync(path.join(dir, 'a-site', 'nested'), { recursive: true });
    mkdirSync(path.join(dir, '.git'));
    writeFileSync(path.join(dir, 'notes.txt'), 'not a destination');
    const load = await loadWorkspace(dir);
    expect(load.ok).toBe(true);
    if (!load.ok) return;
    expect(load.workspace.kind).toBe('folder');
    expect(load.workspace.root).toBe(dir);
    expect(load.workspace.destinations).toEqual([
      { id: 'a-site', path: path.join(dir, 'a-site'), replacePolicy: 'allow' },
      { id: 'b-site', path: path.join(dir, 'b-site'), replacePolicy: 'allow' },
    ]);
  });

  it('skips a symlinked subdirectory instead of following it', async () => {
    const { dir: outside, remove: removeOutside } = await makeTempDir('workspace-outside');
    try {
      writeManagedDestination(path.join(outside, 'elsewhere'), { 'a.txt': 'a' });
      mkdirSync(path.join(dir, 'real'));
      symlinkSync(path.join(outside, 'elsewhere'), path.join(dir, 'linked'));
      const load = await loadWorkspace(dir);
      expect(load.ok && load.workspace.destinations.map((destination) => destination.id)).toEqual(['real']);
    } finally {
      await removeOutside();
    }
  });

  it('treats a folder holding .distributor.json as one destination', async () => {
    const destination = path.join(dir, 'site');
    writeManagedDestination(destination, { 'pages/a.html': 'a' });
    const load = await loadWorkspace(destination);
    expect(load.ok && load.workspace.destinations).toEqual([{ id: 'site', path: destination, replacePolicy: 'allow' }]);
  });

  it('uses the workspace file a folder holds instead of listing its subfolders', async () => {
    mkdirSync(path.join(dir, 'destinations', 'docs'), { recursive: true });
    mkdirSync(path.join(dir, 'sources', 'docs'), { recursive: true });
    const file = writeWorkspace({ destinations: [{ path: 'destinations/docs', destination_id: 'docs', source: 'sources/docs' }] });
    const load = await loadWorkspace(dir);
    if (!load.ok) throw new Error('expected the folder to load');
    expect(load.workspace).toMatchObject({ kind: 'file', root: dir, file });
    expect(load.workspace.destinations.map((destination) => [destination.id, destination.path])).toEqual([
      ['docs', path.join(dir, 'destinations', 'docs')],
    ]);
  });

  it('refuses a folder whose workspace file is invalid, naming the file and the field, rather than listing its subfolders', async () => {
    mkdirSync(path.join(dir, 'destinations'));
    const file = writeWorkspace({ destinations: [{ path: 42 }] });
    const load = await loadWorkspace(dir);
    if (load.ok) throw new Error('expected the folder to be refused');
    expect(load.file).toBe(file);
    expect(load.issues.map((issue) => formatIssuePath(issue.path))).toEqual(['destinations[0].path']);
  });

  it('keeps a folder holding .distributor.json one destination even when it also holds a file named like a workspace file', async () => {
    const destination = path.join(dir, 'site');
    writeManagedDestination(destination, { [WORKSPACE_FILE_NAME]: '{"destinations": []}' });
    const load = await loadWorkspace(destination);
    expect(load.ok && load.workspace.destinations).toEqual([{ id: 'site', path: destination, replacePolicy: 'allow' }]);
  });

  it('reports a target that does not exist, naming it', async () => {
    const load = await loadWorkspace(path.join(dir, 'nope'));
    expect(load.ok).toBe(false);
    if (load.ok) return;
    expect(load.file).toBe(path.join(dir, 'nope'));
    expect(load.issues[0]?.message).toContain('does not exist');
  });
});

describe('a workspace file', () => {
  it.skipIf(process.platform === 'win32')(
    'names a FIFO in place of the workspace file, or behind a link to it, without blocking',
    async () => {
      const fifo = path.join(dir, WORKSPACE_FILE_NAME);
      execFileSync('mkfifo', [fifo]);
      symlinkSync(fifo, path.join(dir, 'linked.json'));
      for (const target of [fifo, path.join(dir, 'linked.json')]) {
        const load = await Promise.race([loadWorkspace(target), new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 3000))]);
        expect(load).toMatchObject({
          ok: false,
          issues: [{ message: `${target} is a FIFO (named pipe), neither a folder nor a workspace file` }],
        });
      }
    },
  );

  it('resolves paths relative to the file and keeps every configured field', async () => {
    const file = writeWorkspace({
      schema_version: 1,
      destinations: [
        {
          path: 'sites/archive',
          pipeline_id: 'reports',
          destination_id: 'archive',
          source: '../bundles/reports',
          base_url: 'https://reports.example.com/archive/',
          primary: 'report.html',
          replace_policy: 'deny',
        },
        { path: 'sites/plain' },
      ],
    });
    const load = await loadWorkspace(file);
    expect(load).toEqual({
      ok: true,
      issues: [],
      workspace: {
        kind: 'file',
        root: dir,
        file,
        destinations: [
          {
            id: 'archive',
            path: path.join(dir, 'sites', 'archive'),
            pipelineId: 'reports',
            destinationId: 'archive',
            source: path.resolve(dir, '../bundles/reports'),
            baseUrl: 'https://reports.example.com/archive/',
            primary: 'report.html',
            replacePolicy: 'deny',
          },
          { id: 'sites/plain', path: path.join(dir, 'sites', 'plain'), replacePolicy: 'allow' },
        ],
      },
    });
  });

  it('names the field of a bad destination entry', async () => {
    const issues = await issuesOf({
      destinations: [
        { path: 'a' },
        { path: 'b', base_url: 'ftp://example.com/' },
        { path: 42 },
        { path: 'd', replace_policy: 'sometimes' },
        { path: 'e', primary: '../up.html' },
      ],
    });
    expect(issues.map((issue) => issue.at)).toEqual([
      'destinations[1].base_url',
      'destinations[2].path',
      'destinations[3].replace_policy',
      'destinations[4].primary',
    ]);
    expect(issues.find((issue) => issue.at === 'destinations[2].path')?.message).toContain('the number 42');
    expect(issues.every((issue) => issue.severity === 'error')).toBe(true);
  });

  it('refuses a missing destinations list and a file that is not JSON', async () => {
    expect(await issuesOf({ schema_version: 1 })).toMatchObject([{ at: 'destinations', code: 'missing_field' }]);
    expect(await issuesOf('{"destinations": [')).toMatchObject([{ at: '(document)', code: 'invalid_json' }]);
  });

  it('reads hosts beside local destinations, and a file of hosts only', async () => {
    mkdirSync(path.join(dir, 'local-site'));
    const mixed = await loadWorkspace(
      writeWorkspace({
        destinations: [{ path: 'local-site' }],
        hosts: [
          { name: 'web-1', url: 'ssh://deploy@web1.example:2222/srv/www' },
          { name: 'reports', url: 'ssh://reports/srv/reports/distributor-inspector.json', agent: '/opt/di/bin/distributor-inspector' },
        ],
      }),
    );
    expect(mixed).toMatchObject({
      ok: true,
      issues: [],
      workspace: {
        destinations: [{ id: 'local-site' }],
        hosts: [
          { name: 'web-1', url: 'ssh://deploy@web1.example:2222/srv/www' },
          { name: 'reports', url: 'ssh://reports/srv/reports/distributor-inspector.json', agent: '/opt/di/bin/distributor-inspector' },
        ],
      },
    });
    const hostsOnly = await loadWorkspace(writeWorkspace({ hosts: [{ name: 'web-1', url: 'ssh://web1/srv/www' }] }));
    expect(hostsOnly).toMatchObject({ ok: true, workspace: { destinations: [], hosts: [{ name: 'web-1' }] } });
  });

  it('names every bad host field at once: a name that is not plain, a URL ssh would misread, a name or place twice', async () => {
    const issues = await issuesOf({
      schema_version: 2,
      hosts: [
        { name: '-web', url: 'ssh://-oProxyCommand=touch/tmp/x/srv' },
        { name: 'web', url: 'https://web/srv' },
        { name: 'a', url: 'ssh://web/srv/www', agnet: 'x' },
        { name: 'a', url: 'ssh://web/srv/www/' },
      ],
    });
    expect(issues.map(({ at, code, severity }) => ({ at, code, severity }))).toEqual([
      { at: 'hosts[0].name', code: 'invalid_format', severity: 'error' },
      { at: 'hosts[0].url', code: 'invalid_ssh_url', severity: 'error' },
      { at: 'hosts[1].url', code: 'invalid_ssh_url', severity: 'error' },
      { at: 'schema_version', code: 'invalid_value', severity: 'error' },
      { at: 'hosts[2].agnet', code: 'unknown_field', severity: 'warning' },
    ]);
    const duplicates = await issuesOf({
      hosts: [
        { name: 'a', url: 'ssh://web/srv/www' },
        { name: 'a', url: 'ssh://web/srv/www/' },
      ],
    });
    expect(duplicates).toMatchObject([
      { at: 'hosts[1].name', code: 'duplicate_host', message: expect.stringContaining('also at hosts[0].name') },
      { at: 'hosts[1].url', code: 'duplicate_host' },
    ]);
  });

  it("reads a host's ssh settings and names a bad one at its field", async () => {
    const loaded = await loadWorkspace(
      writeWorkspace({
        hosts: [
          {
            name: 'web-1',
            url: 'ssh://web1/srv/www',
            identity_file: '~/.ssh/web',
            jump_host: 'ops@bastion:2222',
            ssh_config: '/etc/di/ssh',
          },
        ],
      }),
    );
    expect(loaded).toMatchObject({
      ok: true,
      workspace: { hosts: [{ name: 'web-1', identityFile: '~/.ssh/web', jumpHost: 'ops@bastion:2222', sshConfig: '/etc/di/ssh' }] },
    });
    const issues = await issuesOf({
      hosts: [
        { name: 'web-1', url: 'ssh://web1/srv/www', identity_file: 'keys/web', jump_host: '-oProxyCommand=x', ssh_config: '/etc/../x' },
      ],
    });
    expect(issues.map(({ at, code }) => ({ at, code }))).toEqual([
      { at: 'hosts[0].identity_file', code: 'invalid_host_setting' },
      { at: 'hosts[0].jump_host', code: 'invalid_host_setting' },
      { at: 'hosts[0].ssh_config', code: 'invalid_host_setting' },
    ]);
  });

  it("reads a host's connect_timeout in seconds, fractions too, and refuses one that is not a number from above 0 to a day", async () => {
    const loaded = await loadWorkspace(writeWorkspace({ hosts: [{ name: 'web-1', url: 'ssh://web1/srv/www', connect_timeout: 2.5 }] }));
    expect(loaded).toMatchObject({ ok: true, workspace: { hosts: [{ name: 'web-1', connectTimeoutMs: 2_500 }] } });
    const hosts = [0, '60', 86_401].map((connect_timeout, index) => ({
      name: `web-${index}`,
      url: `ssh://web${index}/srv`,
      connect_timeout,
    }));
    const issues = await issuesOf({ hosts });
    expect(issues.map(({ at, message }) => [at, message])).toEqual([
      ['hosts[0].connect_timeout', '"connect_timeout" must be above 0 seconds'],
      ['hosts[1].connect_timeout', '"connect_timeout" must be a number, not the string "60"'],
      ['hosts[2].connect_timeout', '"connect_timeout" must be at most 86400 seconds (a day)'],
    ]);
  });

  it('keeps the history journal the file names, and refuses one inside a destination', async () => {
    const kept = await loadWorkspace(writeWorkspace({ destinations: [{ path: 'site' }], history: 'logs/history.jsonl' }));
    expect(kept).toMatchObject({ ok: true, workspace: { historyFile: path.join(dir, 'logs', 'history.jsonl') } });
    expect(await issuesOf({ destinations: [{ path: 'site' }], history: 'site/history.jsonl' })).toMatchObject([
      { at: 'history', code: 'history_inside_destination', message: expect.stringContaining(path.join(dir, 'site')) },
    ]);
  });

  it('refuses a journal that lies inside a destination through a link (hist -> destinations/docs-eu/logs)', async () => {
    mkdirSync(path.join(dir, 'destinations', 'docs-eu', 'logs'), { recursive: true });
    symlinkSync(path.join(dir, 'destinations', 'docs-eu', 'logs'), path.join(dir, 'hist'));
    expect(await issuesOf({ destinations: [{ path: 'destinations/docs-eu' }], history: 'hist/journal.jsonl' })).toMatchObject([
      {
        at: 'history',
        code: 'history_inside_destination',
        message: expect.stringContaining(`inside the destination ${path.join(dir, 'destinations', 'docs-eu')}`),
      },
    ]);
  });

  it('refuses a backups folder that lies inside a destination through a link', async () => {
    mkdirSync(path.join(dir, 'site', 'old'), { recursive: true });
    symlinkSync(path.join(dir, 'site', 'old'), path.join(dir, 'kept'));
    expect(await issuesOf({ destinations: [{ path: 'site' }], backups: { folder: 'kept/backups' } })).toMatchObject([
      { at: 'backups.folder', code: 'backups_inside_destination' },
    ]);
  });

  it('refuses the same directory twice and the same pipeline and destination id twice', async () => {
    const issues = await issuesOf({
      destinations: [
        { path: 'a', pipeline_id: 'p', destination_id: 'x' },
        { path: './a' },
        { path: 'c', pipeline_id: 'p', destination_id: 'x' },
      ],
    });
    expect(issues).toMatchObject([
      { at: 'destinations[1].path', code: 'duplicate_destination' },
      { at: 'destinations[2].destination_id', code: 'duplicate_destination_id' },
    ]);
  });

  it('gives ids that are unique when two pipelines share a destination id', async () => {
    const load = await loadWorkspace(
      writeWorkspace({
        destinations: [
          { path: 'a', pipeline_id: 'reports', destination_id: 'archive' },
          { path: 'b', pipeline_id: 'handbook', destination_id: 'archive' },
          { path: 'c', destination_id: 'solo' },
        ],
      }),
    );
    expect(load.ok && load.workspace.destinations.map((destination) => destination.id)).toEqual([
      'reports/archive',
      'handbook/archive',
      'solo',
    ]);
  });

  it('warns about an unknown field without refusing the file', async () => {
    const load = await loadWorkspace(writeWorkspace({ destinations: [{ path: 'a', destinaton_id: 'typo' }] }));
    expect(load.ok).toBe(true);
    expect(load.issues).toMatchObject([{ path: ['destinations', 0, 'destinaton_id'], code: 'unknown_field', severity: 'warning' }]);
  });
});
