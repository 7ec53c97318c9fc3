// `scan` of a workspace with hosts goes through the CLI's Session (scanHosts.ts): each host reached
// once, by the connector the Session is given, at most --hosts-parallel connecting at once; a host that
// fails or hangs never stops the others. Here each host is a real agent Session in this process behind
// a stand-in link (no ssh): what each was asked, and how many connected at once, is counted.

import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostFailure } from '../service/hostLink';
import { loadWorkspace } from '../service/workspaceScan';
import { FakeClock } from '../testing/fakeClock';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import type { CliIo } from './command';
import { issueLine, jsonDocument } from './renderScan';
import { cliHostConnector } from './hostDoor';
import { runRemoteScan, scanWithHosts } from './scanHosts';
import { processEnd } from '../testing/processEnded';
import { countingConnector, type HostPlan } from '../testing/fakeHostLinks';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('scan-hosts-test')));
afterEach(async () => remove());

const io: CliIo = { stdout: () => {}, stderr: () => {}, isTerminal: false, env: { ...process.env }, cwd: '/' };

async function hostFolder(name: string, ids: string[]): Promise<string> {
  const folder = path.join(dir, name);
  for (const id of ids) writeManagedDestination(path.join(folder, id), { 'index.html': `${name} ${id}` }, { destinationId: id });
  return folder;
}

/** A workspace file of one local destination and these hosts, each URL naming the host's folder (its agent is here). */
async function workspaceWith(plans: Record<string, HostPlan>) {
  writeManagedDestination(path.join(dir, 'here', 'docs'), { 'index.html': 'here' }, { destinationId: 'docs' });
  const file = path.join(dir, 'distributor-inspector.json');
  const hosts = Object.entries(plans).map(([name, plan]) => ({
    name,
    url: `ssh://${name}.example${'folder' in plan ? plan.folder : `/srv/${name}`}`,
  }));
  await fs.writeFile(file, JSON.stringify({ destinations: [{ path: 'here/docs' }], hosts }));
  const load = await loadWorkspace(file);
  if (!load.ok) throw new Error(JSON.stringify(load.issues));
  return { ...load, plans };
}

describe('scan of a workspace with hosts, through the Session', () => {
  it('reaches each host once, through the Session connector, and with --verify reads every host with the one verify job the app uses', async () => {
    const load = await workspaceWith({
      'web-1': { folder: await hostFolder('web-1', ['a', 'b']) },
      'web-2': { folder: await hostFolder('web-2', ['c']) },
    });
    const { connector, seen } = countingConnector(load.plans);
    const outcome = await scanWithHosts(load.workspace, load.issues, {}, true, io, undefined, connector);
    expect(seen.connects).toEqual({ 'web-1': 1, 'web-2': 1 });
    // No scan beside the verify: each row and its report come from the one read of the verify job.
    expect(seen.asked).toEqual({ 'web-1': ['openWorkspace', 'verify'], 'web-2': ['openWorkspace', 'verify'] });
    // Closed with the Session: nothing is left running behind the command.
    expect(seen.closes).toBe(2);
    const document = jsonDocument(outcome);
    expect(document.destinations.map((row) => [row.host ?? null, row.id, row.verify?.status])).toEqual([
      [null, 'here/docs', 'intact'],
      ['web-1', 'web-1:a', 'intact'],
      ['web-1', 'web-1:b', 'intact'],
      ['web-2', 'web-2:c', 'intact'],
    ]);
    expect(document.hosts).toEqual([
      { name: 'web-1', url: `ssh://web-1.example${path.join(dir, 'web-1')}`, state: 'scanned', destinations: 2 },
      { name: 'web-2', url: `ssh://web-2.example${path.join(dir, 'web-2')}`, state: 'scanned', destinations: 1 },
    ]);
    expect(document.counts).toEqual({ total: 4, managed: 4, unmanaged: 0, empty: 0, invalid: 0, intact: 4, drifted: 0 });
  });

  it('prints a destination replaced as the host is asked to verify with the status and the report of one read', async () => {
    const folder = await hostFolder('web-1', ['a']);
    const load = await workspaceWith({ 'web-1': { folder } });
    // A publish lands on the host while the command runs: once, as the verify is asked for.
    let replaced = false;
    const { connector } = countingConnector(load.plans, (host, method) => {
      if (host === 'web-1' && method === 'verify' && !replaced) {
        replaced = true;
        const files = { 'index.html': 'web-1 a, published again', 'about.html': 'new page' };
        writeManagedDestination(path.join(folder, 'a'), files, { destinationId: 'a', publishedAt: '2026-12-06T18:00:00Z' });
      }
      return undefined;
    });
    const document = jsonDocument(await scanWithHosts(load.workspace, load.issues, {}, true, io, undefined, connector));
    expect(replaced).toBe(true);
    const row = document.destinations.find((destination) => destination.id === 'web-1:a')!;
    // The row is the new publish, the very one the report checked: never the old row beside the new report.
    expect([row.status, row.published_at, row.outputCount]).toEqual(['managed', '2026-12-06T18:00:00Z', 2]);
    expect(row.verify?.status).toBe('intact');
    expect(row.verify?.outputs.map((output) => output.path).sort()).toEqual(['about.html', 'index.html']);
  });

  it('connects at most --hosts-parallel hosts at once, and every host at once without it', async () => {
    const load = await workspaceWith({
      'web-1': { folder: await hostFolder('web-1', ['a']) },
      'web-2': { folder: await hostFolder('web-2', ['b']) },
      'web-3': { folder: await hostFolder('web-3', ['c']) },
    });
    const one = countingConnector(load.plans);
    const bounded = await scanWithHosts(load.workspace, load.issues, {}, false, io, 1, one.connector);
    expect(one.seen.mostAtOnce).toBe(1);
    expect(bounded.rows).toHaveLength(4);
    const all = countingConnector(load.plans);
    await scanWithHosts(load.workspace, load.issues, {}, false, io, undefined, all.connector);
    expect(all.seen.mostAtOnce).toBe(3);
  });

  it('reports a host that fails, hangs or is lost mid-scan with its reason, and every other host still answers', async () => {
    let release: (failure: HostFailure) => void = () => {};
    const hang = new Promise<HostFailure>((resolve) => (release = resolve));
    const load = await workspaceWith({
      hung: { hang },
      refused: { failure: { code: 'auth_failed', message: 'ssh refused the key: load one with ssh-add' } },
      'web-1': { folder: await hostFolder('web-1', ['a']) },
      dropped: { folder: await hostFolder('dropped', ['d']) },
      'web-2': { folder: await hostFolder('web-2', ['b']) },
    });
    const { connector, seen } = countingConnector(load.plans, (host, method) =>
      host === 'dropped' && method === 'scan' ? { code: 'connection_lost', message: 'ssh exited' } : undefined,
    );
    // Two lanes: the hung host holds one; every other host goes through the other meanwhile.
    const scanning = scanWithHosts(load.workspace, load.issues, {}, false, io, 2, connector);
    while ((seen.asked['web-2'] ?? []).length < 2) await new Promise((resolve) => setImmediate(resolve));
    expect(seen.asked['web-1']).toEqual(['openWorkspace', 'scan']);
    release({ code: 'host_unreachable', message: 'hung.example did not answer' });
    const document = jsonDocument(await scanning);
    expect(document.hosts).toEqual([
      expect.objectContaining({
        name: 'hung',
        state: 'failed',
        error: { code: 'host_unreachable', message: 'hung.example did not answer' },
      }),
      expect.objectContaining({
        name: 'refused',
        state: 'failed',
        error: { code: 'auth_failed', message: 'ssh refused the key: load one with ssh-add' },
      }),
      expect.objectContaining({ name: 'web-1', state: 'scanned', destinations: 1 }),
      // The host's name is the row's: its message is the failure's own.
      expect.objectContaining({
        name: 'dropped',
        state: 'failed',
        destinations: 0,
        error: { code: 'connection_lost', message: 'ssh exited' },
      }),
      expect.objectContaining({ name: 'web-2', state: 'scanned', destinations: 1 }),
    ]);
    expect(document.destinations.map((row) => row.id)).toEqual(['here/docs', 'web-1:a', 'web-2:b']);
  });

  it('ends when a host never says hello: after --connect-timeout it is listed as connect_timeout and its ssh is ended', async () => {
    const load = await workspaceWith({ hung: { folder: '/srv/hung' }, 'web-1': { folder: await hostFolder('web-1', ['a']) } });
    const { connector } = countingConnector(load.plans);
    // The hung host through the CLI's own connector: ssh's stand-in logs in, then its agent never answers.
    const hungSsh = path.join(dir, 'hung-ssh');
    await fs.writeFile(hungSsh, `#!/bin/sh\necho $$ > ${dir}/hung.pid\nexec sleep 600\n`, { mode: 0o755 });
    const clock = new FakeClock();
    const options = { 'connect-timeout': '2.5' };
    const viaSsh = cliHostConnector(options, { ...io, env: { ...io.env, DISTRIBUTOR_INSPECTOR_SSH: hungSsh } }, clock);
    const scanning = scanWithHosts(load.workspace, load.issues, options, false, io, undefined, (host, signal) =>
      host.name === 'hung' ? viaSsh(host, signal) : connector(host, signal),
    );
    const pidFile = path.join(dir, 'hung.pid');
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await new Promise((resolve) => setTimeout(resolve, 20));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    clock.advance(2_500);
    const document = jsonDocument(await scanning);
    expect(document.hosts).toEqual([
      expect.objectContaining({ name: 'hung', state: 'failed', error: expect.objectContaining({ code: 'connect_timeout' }) }),
      expect.objectContaining({ name: 'web-1', state: 'scanned', destinations: 1 }),
    ]);
    const { message } = (document.hosts![0] as { error: { message: string } }).error;
    expect(message).toMatch(/^hung\.example did not complete the agent's handshake within 2\.5 s/);
    expect(message).toContain('allow longer with --connect-timeout SECONDS');
    expect(document.destinations.map((row) => row.id)).toEqual(['here/docs', 'web-1:a']);
    await processEnd(pid);
  });
});

describe('scan ssh://… through the Session', () => {
  it("prints the host's workspace as its own document, with the host's ids", async () => {
    const folder = await hostFolder('web-1', ['a', 'b']);
    const { connector, seen } = countingConnector({ 'web-1': { folder } });
    const outcome = await runRemoteScan({ host: 'web-1', path: folder }, {}, true, io, connector);
    if ('inputIssues' in outcome) throw new Error(outcome.inputIssues.join('\n'));
    expect(seen.connects).toEqual({ 'web-1': 1 });
    const document = jsonDocument(outcome);
    expect(document.workspace).toEqual({ kind: 'folder', root: folder, issues: [] });
    expect(document.hosts).toBeUndefined();
    expect(document.destinations.map((row) => [row.id, row.host, row.verify?.status])).toEqual([
      ['a', undefined, 'intact'],
      ['b', undefined, 'intact'],
    ]);
  });

  it('lists every problem of a workspace there that does not load, each at its field', async () => {
    const file = path.join(dir, 'distributor-inspector.json');
    await fs.writeFile(file, JSON.stringify({ destinations: [{ path: 42 }, { pathx: 'a' }] }));
    const { connector } = countingConnector({ 'web-1': { folder: dir } });
    const outcome = await runRemoteScan({ host: 'web-1', path: file }, {}, false, io, connector);
    // The very lines `scan FILE` prints for it on the host's own disk.
    const there = await loadWorkspace(file);
    if (there.ok) throw new Error('the workspace loaded');
    expect(there.issues).toHaveLength(3);
    expect(outcome).toEqual({ inputIssues: there.issues.map((issue) => issueLine(there.file, issue)) });
  });
});
