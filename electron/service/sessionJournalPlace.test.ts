// The history journal never lives inside a destination, also through a link swapped in after the
// workspace was loaded: a forced replace of the destination holding it is refused when planned (as
// one holding the workspace file is), and an apply planned before the link appeared is refused when
// it runs, the journal and the destination as they were.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WORKSPACE_FILE_NAME } from '../../shared/workspaceSchema';
import { callOk, jobEnd } from '../testing/sessionCalls';
import { makeTempDir, removeTempDir, snapshotTree } from '../testing/fixtures';
import { recoveryWorkspace } from '../testing/recoveryFixtures';
import { Session } from './session';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const ID = 'archive';

/** A workspace whose journal is `hist/journal.jsonl`, with one forced replace of `archive` recorded in it. */
async function setup() {
  const root = await makeTempDir('session-journal-');
  const fixture = await recoveryWorkspace(root);
  const workspace = JSON.parse(await fs.readFile(fixture.workspaceFile, 'utf8'));
  await fs.writeFile(path.join(root, WORKSPACE_FILE_NAME), JSON.stringify({ ...workspace, history: 'hist/journal.jsonl' }));
  await fs.mkdir(path.join(root, 'hist'));
  const session = new Session({ transport: 'http', progressIntervalMs: 0 });
  cleanups.push(async () => {
    await session.close();
    await removeTempDir(root);
  });
  await callOk(session, 'openWorkspace', { path: fixture.workspaceFile });
  const first = await callOk(session, 'planReplace', { destination: ID, mode: 'force' });
  const { job } = await callOk(session, 'applyPlan', { confirmed: true, planId: first.planId, confirm: first.confirmText ?? ID });
  expect(await jobEnd(session, job)).toMatchObject({ data: { result: { ok: true } } });
  expect((await callOk(session, 'history', {})).records).toHaveLength(1);
  return { root, dest: fixture.dest, session };
}

/** The layout: the journal moved into the destination's `logs/`, and `hist` a link to it. */
async function linkJournalIntoDestination(root: string, dest: string): Promise<string> {
  const logs = path.join(dest, 'logs');
  await fs.mkdir(logs);
  await fs.rename(path.join(root, 'hist', 'journal.jsonl'), path.join(logs, 'journal.jsonl'));
  await fs.rmdir(path.join(root, 'hist'));
  await fs.symlink(logs, path.join(root, 'hist'));
  return path.join(logs, 'journal.jsonl');
}

describe('a journal inside a destination through a link', () => {
  it('is refused when a forced replace of that destination is planned, naming the journal', async () => {
    const { root, dest, session } = await setup();
    const journal = await linkJournalIntoDestination(root, dest);
    const refused = await session.call('planReplace', { destination: ID, mode: 'force' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'refused', details: { refusal: { code: 'destination_contains_protected' } } },
    });
    expect(!refused.ok && refused.error.message).toContain('(the history journal)');
    expect((await fs.readFile(journal, 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  it('stops an apply planned before the link appeared, before anything changes: the record stays', async () => {
    const { root, dest, session } = await setup();
    const planned = await callOk(session, 'planReplace', { destination: ID, mode: 'force' });
    const journal = await linkJournalIntoDestination(root, dest);
    const before = await snapshotTree(dest);
    const { job } = await callOk(session, 'applyPlan', { confirmed: true, planId: planned.planId, confirm: planned.confirmText ?? ID });
    expect(await jobEnd(session, job)).toMatchObject({
      data: { result: { ok: false, changed: false, error: { code: 'history_inside_destination' } } },
    });
    expect(await snapshotTree(dest)).toBe(before);
    expect((await fs.readFile(journal, 'utf8')).trim().split('\n')).toHaveLength(1);
  });
});
