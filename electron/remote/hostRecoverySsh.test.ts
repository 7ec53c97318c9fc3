// Repair, discard staging and backups (list, restore, prune) of a workspace host's destination, through
// the app's Session over a real OpenSSH (electron/testing/sshHarness.ts): planned and applied by the
// host's agent next to the files, confirmed here as a local apply is (the restore's typed id is
// `NAME:ID`, a partial repair must be accepted, each refusal names the host), the stale-plan check made
// on the host, the backups and the journal the host's. Skipped, with the reason, where sshd cannot run.
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, ApiResult } from '../../shared/api';
import type { ApplyResult } from '../../shared/plan';
import { STAGING_DIR_NAME } from '../../shared/staging';
import { Session } from '../service/session';
import { callOk, jobEnd, jobItems } from '../testing/sessionCalls';
import { makeTempDir, removeTempDir, writeInterruptedStaging } from '../testing/fixtures';
import { driftByHand, recoveryWorkspace, PUBLISHED_FILES } from '../testing/recoveryFixtures';
import { sshConfigOf, sshUnavailableReason, startSshServer, type SshServer } from '../testing/sshHarness';
import { sshHostConnector } from './hostConnector';

const unavailable = sshUnavailableReason();
if (unavailable) console.log(`skipped the ssh host recovery tests: ${unavailable}`);

const ID = 'web-1:archive';

describe.skipIf(unavailable !== undefined)('repair, discard staging and backups of a host destination over a real OpenSSH', () => {
  let server: SshServer;
  let root: string;
  let hostRoot: string;
  let dest: string;
  let clientFile: string;
  let session: Session;
  const events: ApiEvent[] = [];

  beforeAll(async () => {
    server = await startSshServer();
    root = await makeTempDir('host-recovery-');
    hostRoot = path.join(root, 'host');
    await fs.mkdir(hostRoot);
    const fixture = await recoveryWorkspace(hostRoot);
    dest = fixture.dest;
    const client = path.join(root, 'client');
    await fs.mkdir(client);
    const sshCommand = await sshConfigOf(client, [{ alias: 'web-1', server }]);
    clientFile = path.join(client, 'distributor-inspector.json');
    await fs.writeFile(
      clientFile,
      JSON.stringify({
        destinations: [],
        hosts: [{ name: 'web-1', url: `ssh://web-1${fixture.workspaceFile}`, agent: server.agentCommand }],
      }),
    );
    session = new Session({
      transport: 'http',
      connectHost: sshHostConnector({ env: { ...process.env, DISTRIBUTOR_INSPECTOR_SSH: sshCommand } }),
      progressIntervalMs: 0,
    });
    session.onEvent((event) => events.push(event));
    await callOk(session, 'openWorkspace', { path: clientFile });
    const deadline = Date.now() + 60_000;
    while ((await callOk(session, 'hosts', {})).hosts[0]?.state !== 'connected') {
      if (Date.now() > deadline) throw new Error(`web-1: ${JSON.stringify((await callOk(session, 'hosts', {})).hosts)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 180_000);
  afterAll(async () => {
    await session?.close();
    await server?.stop();
    if (root) await removeTempDir(root);
  });

  let lastApply = '';
  const applied = async (request: { planId: string; confirm?: string; acceptPartial?: boolean }): Promise<ApplyResult> => {
    const { job } = await callOk(session, 'applyPlan', { confirmed: true, ...request });
    lastApply = job;
    const end = await jobEnd(session, job, events);
    if (end.event !== 'result') throw new Error(`apply ended with ${JSON.stringify(end.data)}`);
    return end.data.result as ApplyResult;
  };
  const refusal = (answer: ApiResult<unknown>) => (answer.ok ? undefined : answer.error);

  it('repairs the drifted outputs on the host: the bytes proven there, the disk there rewritten, the extra file kept, a backup kept beside its workspace', async () => {
    await driftByHand(dest);
    const { job } = await callOk(session, 'verify', { destinations: [ID] });
    const verified = await jobEnd(session, job, events);
    expect(verified.event === 'result' && verified.data.result).toEqual({ intact: 0, drifted: 1, skipped: 0 });
    const { planId, plan } = await callOk(session, 'planRepair', { destination: ID });
    expect(plan.mode).toBe('repair');
    expect(plan.destinationPath).toBe(dest);
    expect(plan.writes.map((write) => write.path).sort()).toEqual(['data.csv', 'pages/deep/b.txt', 'report.html']);
    const result = await applied({ planId });
    expect(result).toMatchObject({ ok: true, mode: 'repair', stateWritten: false });
    expect(await fs.readFile(path.join(dest, 'data.csv'), 'utf8')).toBe(PUBLISHED_FILES['data.csv']);
    expect(await fs.readFile(path.join(dest, 'pages', 'deep', 'b.txt'), 'utf8')).toBe(PUBLISHED_FILES['pages/deep/b.txt']);
    expect(await fs.readFile(path.join(dest, 'notes.txt'), 'utf8')).toBe('operator notes');
    // The item is the destination as the host reads it after the apply: verified intact, named by its host.
    expect(jobItems(events, lastApply)[0]).toMatchObject({
      entry: { destination: ID },
      verify: { report: { status: 'intact' } },
    });
    const again = await session.call('applyPlan', { confirmed: true, planId });
    expect(refusal(again)?.code).toBe('not_found');

    const listed = await callOk(session, 'listBackups', { destination: ID });
    expect(listed.backups.map((backup) => backup.action)).toEqual(['repair']);
    expect(listed.backups[0]!.folder.startsWith(path.join(hostRoot, '.inspector-backups'))).toBe(true);
    // The host's agent journals it, in the journal beside the host's workspace file.
    const history = await callOk(session, 'history', { destination: ID });
    expect(history.file).toBe(path.join(hostRoot, '.inspector-history.jsonl'));
    expect(history.records.at(-1)).toMatchObject({ action: 'repair', transport: 'agent', result: { outcome: 'applied' } });
  }, 120_000);

  it('restores the repair backup on the host only once "web-1:archive" is typed, naming the host when the typed id is wrong', async () => {
    const [backup] = (await callOk(session, 'listBackups', { destination: ID })).backups;
    const planned = await callOk(session, 'planRestore', { destination: ID, backup: backup!.id });
    expect(planned.confirmText).toBe(ID);
    expect(planned.plan.destinationPath).toBe(dest);
    for (const typed of [undefined, 'archive']) {
      const refused = refusal(
        await session.call('applyPlan', { confirmed: true, planId: planned.planId, ...(typed ? { confirm: typed } : {}) }),
      );
      expect(refused).toMatchObject({ code: 'confirmation_required', details: { expected: ID, host: 'web-1' } });
      expect(refused?.message).toContain(`in ${dest} on host web-1: type the destination id "${ID}"`);
    }
    expect(await fs.readFile(path.join(dest, 'data.csv'), 'utf8')).toBe(PUBLISHED_FILES['data.csv']);
    const result = await applied({ planId: planned.planId, confirm: ID });
    expect(result).toMatchObject({ ok: true, mode: 'restore' });
    // Back as it was before the repair: drifted by hand.
    expect(await fs.readFile(path.join(dest, 'data.csv'), 'utf8')).toBe('a,b\n1,3\n');
    expect(existsSync(path.join(dest, 'pages', 'deep'))).toBe(false);
    const history = await callOk(session, 'history', { destination: ID });
    expect(history.records.at(-1)).toMatchObject({ action: 'restore', transport: 'agent', backupId: backup!.id });
  }, 120_000);

  it("refuses on the host a repair planned before the disk changed (the host's stale-plan check), and nothing is written", async () => {
    const { planId } = await callOk(session, 'planRepair', { destination: ID });
    await fs.writeFile(path.join(dest, 'report.html'), '<p>edited again after the plan</p>');
    const result = await applied({ planId });
    expect(result).toMatchObject({ ok: false, changed: false, error: { code: 'stale_plan' } });
    expect(await fs.readFile(path.join(dest, 'report.html'), 'utf8')).toBe('<p>edited again after the plan</p>');
    expect(await fs.readFile(path.join(dest, 'data.csv'), 'utf8')).toBe('a,b\n1,3\n');
  }, 120_000);

  it("discards an interrupted apply's staging folder on the host, and nothing else", async () => {
    await writeInterruptedStaging(dest);
    const { planId, plan } = await callOk(session, 'planDiscardStaging', { destination: ID });
    expect(plan.mode).toBe('discard_staging');
    expect(plan.staging?.map((folder) => folder.name)).toEqual([STAGING_DIR_NAME]);
    const result = await applied({ planId });
    expect(result).toMatchObject({ ok: true, mode: 'discard_staging' });
    expect(existsSync(path.join(dest, STAGING_DIR_NAME))).toBe(false);
    expect(await fs.readFile(path.join(dest, 'notes.txt'), 'utf8')).toBe('operator notes');
  }, 120_000);

  it("prunes the host's backups of the destination to its workspace's keep, on the host", async () => {
    // Another backup (a second repair), then keep 1 in the host's workspace file.
    const { planId } = await callOk(session, 'planRepair', { destination: ID });
    expect((await applied({ planId })).ok).toBe(true);
    const before = (await callOk(session, 'listBackups', { destination: ID })).backups;
    // Newest first: this repair, then the discard of staging, the restore and the first repair (as each keeps one).
    expect(before[0]!.action).toBe('repair');
    expect(before.length).toBeGreaterThanOrEqual(2);
    const workspaceFile = path.join(hostRoot, 'distributor-inspector.json');
    const workspace = JSON.parse(await fs.readFile(workspaceFile, 'utf8'));
    await fs.writeFile(workspaceFile, JSON.stringify({ ...workspace, backups: { keep: 1 } }));
    // The host reads its workspace file again when it reconnects.
    await callOk(session, 'reconnectHost', { name: 'web-1' });
    const deadline = Date.now() + 60_000;
    while ((await callOk(session, 'hosts', {})).hosts[0]?.state !== 'connected') {
      if (Date.now() > deadline) throw new Error('web-1 did not reconnect');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pruned = await callOk(session, 'pruneBackups', { destination: ID });
    expect(pruned.removed.map((backup) => backup.id).sort()).toEqual(
      before
        .slice(1)
        .map((backup) => backup.id)
        .sort(),
    );
    expect(pruned.kept).toBe(1);
    for (const gone of before.slice(1)) expect(existsSync(gone.folder)).toBe(false);
    expect(existsSync(before[0]!.folder)).toBe(true);
  }, 120_000);
});
