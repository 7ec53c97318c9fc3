import { mkdirSync, promises as fs, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import { WORKSPACE_FILE_NAME } from '../../shared/workspaceSchema';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { writeBundle } from '../testing/fixtures';
import { Session } from './session';
import { okValue as value, callOk as call } from '../testing/sessionCalls';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup() {
  const { dir, remove } = await makeTempDir('session-reload');
  const session = new Session({ transport: 'http', progressIntervalMs: 0 });
  cleanups.push(async () => {
    await session.close();
    await remove();
  });
  for (const name of ['alpha', 'beta', 'gamma']) writeManagedDestination(path.join(dir, 'destinations', name), { 'index.html': name });
  const file = path.join(dir, WORKSPACE_FILE_NAME);
  const write = (destinations: unknown) => writeFileSync(file, JSON.stringify({ schema_version: 1, destinations }));
  const entry = (name: string, extra: Record<string, unknown> = {}) => ({ path: `destinations/${name}`, destination_id: name, ...extra });
  return { dir, file, session, write, entry };
}

async function runJob(session: Session, method: 'scan' | 'verify'): Promise<ApiEvent> {
  const events: ApiEvent[] = [];
  const ended = new Promise<ApiEvent>((resolve) =>
    session.onEvent((event) => {
      events.push(event);
      if (event.event === 'result' || event.event === 'error') resolve(event);
    }),
  );
  value(await session.call(method, {}));
  return ended;
}

describe('reloading the open workspace', () => {
  it('adds and removes the destinations the workspace file now lists, and keeps the results of the others', async () => {
    const { file, session, write, entry } = await setup();
    write([entry('alpha'), entry('beta')]);
    await call(session, 'openWorkspace', { path: file });
    await runJob(session, 'verify');
    expect([...session.workspace().verifies.keys()].sort()).toEqual(['alpha', 'beta']);

    write([entry('alpha'), entry('gamma')]);
    const reloaded = await call(session, 'reloadWorkspace', {});
    expect(reloaded.changes).toEqual({ added: ['gamma'], removed: ['beta'], changed: [] });
    expect(reloaded.workspace.destinations.map((destination) => destination.id)).toEqual(['alpha', 'gamma']);
    expect(reloaded.workspace.reloadProblem).toBeUndefined();
    // The list the session resolves ids against follows the file: gamma is known, beta is not.
    expect(session.destination('gamma').path).toMatch(/gamma$/);
    expect(await session.call('inspectDestination', { destination: 'beta' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect([...session.workspace().verifies.keys()]).toEqual(['alpha']);
  });

  it('counts a destination whose configuration changed as changed, drops its results and its plans', async () => {
    const { file, session, write, entry } = await setup();
    write([entry('alpha')]);
    await call(session, 'openWorkspace', { path: file });
    await runJob(session, 'verify');
    const source = path.join(path.dirname(file), 'source');
    await writeBundle(source, { 'index.html': 'new' });
    const { planId } = await call(session, 'planReplace', { destination: 'alpha', mode: 'force', source });
    write([entry('alpha', { replace_policy: 'deny' })]);
    const reloaded = await call(session, 'reloadWorkspace', {});
    expect(reloaded.changes).toEqual({ added: [], removed: [], changed: ['alpha'] });
    expect(session.destination('alpha').replacePolicy).toBe('deny');
    expect(session.workspace().verifies.size).toBe(0);
    expect(await session.call('applyPlan', { confirmed: true, planId, confirm: 'alpha' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('keeps the last good list, marked with the file and the field, when the workspace file became invalid', async () => {
    const { file, session, write, entry } = await setup();
    write([entry('alpha'), entry('beta')]);
    const opened = await call(session, 'openWorkspace', { path: file });
    await runJob(session, 'scan');
    await fs.writeFile(file, JSON.stringify({ destinations: [{ path: 42 }] }));
    const reloaded = await call(session, 'reloadWorkspace', {});
    expect(reloaded.changes).toEqual({ added: [], removed: [], changed: [] });
    expect(reloaded.workspace.destinations).toEqual(opened.destinations);
    expect(reloaded.workspace.listReadAt).toBe(opened.listReadAt);
    expect(reloaded.workspace.reloadProblem).toMatchObject({ file, message: expect.stringContaining(`${file}: destinations[0].path:`) });
    expect(reloaded.workspace.reloadProblem!.issues.map((issue) => issue.path)).toEqual([['destinations', 0, 'path']]);
    expect(session.workspace().scans.size).toBe(2);
    // appInfo (a reconnecting page) sees the same mark.
    expect((await call(session, 'appInfo', {})).workspace?.reloadProblem?.file).toBe(file);

    write([entry('alpha')]);
    const fixed = await call(session, 'reloadWorkspace', {});
    expect(fixed.workspace.reloadProblem).toBeUndefined();
    expect(fixed.changes.removed).toEqual(['beta']);
  });

  it('re-reads a folder workspace: a new subfolder is a new destination', async () => {
    const { dir, session } = await setup();
    const folder = path.join(dir, 'destinations');
    await call(session, 'openWorkspace', { path: folder });
    mkdirSync(path.join(folder, 'delta'));
    const reloaded = await call(session, 'reloadWorkspace', {});
    expect(reloaded.changes.added).toEqual(['delta']);
    expect(reloaded.workspace.kind).toBe('folder');
  });

  it('opens a folder that holds a workspace file as that file, and says so', async () => {
    const { dir, file, session, write, entry } = await setup();
    write([entry('alpha')]);
    const opened = await call(session, 'openWorkspace', { path: dir });
    expect(opened).toMatchObject({ kind: 'file', path: file, root: dir });
    expect(opened.destinations.map((destination) => destination.id)).toEqual(['alpha']);
  });
});
