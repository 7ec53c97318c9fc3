// `repair`, `discard-staging` and `backups list|restore|prune` of ssh:// paths over a real OpenSSH
// (electron/testing/sshHarness.ts): the host's agent plans and applies next to the files, with the
// workspace `--workspace ssh://…` names on that host (its configured source, its backups, its journal);
// every question and the Undo line name the host. Skipped, with the reason, where sshd cannot run.
import { installedCommand } from '../service/installedCommand';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { runCliCaptured } from '../testing/cliCapture';
import { makeTempDir, removeTempDir, writeInterruptedStaging } from '../testing/fixtures';
import { driftByHand, PUBLISHED_FILES, recoveryWorkspace } from '../testing/recoveryFixtures';
import { sshUnavailableReason, startSshServer, type SshServer } from '../testing/sshHarness';

const unavailable = sshUnavailableReason();
if (unavailable) console.log(`skipped the ssh recovery command tests: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('repair, discard-staging and backups of ssh:// paths', () => {
  let server: SshServer;
  let root: string;
  let dest: string;
  let workspaceFile: string;
  let sshCommand: string;

  beforeAll(async () => {
    server = await startSshServer();
    root = await makeTempDir('remote-recovery-');
    const fixture = await recoveryWorkspace(root);
    dest = fixture.dest;
    workspaceFile = fixture.workspaceFile;
    sshCommand = await server.sshCommand();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (root) await removeTempDir(root);
  });

  const remote = (argv: string[], answer?: string) =>
    runCliCaptured([...argv, '--agent', server.agentCommand], {
      cwd: root,
      env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: sshCommand },
      ...(answer !== undefined ? { answer } : {}),
    });
  const host = () => `127.0.0.1:${server.port}`;
  const onHost = () => ['--workspace', server.url(workspaceFile)];

  it('repairs over ssh from the source the host workspace configures: a dry run names the host and changes nothing, --yes rewrites the disk there', async () => {
    await driftByHand(dest);
    const dry = await remote(['repair', server.url(dest), ...onHost()]);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`kept in ${path.join(root, '.inspector-backups', 'archive')}/<UTC time>/ on host ${host()}`);
    expect(dry.stdout).toContain('Not applied');
    expect(await fs.readFile(path.join(dest, 'data.csv'), 'utf8')).toBe('a,b\n1,3\n');
    // On a terminal, the question names the host; anything but "yes" changes nothing.
    const asked = await remote(['repair', server.url(dest), ...onHost()], 'no');
    expect(asked.asked).toEqual([`Repair: create 1 file, update 2 files in ${dest} on host ${host()}? Type "yes" to apply: `]);
    expect(await fs.readFile(path.join(dest, 'data.csv'), 'utf8')).toBe('a,b\n1,3\n');
    const applied = await remote(['repair', server.url(dest), ...onHost(), '--yes']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(await fs.readFile(path.join(dest, 'data.csv'), 'utf8')).toBe(PUBLISHED_FILES['data.csv']);
    expect(await fs.readFile(path.join(dest, 'notes.txt'), 'utf8')).toBe('operator notes');
    // The Undo line is the command to run from here: the ssh URL and the workspace there.
    const undo = applied.stdout.match(/Undo: (.*)/)?.[1];
    expect(undo).toMatch(
      new RegExp(
        `^${installedCommand().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} backups restore ${server.url(dest)} \\S+ --workspace ${server.url(workspaceFile)}$`,
      ),
    );
    const journal = await fs.readFile(path.join(root, '.inspector-history.jsonl'), 'utf8');
    expect(JSON.parse(journal.trim().split('\n').at(-1)!)).toMatchObject({
      action: 'repair',
      transport: 'agent',
      destination: { id: 'archive' },
    });
  }, 120_000);

  it('lists the backup on the host, restores it only with --yes, and prunes there', async () => {
    const listed = await remote(['backups', 'list', server.url(dest), ...onHost(), '--json']);
    expect(listed.code).toBe(0);
    const { backups } = JSON.parse(listed.stdout) as { backups: { id: string; action: string; folder: string }[] };
    expect(backups.map((backup) => backup.action)).toEqual(['repair']);
    expect(backups[0]!.folder.startsWith(path.join(root, '.inspector-backups'))).toBe(true);
    const text = await remote(['backups', 'list', server.url(dest), ...onHost()]);
    expect(text.stdout).toContain(`on ${host()}`);

    const dry = await remote(['backups', 'restore', server.url(dest), backups[0]!.id, ...onHost()], 'no');
    // A restore keeps no backup of what it removes: the question asks for the destination id.
    expect(dry.asked).toHaveLength(1);
    expect(dry.asked[0]).toContain(`Restore: update 2 files, delete 1 file and 1 folder in ${dest} on host ${host()}, as it was before`);
    // Named as the app names a host's destination: HOST:ID.
    expect(dry.asked[0]).toContain('Type the destination id "127.0.0.1:archive" to confirm: ');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Not applied');
    expect(await fs.readFile(path.join(dest, 'data.csv'), 'utf8')).toBe(PUBLISHED_FILES['data.csv']);
    const restored = await remote(['backups', 'restore', server.url(dest), backups[0]!.id, ...onHost(), '--yes', '--json']);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout).result).toMatchObject({ ok: true, mode: 'restore' });
    expect(await fs.readFile(path.join(dest, 'data.csv'), 'utf8')).toBe('a,b\n1,3\n');

    const unknown = await remote(['backups', 'restore', server.url(dest), '2020-01-01T000000.000Z', ...onHost(), '--yes']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('backup_not_found');

    const pruned = await remote(['backups', 'prune', server.url(dest), ...onHost()]);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain(
      `Nothing to prune: at most 5 backups per destination in ${path.join(root, '.inspector-backups', 'archive')} on ${host()}`,
    );
  }, 120_000);

  it('discards staging over ssh, and only the staging folder', async () => {
    await writeInterruptedStaging(dest);
    const applied = await remote(['discard-staging', server.url(dest), '--yes', '--json']);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(JSON.parse(applied.stdout).result).toMatchObject({ ok: true, mode: 'discard_staging' });
    expect(existsSync(path.join(dest, STAGING_DIR_NAME))).toBe(false);
    expect(await fs.readFile(path.join(dest, 'notes.txt'), 'utf8')).toBe('operator notes');
  }, 120_000);

  it('refuses, before connecting or with what to give, a repair whose paths are on two machines, without a source, or with a local history or backup folder', async () => {
    const mixed = await remote(['repair', server.url(dest), path.join(root, 'source')]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('SOURCE');
    expect(mixed.stderr).toContain('is local but DEST is on another host');
    const noSource = await remote(['repair', server.url(dest)]);
    expect(noSource.code).toBe(2);
    expect(noSource.stderr).toContain('give SOURCE as ssh://… on the same host');
    const history = await remote(['repair', server.url(dest), server.url(path.join(root, 'source')), '--history', 'h.jsonl']);
    expect(history.code).toBe(2);
    expect(history.stderr).toContain('kept on that host');
    const backupDir = await remote(['backups', 'list', server.url(dest), '--backup-dir', '/tmp/x']);
    expect(backupDir.code).toBe(2);
    expect(backupDir.stderr).toContain('drop --backup-dir');
    const notListed = await remote(['repair', server.url(path.join(root, 'plainx')), ...onHost()]);
    expect(notListed.code).toBe(2);
    expect(notListed.stderr).toContain(`is not a destination of the workspace ${workspaceFile} on ${host()}`);
  }, 120_000);
});
