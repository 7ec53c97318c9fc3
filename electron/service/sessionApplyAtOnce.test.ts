// A plan applied at once (replace --yes) through the Session: the bytes planning verified are the bytes
// staged, so each source file is read once; a plan applied later reads its source again and refuses a
// change. And an apply whose caller shows only its result (reportAfter false) reads nothing back.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import { Session } from './session';
import { callOk, jobEnd, jobItems } from '../testing/sessionCalls';
import { makeFixtureWorkspace, type FixtureWorkspace } from '../testing/sessionFixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const STYLE = 'body { color: black; }\n';
// The same size, other bytes: only a hash tells them apart.
const TAMPERED = 'body { color: white; }\n';

async function setup() {
  const fixture: FixtureWorkspace = await makeFixtureWorkspace();
  const session = new Session({ transport: 'cli', progressIntervalMs: 0 });
  const events: ApiEvent[] = [];
  session.onEvent((event) => events.push(event));
  cleanups.push(async () => {
    await session.close();
    await fixture.remove();
  });
  await callOk(session, 'openWorkspace', { path: fixture.workspace });
  const plan = (applyAtOnce?: boolean) =>
    callOk(session, 'planReplace', {
      destination: 'site-a',
      mode: 'replace',
      source: fixture.source,
      ...(applyAtOnce ? { applyAtOnce } : {}),
    });
  const apply = async (planId: string, reportAfter?: boolean) => {
    const { job } = await callOk(session, 'applyPlan', { confirmed: true, planId, ...(reportAfter !== undefined ? { reportAfter } : {}) });
    const ended = await jobEnd(session, job, events);
    if (ended.event !== 'result') throw new Error(`the apply job ended with ${ended.event}`);
    const items = jobItems(events, job);
    return { result: (ended.data as { result: { ok: boolean; error?: { code: string; message: string } } }).result, items };
  };
  const tamper = () => fs.writeFile(path.join(fixture.source, 'style.css'), TAMPERED);
  const published = () => fs.readFile(path.join(fixture.workspace, 'site-a', 'style.css'), 'utf8');
  return { session, plan, apply, tamper, published };
}

describe('Session: a plan applied at once', () => {
  it('stages the bytes its plan verified, without reading the source again', async () => {
    const { plan, apply, tamper, published } = await setup();
    const planned = await plan(true);
    // Read again, this source would fail the apply: the bytes staged are the plan's own.
    await tamper();
    const { result } = await apply(planned.planId);
    expect(result.error).toBeUndefined();
    expect(await published()).toBe(STYLE);
  });

  it('refuses the apply of a plan made without it when the source changed since, naming the file', async () => {
    const { plan, apply, tamper, published } = await setup();
    const planned = await plan();
    await tamper();
    const { result } = await apply(planned.planId);
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('source_changed');
    expect(result.error?.message).toContain(path.join('site-a', 'style.css'));
    expect(result.error?.message).toContain('the source is not what the plan expects: plan again');
    expect(await published()).toBe(STYLE);
  });

  it('holds the verified bytes of the newest such plan only: an older one reads its source again', async () => {
    const { plan, apply, tamper } = await setup();
    const older = await plan(true);
    await plan(true);
    await tamper();
    const { result } = await apply(older.planId);
    expect(result.error?.code).toBe('source_changed');
  });
});

describe('Session: an apply whose caller shows only its result', () => {
  it('sends the destination as it is after the apply by default, and nothing with reportAfter false', async () => {
    const { plan, apply } = await setup();
    const reported = await apply((await plan()).planId);
    expect(reported.result.ok).toBe(true);
    expect(reported.items).toHaveLength(1);
    const quiet = await apply((await plan()).planId, false);
    expect(quiet.result.ok).toBe(true);
    expect(quiet.items).toEqual([]);
  });
});
