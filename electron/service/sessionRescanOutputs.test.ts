import { promises as fs, readFileSync, statSync, utimesSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, ScanEntry } from '../../shared/api';
import { WORKSPACE_FILE_NAME } from '../../shared/workspaceSchema';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { callOk as call, jobEnd, jobItems, okValue as value } from '../testing/sessionCalls';
import { Session } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const PAST = 1_700_000_000;

/** Three managed destinations with nested outputs, a session with live refresh off and its own stat cache. */
async function setup(statCache = true) {
  const { dir, remove } = await makeTempDir('session-rescan');
  const session = new Session({
    transport: 'http',
    progressIntervalMs: 0,
    liveRefresh: false,
    statCacheFile: statCache ? path.join(dir, 'state', 'verify-stat-cache.json') : false,
  });
  const events: ApiEvent[] = [];
  session.onEvent((event) => events.push(event));
  cleanups.push(async () => {
    await session.close();
    await remove();
  });
  for (const name of ['alpha', 'beta', 'gamma']) {
    writeManagedDestination(path.join(dir, name), { 'index.html': `${name} home`, 'guide/assets/logo.png': `${name} logo` });
    // A whole second, so a copy can be given exactly the same mtime.
    utimesSync(path.join(dir, name, 'guide', 'assets', 'logo.png'), PAST, PAST);
  }
  const file = path.join(dir, WORKSPACE_FILE_NAME);
  writeFileSync(
    file,
    JSON.stringify({ schema_version: 1, destinations: ['alpha', 'beta', 'gamma'].map((name) => ({ path: name, destination_id: name })) }),
  );
  await call(session, 'openWorkspace', { path: file });
  const run = async (method: 'verify' | 'scan') => {
    const { job } = value(await session.call(method, {})) as { job: string };
    await jobEnd(session, job);
    return job;
  };
  const report = async () =>
    JSON.parse((value(await session.call('exportReport', { format: 'json' })) as { content: string }).content) as {
      destinations: { id: string; verify?: { health: string; freshness?: { fresh: boolean; reason?: string } } }[];
    };
  const health = async (id: string) => (await report()).destinations.find((d) => d.id === id)?.verify;
  return { dir, session, events, run, health };
}

describe('Rescan after a verify, with live refresh off', () => {
  it('turns stale a result whose nested output was edited in place at the same size, or replaced by a new file of the same size and mtime', async () => {
    const { dir, events, run, health } = await setup();
    await run('verify');
    await run('scan');
    expect(await health('alpha')).toMatchObject({ health: 'intact' });

    // Same size, written in place: only the mtime/ctime move.
    const edited = path.join(dir, 'alpha', 'guide', 'assets', 'logo.png');
    writeFileSync(edited, 'ALPHA LOGO');
    // Same size and mtime, a new inode (a save by rename one folder down: the top listing does not move).
    const replaced = path.join(dir, 'beta', 'guide', 'assets', 'logo.png');
    const was = statSync(replaced);
    const temp = path.join(dir, 'beta', 'guide', 'assets', '.logo.tmp');
    writeFileSync(temp, 'BETA LOGO');
    utimesSync(temp, PAST, PAST);
    renameSync(temp, replaced);
    expect(statSync(replaced).mtimeMs).toBe(was.mtimeMs);

    const scan = await run('scan');
    expect(await health('alpha')).toMatchObject({ health: 'stale', freshness: { fresh: false, reason: 'outputs_changed' } });
    expect(await health('beta')).toMatchObject({ health: 'stale', freshness: { fresh: false, reason: 'outputs_changed' } });
    expect(await health('gamma')).toMatchObject({ health: 'intact' });
    // The renderer is handed the same proof with each row: the stale ones carry another outputs digest.
    const rows = jobItems(events, scan) as ScanEntry[];
    expect(rows.find((row) => row.destination === 'gamma')?.inspection.outputsDigest).toMatch(/^outputs:[0-9a-f]{64}$/);
    // Stale is final: a second rescan keeps it, a verify makes it fresh (and drifted) again.
    await run('scan');
    expect(await health('alpha')).toMatchObject({ health: 'stale' });
    await run('verify');
    expect(await health('alpha')).toMatchObject({ health: 'drifted' });
  });

  it('turns stale a result whose nested output was removed, and one whose stat cache record was lost', async () => {
    const { dir, session, run, health } = await setup();
    await run('verify');
    await fs.rm(path.join(dir, 'alpha', 'guide', 'assets', 'logo.png'));
    const cache = await (session as unknown as { statCache(): Promise<{ record(root: string, outputs: object): void }> }).statCache();
    // The cache no longer holds what gamma's verify hashed: nothing proves its outputs unchanged.
    cache.record(path.join(dir, 'gamma'), {});
    await run('scan');
    expect(await health('alpha')).toMatchObject({ health: 'stale', freshness: { reason: 'outputs_changed' } });
    expect(await health('gamma')).toMatchObject({ health: 'stale', freshness: { reason: 'outputs_changed' } });
    expect(await health('beta')).toMatchObject({ health: 'intact' });
  });

  it('stats nothing for a scan without verify results, and keeps the fingerprint rule alone without a stat cache', async () => {
    const { dir, events, run, health } = await setup(false);
    const first = await run('scan');
    const rows = jobItems(events, first) as ScanEntry[];
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.inspection.outputsDigest === undefined)).toBe(true);
    await run('verify');
    writeFileSync(path.join(dir, 'alpha', 'guide', 'assets', 'logo.png'), 'ALPHA LOGO');
    await run('scan');
    // No cache: no outputs part in the basis, so only the fingerprint is judged (the documented gap).
    expect(await health('alpha')).toMatchObject({ health: 'intact' });
  });
});

describe('A scan’s fingerprints', () => {
  const fingerprinted = (rows: ScanEntry[]) =>
    rows
      .filter((row) => row.inspection.stateSha256 !== undefined && row.inspection.listingDigest !== undefined)
      .map((row) => row.destination)
      .sort();

  it('are read only for the destinations holding a verify result, fresh or stale, and a rescan still judges those', async () => {
    const { dir, session, events, run, health } = await setup();
    const first = await run('scan');
    expect(jobItems(events, first)).toHaveLength(3);
    expect(fingerprinted(jobItems(events, first) as ScanEntry[])).toEqual([]);

    const { job } = await call(session, 'verify', { destinations: ['alpha', 'beta'] });
    await jobEnd(session, job, events);
    // beta's state file rewritten (a byte more at its end): its fingerprint moves.
    const betaState = path.join(dir, 'beta', '.distributor.json');
    writeFileSync(betaState, `${readFileSync(betaState, 'utf8')} `);
    const rescan = await run('scan');
    expect(fingerprinted(jobItems(events, rescan) as ScanEntry[])).toEqual(['alpha', 'beta']);
    expect(await health('alpha')).toMatchObject({ health: 'intact' });
    expect(await health('beta')).toMatchObject({ health: 'stale', freshness: { reason: 'state_changed' } });
    expect(await health('gamma')).toBeNull();
    // A stale result's row keeps its fingerprint: the page judges each row by its own copy of the result.
    const third = await run('scan');
    expect(fingerprinted(jobItems(events, third) as ScanEntry[])).toEqual(['alpha', 'beta']);
  });

  it('are read for every row by a host’s agent: its client holds the results, and keeps them across a new agent', async () => {
    const { dir } = await setup();
    const agent = new Session({ transport: 'agent', liveRefresh: false, statCacheFile: false, progressIntervalMs: 0 });
    cleanups.unshift(() => agent.close());
    const events: ApiEvent[] = [];
    agent.onEvent((event) => events.push(event));
    await call(agent, 'openWorkspace', { path: path.join(dir, WORKSPACE_FILE_NAME) });
    const { job } = await call(agent, 'scan', {});
    await jobEnd(agent, job, events);
    expect(fingerprinted(jobItems(events, job) as ScanEntry[])).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('judge a verify result kept while the scan ran by a read with its fingerprint, never by the row read without one', async () => {
    const { session, events, run, health } = await setup();
    await run('verify');
    // As if the verify ended only after the scan had chosen which rows to fingerprint (none): its
    // results are put back as the scan keeps its first row, before the others come in.
    const open = session.workspace();
    const kept = new Map(open.verifies);
    open.verifies.clear();
    const keepScan = open.scans.set.bind(open.scans);
    let firstRow: string | undefined;
    open.scans.set = (id, entry) => {
      if (firstRow === undefined) {
        firstRow = id;
        for (const [other, held] of kept) if (other !== id) open.verifies.set(other, held);
      }
      return keepScan(id, entry);
    };
    const scan = await run('scan');
    const others = ['alpha', 'beta', 'gamma'].filter((id) => id !== firstRow);
    const rows = jobItems(events, scan) as ScanEntry[];
    expect(rows.map((row) => row.destination).sort()).toEqual(['alpha', 'beta', 'gamma']);
    expect(fingerprinted(rows)).toEqual(others);
    for (const id of others) expect(await health(id)).toMatchObject({ health: 'intact' });
    const result = events.find((event) => event.event === 'result' && event.data.job === scan);
    expect(result?.data).toMatchObject({ result: { counts: { total: 3, managed: 3 } } });
  });
});
