import { promises as fs, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, EventOf } from '../../shared/api';
import { FRESH, nextVerifyFreshness } from '../../shared/verifyFreshness';
import { WORKSPACE_FILE_NAME } from '../../shared/workspaceSchema';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { writeBundle } from '../testing/fixtures';
import { callOk as call, endsJob, okValue as value } from '../testing/sessionCalls';
import { Session, type SessionOptions } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type LiveEvent = EventOf<'liveRefresh'>;

/** A workspace file of three managed destinations, a session on it, and every liveRefresh event it sends. */
async function setup(liveRefresh: SessionOptions['liveRefresh'] = { debounceMs: 80, maxWaitMs: 300, pollIntervalMs: 100 }) {
  const { dir, remove } = await makeTempDir('session-live');
  const session = new Session({ transport: 'http', progressIntervalMs: 0, liveRefresh });
  cleanups.push(async () => {
    await session.close();
    await remove();
  });
  for (const name of ['alpha', 'beta', 'gamma'])
    writeManagedDestination(path.join(dir, 'destinations', name), { 'index.html': name, 'guide/assets/logo.png': `${name} logo` });
  const file = path.join(dir, WORKSPACE_FILE_NAME);
  const write = (names: string[]) =>
    writeFileSync(
      file,
      JSON.stringify({ schema_version: 1, destinations: names.map((name) => ({ path: `destinations/${name}`, destination_id: name })) }),
    );
  write(['alpha', 'beta']);
  const live: LiveEvent[] = [];
  session.onEvent((event) => event.event === 'liveRefresh' && live.push(event.data));
  await call(session, 'openWorkspace', { path: file });
  const status = await call(session, 'liveRefreshStatus', {});
  return { dir, file, session, write, live, status, destination: (name: string) => path.join(dir, 'destinations', name) };
}

async function until(predicate: () => boolean, timeoutMs = 4000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out waiting for a liveRefresh event');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function runJob(session: Session, method: 'verify'): Promise<void> {
  const ended = new Promise<void>((resolve) =>
    session.onEvent((event: ApiEvent) => (event.event === 'result' || event.event === 'error') && resolve()),
  );
  value(await session.call(method, {}));
  await ended;
}

const verifiedEvents = (live: LiveEvent[]) => live.flatMap((event) => (event.kind === 'verified' ? [event] : []));

const destinationChanges = (live: LiveEvent[]) => live.flatMap((event) => (event.kind === 'destinations' ? event.changes : []));

describe('live refresh in the session', () => {
  it('watches every destination of the open workspace and its workspace file, and says so', async () => {
    const { status, file, live } = await setup();
    expect(status).toMatchObject({ active: true, watching: 2, polling: 0, workspace: { path: file, mode: 'watching' } });
    expect(live.filter((event) => event.kind === 'status').at(-1)).toMatchObject({ kind: 'status', status: { watching: 2 } });
  });

  it('reads a destination again when a file in it is removed, and sends its new row', async () => {
    const { session, live, destination } = await setup();
    await fs.rm(path.join(destination('alpha'), 'index.html'));
    await until(() => destinationChanges(live).length > 0);
    const [change] = destinationChanges(live);
    expect(change!.entry.destination).toBe('alpha');
    expect(change!.entry.inspection.listingDigest).toBeDefined();
    expect(session.workspace().scans.get('alpha')).toEqual(change!.entry);
  });

  it('turns a verify result stale at once when its destination changes on disk, even where the fingerprint cannot tell', async () => {
    const { session, live, destination } = await setup({ debounceMs: 80, maxWaitMs: 300, pollIntervalMs: 100, autoVerify: false });
    await runJob(session, 'verify');
    expect(session.workspace().verifies.get('alpha')?.freshness).toEqual({ fresh: true });
    // Written in place: the state and the folder's listing are unchanged, only the watcher sees it.
    const handle = await fs.open(path.join(destination('alpha'), 'index.html'), 'r+');
    await handle.write('ALPHA', 0);
    await handle.close();
    await until(() => destinationChanges(live).length > 0);
    expect(session.workspace().verifies.get('alpha')?.freshness).toMatchObject({ fresh: false, reason: 'changed_on_disk' });
    expect(session.workspace().verifies.get('beta')?.freshness).toEqual({ fresh: true });
    const [change] = destinationChanges(live);
    expect(Date.parse(change!.changedAt)).toBeGreaterThan(Date.now() - 10_000);
    const report = JSON.parse((await call(session, 'exportReport', { format: 'json' })).content);
    expect(JSON.stringify(report)).toContain('stale');
  });

  it('keeps a verify taken after the watcher saw a change fresh when the change is reported after it, and does not verify it again', async () => {
    // A long debounce: the change is reported well after the verify's result, as when an operator edits and at once clicks Verify all.
    const { session, live, destination } = await setup({ debounceMs: 1500, maxWaitMs: 3000, pollIntervalMs: 100 });
    writeFileSync(path.join(destination('alpha'), 'index.html'), 'alpha, edited');
    // The write's event is in the kernel's queue now; it is handled in a poll phase of the loop, and a
    // second check phase comes after one. The verify then begins a millisecond later.
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    await nextTurn();
    await nextTurn();
    const seen = Date.now();
    while (Date.now() <= seen) await nextTurn();
    await runJob(session, 'verify');
    const verified = session.workspace().verifies.get('alpha')!;
    expect(verified.report.status).toBe('drifted');
    expect(destinationChanges(live)).toEqual([]);
    await until(() => destinationChanges(live).length > 0, 6000);
    const [change] = destinationChanges(live);
    expect(change!.entry.destination).toBe('alpha');
    expect(Date.parse(change!.lastEventAt!)).toBeLessThan(Date.parse(verified.stamp.verifiedAt));
    // What the page makes of the change for the result it holds: still fresh.
    expect(
      nextVerifyFreshness(verified.stamp, FRESH, { kind: 'changed_on_disk', at: change!.changedAt, lastEventAt: change!.lastEventAt }),
    ).toBe(FRESH);
    expect(session.workspace().verifies.get('alpha')?.freshness).toEqual({ fresh: true });
    // A change after the verify still turns its result stale and is verified again; passes run one at a
    // time, so alpha's pass (which verified nothing) ended before beta's.
    writeFileSync(path.join(destination('beta'), 'index.html'), 'beta, edited');
    await until(() => verifiedEvents(live).length > 0, 6000);
    expect(verifiedEvents(live).flatMap((event) => event.entries.map((read) => read.entry.destination))).toEqual(['beta']);
  });

  it('reads the workspace file again when it changes: an added destination is watched and sent with its row', async () => {
    const { session, live, write, destination } = await setup();
    write(['alpha', 'beta', 'gamma']);
    await until(() => live.some((event) => event.kind === 'workspace'));
    const reread = live.find((event) => event.kind === 'workspace')!;
    expect(reread).toMatchObject({ kind: 'workspace', reload: { changes: { added: ['gamma'], removed: [], changed: [] } } });
    if (reread.kind !== 'workspace') throw new Error('unreachable');
    expect(reread.entries.map((entry) => entry.destination)).toEqual(['gamma']);
    expect(session.destination('gamma').path).toBe(destination('gamma'));
    expect(await call(session, 'liveRefreshStatus', {})).toMatchObject({ watching: 3 });

    await fs.writeFile(path.join(destination('gamma'), 'extra.txt'), 'x');
    await until(() => destinationChanges(live).some((change) => change.entry.destination === 'gamma'));
  });

  it('lets a removed destination go: a change in its folder is no longer sent', async () => {
    const { live, write, destination, session } = await setup();
    write(['alpha']);
    await until(() => live.some((event) => event.kind === 'workspace'));
    expect(await call(session, 'liveRefreshStatus', {})).toMatchObject({ watching: 1 });
    await fs.writeFile(path.join(destination('beta'), 'extra.txt'), 'x');
    await fs.writeFile(path.join(destination('alpha'), 'extra.txt'), 'x');
    await until(() => destinationChanges(live).length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(destinationChanges(live).map((change) => change.entry.destination)).toEqual(['alpha']);
  });

  it('keeps the last good list when the workspace file no longer loads, and sends the problem', async () => {
    const { file, live } = await setup();
    writeFileSync(file, '{ "schema_version": 1, "destinations": [');
    await until(() => live.some((event) => event.kind === 'workspace'));
    const reread = live.find((event) => event.kind === 'workspace');
    expect(reread).toMatchObject({ reload: { workspace: { reloadProblem: { file } } } });
    if (reread?.kind !== 'workspace') throw new Error('unreachable');
    expect(reread.reload.workspace.destinations.map((d) => d.id)).toEqual(['alpha', 'beta']);
  });

  it('polls when asked to, says so, and still sends a changed destination', async () => {
    const { status, live, destination } = await setup({ forcePolling: 'polling was asked for', pollIntervalMs: 100, debounceMs: 50 });
    expect(status).toMatchObject({ watching: 0, polling: 2, pollingReasons: [{ reason: 'polling was asked for', count: 2 }] });
    await fs.writeFile(path.join(destination('beta'), '.distributor.json'), '{}');
    await until(() => destinationChanges(live).length > 0);
    expect(destinationChanges(live)[0]!.entry).toMatchObject({ destination: 'beta', inspection: { status: 'invalid' } });
  });

  it('stops watching when the session closes, and answers inactive with live refresh off', async () => {
    const { session, live, destination } = await setup();
    await session.close();
    await fs.writeFile(path.join(destination('alpha'), 'extra.txt'), 'x');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(destinationChanges(live)).toEqual([]);

    const off = await setup(false);
    expect(off.status).toMatchObject({ active: false, watching: 0, polling: 0 });
  });

  it('sends nothing about the engine’s own writes during an apply: the verify after it stays fresh', async () => {
    const { session, live, dir } = await setup();
    const source = path.join(dir, 'source');
    await writeBundle(source, { 'index.html': 'new alpha', 'about.html': 'about' });
    const planned = await call(session, 'planReplace', { destination: 'alpha', mode: 'force', source });
    const ended = new Promise<void>((resolve) => session.onEvent((event) => event.event === 'result' && resolve()));
    value(await session.call('applyPlan', { confirmed: true, planId: planned.planId, confirm: planned.confirmText }));
    await ended;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(destinationChanges(live).filter((change) => change.entry.destination === 'alpha')).toEqual([]);
    expect(session.workspace().verifies.get('alpha')?.freshness).toEqual({ fresh: true });
  });

  it('auto-verify: a nested output edited and another removed after Verify are verified again, drifted and fresh', async () => {
    const { session, live, destination } = await setup();
    await runJob(session, 'verify');
    await fs.rm(path.join(destination('alpha'), 'guide', 'assets', 'logo.png'));
    await fs.appendFile(path.join(destination('alpha'), 'index.html'), ' edited');
    await until(() => verifiedEvents(live).some((event) => event.entries.some((read) => read.entry.destination === 'alpha')));
    const held = session.workspace().verifies.get('alpha')!;
    expect(held.freshness).toEqual({ fresh: true });
    expect(held.report.status).toBe('drifted');
    expect(Object.fromEntries(held.report.outputs.map((output) => [output.path, output.status]))).toEqual({
      'index.html': 'size_mismatch',
      'guide/assets/logo.png': 'missing',
    });
    expect(session.workspace().verifies.get('beta')?.report.status).toBe('intact');
    const report = JSON.parse((await call(session, 'exportReport', { format: 'json' })).content);
    expect(report.destinations.find((d: { id: string }) => d.id === 'alpha').verify).toMatchObject({ health: 'drifted' });
  });

  it('auto-verify off: a nested change leaves the result stale with its reason, never intact', async () => {
    const { session, live, destination } = await setup({ debounceMs: 80, maxWaitMs: 300, pollIntervalMs: 100, autoVerify: false });
    await runJob(session, 'verify');
    await fs.appendFile(path.join(destination('alpha'), 'guide', 'assets', 'logo.png'), '!');
    await until(() => destinationChanges(live).length > 0);
    expect(verifiedEvents(live)).toEqual([]);
    expect(session.workspace().verifies.get('alpha')?.freshness).toMatchObject({ fresh: false, reason: 'changed_on_disk' });
    const report = JSON.parse((await call(session, 'exportReport', { format: 'json' })).content);
    expect(report.destinations.find((d: { id: string }) => d.id === 'alpha').verify).toMatchObject({ health: 'stale' });
  });

  it('leaves a destination over the auto-verify size limit stale, and says why', async () => {
    const { session, live, destination } = await setup({
      debounceMs: 80,
      maxWaitMs: 300,
      pollIntervalMs: 100,
      autoVerify: { maxBytes: 4 },
    });
    await runJob(session, 'verify');
    await fs.appendFile(path.join(destination('alpha'), 'index.html'), '!');
    await until(() => verifiedEvents(live).length > 0);
    const [event] = verifiedEvents(live);
    expect(event!.entries).toEqual([]);
    expect(event!.skipped).toEqual([{ destination: 'alpha', reason: expect.stringContaining('over the 4 B auto-verify limit') }]);
    expect(session.workspace().verifies.get('alpha')?.freshness).toMatchObject({ fresh: false, reason: 'changed_on_disk' });
  });

  it('on opening a workspace, verifies again each destination whose signatures the cache holds', async () => {
    const { session, file } = await setup();
    await runJob(session, 'verify');
    const again = new Session({ transport: 'http', progressIntervalMs: 0, liveRefresh: { debounceMs: 80 } });
    cleanups.push(() => again.close());
    const live: LiveEvent[] = [];
    again.onEvent((event) => event.event === 'liveRefresh' && live.push(event.data));
    await call(again, 'openWorkspace', { path: file });
    await until(() => verifiedEvents(live).flatMap((event) => event.entries).length >= 2);
    expect(new Set(verifiedEvents(live).flatMap((event) => event.entries.map((read) => read.entry.destination)))).toEqual(
      new Set(['alpha', 'beta']),
    );
    expect(again.workspace().verifies.get('alpha')?.report.status).toBe('intact');
  });
});

describe('live refresh around an apply that is cancelled', () => {
  it('sends nothing about the engine’s own staging folder after a cancelled apply: the verify stays fresh', async () => {
    const { session, live, dir, destination } = await setup({ debounceMs: 80, maxWaitMs: 300, pollIntervalMs: 100, autoVerify: false });
    await runJob(session, 'verify');
    const source = path.join(dir, 'source');
    // Enough files that the staging is still being written when Cancel arrives, once it has begun.
    await writeBundle(source, Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`pages/${i % 30}/page-${i}.html`, `page ${i}`])));
    const planned = await call(session, 'planReplace', { destination: 'alpha', mode: 'force', source });
    // Set once applyPlan answers; the events that come before it are not this job's to act on.
    const running: { job?: string } = {};
    let cancelled = false;
    const ended = new Promise<ApiEvent>((resolve) =>
      session.onEvent((event) => {
        if (
          event.event === 'progress' &&
          !cancelled &&
          event.data.job === running.job &&
          event.data.step?.phase === 'stage' &&
          event.data.step.done > 0
        ) {
          cancelled = true;
          void session.call('cancelJob', { job: running.job });
        }
        if (running.job !== undefined && endsJob(event, running.job)) resolve(event);
      }),
    );
    running.job = (await call(session, 'applyPlan', { planId: planned.planId, confirm: planned.confirmText })).job;
    const end = await ended;
    expect(cancelled).toBe(true);
    expect(end).toMatchObject({ event: 'result', data: { result: { ok: false, error: { code: 'cancelled' }, changed: false } } });
    // A change in beta, made after the apply ended, is reported after any late event about alpha
    // (one inotify queue, delivered in order, each burst settling after the same quiet time).
    await fs.appendFile(path.join(destination('beta'), 'index.html'), '!');
    await until(() => destinationChanges(live).some((change) => change.entry.destination === 'beta'));
    expect(destinationChanges(live).filter((change) => change.entry.destination === 'alpha')).toEqual([]);
    expect(session.workspace().verifies.get('alpha')?.freshness).toEqual({ fresh: true });
  }, 60_000);
});
