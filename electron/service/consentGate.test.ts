// The one consent gate: each refusal in its order, from the plan's facts alone, and each entry point
// (a local plan, a local restore, a plan kept for a host) refusing a missing typed id through it with
// the same code and details.

import { afterEach, describe, expect, it } from 'vitest';
import type { ReplacePlan } from '../../shared/plan';
import { consentRefusal, type GatedPlan } from './consentGate';
import { Session } from './session';
import { callOk, jobEnd } from '../testing/sessionCalls';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { recoveryWorkspace } from '../testing/recoveryFixtures';
import { hostStandIn } from '../testing/hostStandIn';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Facts = Pick<ReplacePlan, 'mode' | 'destinationPath' | 'nestedDestinations' | 'repair' | 'writes'>;
const planOf = (facts: Partial<Facts>): Facts => ({ mode: 'replace', destinationPath: '/d', nestedDestinations: [], writes: [], ...facts });
const apply = (
  facts: Partial<Facts>,
  extra: { confirmText?: string; host?: string; busy?: boolean; confirmation?: GatedPlan['confirmation'] } = {},
): GatedPlan => ({
  plan: planOf(facts),
  busy: false,
  confirmation: extra.confirmText !== undefined ? 'typed_id' : 'explicit',
  ...extra,
});
const refused = [{ path: 'a.html', reason: 'source_changed' }] as unknown as NonNullable<ReplacePlan['repair']>['refused'];
const partialRepair = {
  mode: 'repair' as const,
  repair: { refused, extras: [] } as unknown as ReplacePlan['repair'],
  writes: [{}] as ReplacePlan['writes'],
};

describe('the consent gate', () => {
  it('refuses a backed-up replace until it is confirmed once, then lets it through', () => {
    expect(consentRefusal(apply({}), {})?.error).toEqual({
      code: 'confirmation_required',
      message: 'a replace changes files in /d: confirm it (confirmed) after showing the counts to the operator',
      details: { confirmation: 'explicit' },
    });
    expect(consentRefusal(apply({}), { confirmed: false })?.error.code).toBe('confirmation_required');
    expect(consentRefusal(apply({}), { confirmed: true })).toBeUndefined();
  });

  it('refuses a repair or a replace that keeps no backup until the destination id is typed; a bare confirmation is not enough', () => {
    for (const mode of ['repair', 'replace', 'discard_staging'] as const) {
      const unbacked = apply({ mode }, { confirmText: 'site' });
      expect(consentRefusal(unbacked, { confirmed: true })?.error).toMatchObject({
        code: 'confirmation_required',
        message: expect.stringContaining('keeps no backup of what it removes in /d: type the destination id "site"'),
        details: { confirmation: 'typed_id', expected: 'site' },
      });
      expect(consentRefusal(unbacked, { confirm: 'site' })).toBeUndefined();
    }
  });

  it('lets a confirmed replace through, and refuses it while another apply runs', () => {
    expect(consentRefusal(apply({}), { confirmed: true })).toBeUndefined();
    expect(consentRefusal(apply({}, { busy: true }), { confirmed: true })?.error).toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/^another replace is running/),
    });
  });

  it('refuses a forced replace until its destination id is typed, naming the id and the host', () => {
    const forced = apply({ mode: 'force' }, { confirmText: 'web-1:site', host: 'web-1' });
    for (const confirm of [undefined, 'site', 'web-2:site'])
      expect(consentRefusal(forced, { confirm })?.error).toEqual({
        code: 'confirmation_required',
        message: 'a forced replace deletes everything in /d on host web-1: type the destination id "web-1:site" to confirm',
        details: { confirmation: 'typed_id', expected: 'web-1:site', host: 'web-1' },
      });
    expect(consentRefusal(forced, { confirmed: true })?.error.code).toBe('confirmation_required');
    expect(consentRefusal(forced, { confirm: 'web-1:site' })).toBeUndefined();
  });

  it('asks the nested acknowledgement before the typed id, and that before one apply at a time', () => {
    const forced = apply({ mode: 'force', nestedDestinations: ['inner'] }, { confirmText: 'site', busy: true });
    expect(consentRefusal(forced, {})?.error).toMatchObject({
      code: 'confirmation_required',
      message: expect.stringContaining('would also delete 1 other managed destination inside it (inner): acknowledge them (includeNested)'),
      details: { nestedDestinations: ['inner'] },
    });
    expect(consentRefusal(forced, { includeNested: true })?.error.details).toEqual({ confirmation: 'typed_id', expected: 'site' });
    expect(consentRefusal(forced, { confirm: 'site', includeNested: true })?.error.code).toBe('refused');
  });

  it('refuses a repair that leaves some outputs until the partial repair is accepted', () => {
    const repair = apply(partialRepair);
    expect(consentRefusal(repair, {})?.error).toEqual({
      code: 'confirmation_required',
      message: '1 output cannot be repaired (a.html) in /d: accept the partial repair (acceptPartial) to repair the other 1',
      details: { refused: ['a.html'] },
    });
    expect(consentRefusal(repair, { acceptPartial: true })?.error.details).toEqual({ confirmation: 'explicit' });
    expect(consentRefusal(repair, { acceptPartial: true, confirmed: true })).toBeUndefined();
    // The same facts under another kind are not a partial repair: the kind's table says which may be partial.
    expect(consentRefusal(apply({ ...partialRepair, mode: 'replace' }), { confirmed: true })).toBeUndefined();
  });

  it('refuses a repair whose kept outputs are not the selection reviewed, before any other question', () => {
    const kept = [{ path: 'b.html', status: 'hash_mismatch', origin: 'source_file' }];
    const repair = apply({ ...partialRepair, repair: { ...partialRepair.repair!, kept } as ReplacePlan['repair'] }, { host: 'web-1' });
    for (const keep of [undefined, [], ['a.html'], ['b.html', 'a.html']])
      expect(consentRefusal(repair, { keep, acceptPartial: true })?.error).toMatchObject({
        code: 'refused',
        message: expect.stringContaining('/d on host web-1 keeps 1 output as it is (b.html), but the selection reviewed keeps'),
        details: { selection: { planned: ['b.html'] }, host: 'web-1' },
      });
    expect(consentRefusal(repair, { keep: ['b.html'] })?.error.details).toMatchObject({ refused: ['a.html'] });
    expect(consentRefusal(repair, { keep: ['b.html', 'b.html'], acceptPartial: true, confirmed: true })).toBeUndefined();
    // A repair that keeps nothing needs no selection; one given anyway is not the plan's.
    expect(consentRefusal(apply(partialRepair), { acceptPartial: true, confirmed: true })).toBeUndefined();
    expect(consentRefusal(apply(partialRepair), { keep: ['a.html'], acceptPartial: true })?.error.code).toBe('refused');
  });

  it('refuses a restore until the destination id is typed, then while another apply runs', () => {
    const restore: GatedPlan = {
      plan: { backupId: 'B1', destinationPath: '/d' },
      confirmation: 'typed_id',
      confirmText: 'site',
      busy: true,
    };
    expect(consentRefusal(restore, {})?.error).toEqual({
      code: 'confirmation_required',
      message: 'a restore removes what the apply of backup B1 wrote in /d: type the destination id "site" to confirm',
      details: { confirmation: 'typed_id', expected: 'site' },
    });
    expect(consentRefusal(restore, { confirmed: true })?.error.code).toBe('confirmation_required');
    expect(consentRefusal(restore, { confirm: 'site' })?.error).toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/^another replace or restore is running/),
    });
    expect(consentRefusal({ ...restore, busy: false }, { confirm: 'site' })).toBeUndefined();
  });
});

describe('every apply passes the gate', () => {
  async function local() {
    const root = await makeTempDir('consent-gate-');
    const fixture = await recoveryWorkspace(root);
    const session = new Session({ transport: 'http', liveRefresh: false, progressIntervalMs: 0 });
    cleanups.push(async () => {
      await session.close();
      await removeTempDir(root);
    });
    await callOk(session, 'openWorkspace', { path: fixture.workspaceFile });
    return session;
  }
  const missingId = (expected: string, host?: string) => ({
    ok: false,
    error: { code: 'confirmation_required', details: { expected, ...(host !== undefined ? { host } : {}) } },
  });

  it('a local forced replace and a local restore refuse a missing typed id alike', async () => {
    const session = await local();
    const forced = await callOk(session, 'planReplace', { destination: 'archive', mode: 'force' });
    expect(forced.confirmText).toBe('archive');
    expect(await session.call('applyPlan', { planId: forced.planId })).toMatchObject(missingId('archive'));
    const { job } = await callOk(session, 'applyPlan', { planId: forced.planId, confirm: 'archive' });
    expect(await jobEnd(session, job)).toMatchObject({ event: 'result', data: { result: { ok: true } } });
    const [backup] = (await callOk(session, 'listBackups', { destination: 'archive' })).backups;
    const restore = await callOk(session, 'planRestore', { destination: 'archive', backup: backup!.id });
    expect(await session.call('applyPlan', { planId: restore.planId })).toMatchObject(missingId('archive'));
  });

  it('a local repair is offered at the explicit level and refused by the API without its confirmation', async () => {
    const session = await local();
    const repair = await callOk(session, 'planRepair', { destination: 'archive' });
    expect(repair).toMatchObject({ confirmation: 'explicit' });
    expect(repair.confirmText).toBeUndefined();
    expect(await session.call('applyPlan', { planId: repair.planId })).toMatchObject({
      ok: false,
      error: { code: 'confirmation_required', details: { confirmation: 'explicit' } },
    });
  });

  it('a forced replace on a host refuses a missing typed id alike, naming the host, before anything is sent', async () => {
    const { session, sent } = await hostStandIn(cleanups);
    const forced = await callOk(session, 'planReplace', { destination: 'web-1:archive', mode: 'force' });
    const before = sent.length;
    expect(await session.call('applyPlan', { planId: forced.planId })).toMatchObject(missingId('web-1:archive', 'web-1'));
    expect(sent.length).toBe(before);
  });
});
