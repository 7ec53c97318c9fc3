// Edit and Remove host in the workspace file (issue 28), against real files: every bad field named at
// its field with the file, the file's other content kept byte for byte in meaning, and a file changed
// underneath (between the read and the write, or since this window read it) refused, never clobbered.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiFailure } from '../../shared/apiError';
import type { HostFields } from '../../shared/hostEntry';
import type { LoadedWorkspace } from '../../shared/workspaceSchema';
import { loadWorkspace } from '../engine/workspace';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { addWorkspaceHost, editWorkspaceHost, removeWorkspaceHost } from './addWorkspaceHost';

let dir: string;
let file: string;
const original = {
  destinations: [{ path: 'sites/docs' }],
  hosts: [
    { name: 'web-1', url: 'ssh://deploy@web-1:2022/srv/www', comment: 'rack 4', connect_timeout: 120 },
    { name: 'web-2', url: 'ssh://web-2/srv/www', agent: '/opt/di/bin/distributor-inspector' },
  ],
  history: 'logs/history.jsonl',
  note: 'kept as it is',
};

beforeEach(async () => {
  dir = await makeTempDir('edit-host-');
  await fs.mkdir(path.join(dir, 'sites', 'docs'), { recursive: true });
  file = path.join(dir, 'distributor-inspector.json');
  await fs.writeFile(file, `${JSON.stringify(original, null, 4)}\n`);
});
afterEach(() => removeTempDir(dir));

async function loaded(): Promise<LoadedWorkspace> {
  const load = await loadWorkspace(file);
  if (!load.ok) throw new Error(JSON.stringify(load.issues));
  return load.workspace;
}

const fieldsOfWeb1: HostFields = { name: 'web-1', host: 'web-1', user: 'deploy', port: '2022', path: '/srv/www' };

async function refusal(run: Promise<void>): Promise<ApiFailure['error']> {
  const failure = await run.then(
    () => undefined,
    (cause: ApiFailure) => cause,
  );
  expect(failure, 'expected a refusal').toBeDefined();
  return failure!.error;
}

const fieldsOf = (error: ApiFailure['error']) => (error.details?.issues as { path: unknown[] }[]).map((issue) => issue.path[0]);

describe('editWorkspaceHost', () => {
  it("writes the new port, user, agent and ssh settings, keeping the file's other fields, the host's other keys and the indentation", async () => {
    const workspace = await loaded();
    await editWorkspaceHost(workspace, 'web-1', {
      ...fieldsOfWeb1,
      port: '2222',
      user: 'ops',
      agent: '/usr/local/bin/distributor-inspector',
      identityFile: '~/.ssh/web',
      jumpHost: 'bastion',
      sshConfig: '/etc/di/ssh_config',
      connectTimeout: '90.5',
    });
    const text = await fs.readFile(file, 'utf8');
    expect(text).toMatch(/^\{\n {4}"destinations"/);
    const saved = JSON.parse(text);
    expect(saved).toEqual({
      ...original,
      hosts: [
        {
          name: 'web-1',
          url: 'ssh://ops@web-1:2222/srv/www',
          agent: '/usr/local/bin/distributor-inspector',
          identity_file: '~/.ssh/web',
          jump_host: 'bastion',
          ssh_config: '/etc/di/ssh_config',
          connect_timeout: 90.5,
          comment: 'rack 4',
        },
        original.hosts[1],
      ],
    });
    // What it wrote, the loader reads.
    expect((await loaded()).hosts![0]).toMatchObject({
      url: 'ssh://ops@web-1:2222/srv/www',
      identityFile: '~/.ssh/web',
      jumpHost: 'bastion',
      connectTimeoutMs: 90_500,
    });
  });

  it('clears a setting left empty, and renames the host', async () => {
    await editWorkspaceHost(await loaded(), 'web-2', { name: 'web-two', host: 'web-2', path: '/srv/www', agent: '' });
    expect(JSON.parse(await fs.readFile(file, 'utf8')).hosts[1]).toEqual({ name: 'web-two', url: 'ssh://web-2/srv/www' });
  });

  it('refuses, naming the file and each field, a duplicate name, a name with / or .., a port or a timeout out of range and an option smuggled in', async () => {
    const before = await fs.readFile(file, 'utf8');
    const workspace = await loaded();
    const duplicate = await refusal(editWorkspaceHost(workspace, 'web-1', { ...fieldsOfWeb1, name: 'web-2' }));
    expect(duplicate.code).toBe('bad_request');
    expect(duplicate.message).toBe(`editHost: ${file}: name: host name "web-2" is already in the workspace file`);
    expect(duplicate.details?.file).toBe(file);
    for (const name of ['web/1', '..', '../etc', 'a/../b']) {
      const bad = await refusal(editWorkspaceHost(workspace, 'web-1', { ...fieldsOfWeb1, name }));
      expect(fieldsOf(bad)).toEqual(['name']);
    }
    for (const port of ['0', '65536', '99999', '-1', '22a', '1e3']) {
      const bad = await refusal(editWorkspaceHost(workspace, 'web-1', { ...fieldsOfWeb1, port }));
      expect(bad.message).toContain(`${file}: port: the port "${port}" is not a number from 1 to 65535`);
    }
    for (const connectTimeout of ['0', '86401', '-5', '1e3', '60s', '.5']) {
      const bad = await refusal(editWorkspaceHost(workspace, 'web-1', { ...fieldsOfWeb1, connectTimeout }));
      expect(bad.message).toContain(
        `${file}: connectTimeout: the connect timeout "${connectTimeout}" is not a number of seconds above 0 and at most 86400 (a day)`,
      );
    }
    const smuggled = await refusal(
      editWorkspaceHost(workspace, 'web-1', {
        ...fieldsOfWeb1,
        host: '-oProxyCommand=touch /tmp/x',
        user: 'a b',
        identityFile: 'id_rsa',
        jumpHost: '-J evil',
        sshConfig: '/etc/../shadow',
        path: 'relative',
      }),
    );
    expect(fieldsOf(smuggled)).toEqual(['host', 'user', 'path', 'identityFile', 'sshConfig', 'jumpHost']);
    const sameFolder = await refusal(
      editWorkspaceHost(workspace, 'web-1', { ...fieldsOfWeb1, user: undefined, port: undefined, host: 'web-2' }),
    );
    expect(fieldsOf(sameFolder)).toEqual(['path']);
    expect(await fs.readFile(file, 'utf8')).toBe(before);
  });

  it('refuses a file changed underneath between its read and its write, leaving the other writer’s bytes', async () => {
    const workspace = await loaded();
    const theirs = `${JSON.stringify({ ...original, note: 'edited in vim meanwhile' }, null, 2)}\n`;
    const refused = await refusal(
      editWorkspaceHost(workspace, 'web-1', { ...fieldsOfWeb1, port: '2222' }, { beforeWrite: () => fs.writeFile(file, theirs) }),
    );
    expect(refused).toMatchObject({ code: 'refused', details: { file, reason: 'changed_on_disk' } });
    expect(refused.message).toContain(`${file}: changed on disk since it was read`);
    expect(await fs.readFile(file, 'utf8')).toBe(theirs);
    expect((await fs.readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses an edit of a host changed by hand since this window read the file, naming the field', async () => {
    const workspace = await loaded();
    const changed = structuredClone(original);
    changed.hosts[0]!.url = 'ssh://deploy@web-1:2200/srv/www';
    await fs.writeFile(file, JSON.stringify(changed));
    const refused = await refusal(editWorkspaceHost(workspace, 'web-1', { ...fieldsOfWeb1, port: '2222' }));
    expect(refused.message).toBe(
      `${file}: hosts[0].url of "web-1" changed on disk since it was read: nothing was written; Rescan to read it again, then edit`,
    );
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(changed);
  });

  it('never writes a file the loader refuses, whatever the dialog sends', async () => {
    const workspace = await loaded();
    const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('/srv/x', '~/.ssh/k', 'web-3', '2222', '', '..', '-x'));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ name: text, host: text, user: text, port: text, path: text, identityFile: text, jumpHost: text, sshConfig: text }),
        async (fields) => {
          await fs.writeFile(file, `${JSON.stringify(original, null, 4)}\n`);
          const done = await editWorkspaceHost(workspace, 'web-1', fields).then(
            () => true,
            () => false,
          );
          const load = await loadWorkspace(file);
          expect(load.ok).toBe(true);
          if (!done) expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(original);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('removeWorkspaceHost', () => {
  it('takes the host out of the file and keeps everything else', async () => {
    await removeWorkspaceHost(await loaded(), 'web-1');
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ ...original, hosts: [original.hosts[1]] });
  });

  it('refuses a host the window does not know, and one already removed by hand', async () => {
    const workspace = await loaded();
    expect((await refusal(removeWorkspaceHost(workspace, 'web-9'))).code).toBe('not_found');
    await fs.writeFile(file, JSON.stringify({ ...original, hosts: [original.hosts[1]] }));
    const gone = await refusal(removeWorkspaceHost(workspace, 'web-1'));
    expect(gone.message).toBe(`${file}: has no host "web-1" now (removed by hand?): Rescan to read it again`);
  });
});

describe('addWorkspaceHost', () => {
  it('adds a host with its ssh settings, and names a duplicate at its field', async () => {
    await addWorkspaceHost(await loaded(), { name: 'web-3', target: 'ops@web-3:2200', path: '/srv', identityFile: '~/.ssh/web3' });
    expect(JSON.parse(await fs.readFile(file, 'utf8')).hosts[2]).toEqual({
      name: 'web-3',
      url: 'ssh://ops@web-3:2200/srv',
      identity_file: '~/.ssh/web3',
    });
    const twice = await refusal(addWorkspaceHost(await loaded(), { name: 'web-3', target: 'web-4', path: '/srv' }));
    expect(twice.message).toBe(`addHost: ${file}: name: host name "web-3" is already in the workspace file`);
  });
});
