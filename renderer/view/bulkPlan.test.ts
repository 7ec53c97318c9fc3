import { describe, expect, it } from 'vitest';
import type { ApplyResult } from '../../shared/plan';
import { countsWords } from '../../shared/planCounts';
import { samplePlan } from '../testing/samplePlan';
import {
  bulkApplyOutcome,
  bulkConfirmLabel,
  bulkOutcomeSentence,
  bulkOutcomeSummary,
  bulkPlanOutcome,
  bulkPlanSentence,
  bulkPlanSummary,
  bulkRepairOutcome,
  DRIFTED_TITLE,
  nothingGroups,
  stoppedRows,
  stopsTheRun,
  unplannedRows,
  type BulkRow,
  TYPED_NOT_IN_BULK,
} from './bulkPlan';

const planned = (id: string, options: Parameters<typeof samplePlan>[0] = {}): BulkRow => {
  const outcome = bulkPlanOutcome({ ok: true, value: { planId: `plan-${id}`, confirmation: 'explicit', plan: samplePlan(options) } });
  return { id, plan: outcome };
};

const result = (patch: Partial<ApplyResult>): ApplyResult => ({
  ok: true,
  mode: 'replace',
  destinationPath: '/w/d',
  changed: true,
  oldTouched: true,
  stateWritten: true,
  stagingLeft: false,
  deleted: ['a'],
  written: ['b'],
  mutations: 4,
  durationMs: 12,
  ...patch,
});

describe('a bulk replace plan, per destination', () => {
  it('refuses in bulk a plan that keeps no backup: its typed id is asked on its own', () => {
    const outcome = bulkPlanOutcome({
      ok: true,
      value: { planId: 'p', confirmation: 'typed_id', confirmText: 'docs-us', plan: samplePlan() },
    });
    expect(outcome).toMatchObject({ kind: 'refused', next: TYPED_NOT_IN_BULK });
  });

  it('reads a plan a normal replace may apply as planned, with its counts', () => {
    const row = planned('docs-us');
    expect(row.plan).toMatchObject({ kind: 'planned', planId: 'plan-docs-us', counts: { created: 2, deleted: 3, updated: 0 } });
  });

  it('reads a plan that changes nothing as nothing to do, with the decision in words and what to do next', () => {
    const plan = { ...samplePlan({ decision: 'skip_newer' }), action: 'nothing' as const };
    const outcome = bulkPlanOutcome({ ok: true, value: { planId: 'p', confirmation: 'explicit', plan } });
    expect(outcome.kind).toBe('nothing');
    expect(outcome).toMatchObject({
      reason: expect.stringContaining('Destination is newer: '),
      next: expect.stringContaining('forced replace'),
    });
  });

  it('reads a plan the decision or the policy forbids, and an API refusal, as refused with the reason', () => {
    expect(
      bulkPlanOutcome({ ok: true, value: { planId: 'p', confirmation: 'explicit', plan: samplePlan({ decision: 'conflict' }) } }),
    ).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('Conflict'),
    });
    expect(
      bulkPlanOutcome({ ok: true, value: { planId: 'p', confirmation: 'explicit', plan: samplePlan({ replaceAllowed: false }) } }),
    ).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('denied by policy'),
    });
    const refused = bulkPlanOutcome({
      ok: false,
      error: { code: 'refused', message: 'a staging folder of an interrupted replace is there' },
    });
    expect(refused).toEqual({ kind: 'refused', reason: 'a staging folder of an interrupted replace is there' });
  });

  it('refuses a plan that does not read as a plan, saying why', () => {
    const outcome = bulkPlanOutcome({
      ok: true,
      value: { planId: 'p', confirmation: 'explicit', plan: { ...samplePlan(), deletes: 'no' } as never },
    });
    expect(outcome).toMatchObject({ kind: 'refused', reason: expect.stringContaining('the plan could not be read') });
  });

  it('adds up the planned counts and counts every answer, and says it in words', () => {
    const rows: BulkRow[] = [
      planned('a'),
      planned('b', { extraDeletes: 4 }),
      { id: 'c', plan: { kind: 'nothing', reason: 'Up to date' } },
      { id: 'd', plan: { kind: 'refused', reason: 'Conflict' } },
      { id: 'e' },
    ];
    const summary = bulkPlanSummary(rows);
    expect(summary).toMatchObject({ destinations: 5, planned: 2, nothing: 1, refused: 1, waiting: 1, changed: 0 });
    expect(countsWords(summary.counts)).toBe('create 4 files, delete 8 files');
    expect(bulkPlanSentence(summary)).toBe('planning 4 of 5, 2 planned, 1 with nothing to do, 1 refused');
    expect(bulkPlanSentence(bulkPlanSummary(rows.slice(0, 2)))).toBe('2 planned');
    expect(bulkConfirmLabel(summary)).toBe('Replace 2 destinations');
    expect(bulkPlanSentence(bulkPlanSummary(unplannedRows(rows)))).toBe(
      '2 planned, 1 with nothing to do, 1 refused, 1 not planned (cancelled)',
    );
  });
});

describe('a bulk replace applied, per destination', () => {
  it('tells replaced, refused with nothing changed, failed part-way and never run apart', () => {
    expect(bulkApplyOutcome({ ok: true, value: result({}) }).kind).toBe('replaced');
    const stale = bulkApplyOutcome({
      ok: true,
      value: result({ ok: false, changed: false, oldTouched: false, stateWritten: false, error: { code: 'stale_plan', message: 'x' } }),
    });
    expect(stale).toMatchObject({
      kind: 'refused',
      reason: 'The destination changed since this plan: nothing was changed; plan it again.',
    });
    const failed = bulkApplyOutcome({
      ok: true,
      value: result({
        ok: false,
        stateWritten: false,
        stagingLeft: true,
        error: { code: 'io_error', message: 'ENOSPC writing index.html' },
      }),
    });
    expect(failed).toMatchObject({ kind: 'failed', reason: 'ENOSPC writing index.html' });
    expect(bulkApplyOutcome({ ok: false, error: { code: 'not_available', message: 'another apply runs' } })).toEqual({
      kind: 'not_run',
      reason: 'another apply runs',
      code: 'not_available',
    });
  });

  it('stops the run only when the connection is lost, never for a refusal or a failure', () => {
    expect(stopsTheRun(bulkApplyOutcome({ ok: false, error: { code: 'connection_lost', message: 'gone' } }))).toBe(true);
    expect(stopsTheRun(bulkApplyOutcome({ ok: false, error: { code: 'not_available', message: 'x' } }))).toBe(false);
    expect(stopsTheRun(bulkApplyOutcome({ ok: true, value: result({ ok: false, changed: true }) }))).toBe(false);
  });

  it('marks the planned rows not yet started as not run on Cancel, leaving the others as they are', () => {
    const rows: BulkRow[] = [
      { ...planned('a'), apply: { kind: 'replaced', result: result({}) } },
      { ...planned('b'), apply: 'applying' },
      { ...planned('c'), apply: 'waiting' },
      { id: 'd', plan: { kind: 'refused', reason: 'Conflict' } },
    ];
    const stopped = stoppedRows(rows, 'Not run: Cancel was pressed before its turn.');
    expect(stopped.map((row) => (typeof row.apply === 'object' ? row.apply.kind : row.apply))).toEqual([
      'replaced',
      'applying',
      'not_run',
      undefined,
    ]);
    const summary = bulkOutcomeSummary(stopped);
    expect(summary).toEqual({ replaced: 1, refused: 0, failed: 0, notRun: 1, pending: 1 });
    expect(bulkOutcomeSentence(summary)).toBe('1 replaced, 1 not run, 1 to go');
  });
});

describe('a bulk repair plan, per destination', () => {
  type Refusal = { path: string; status: 'hash_mismatch'; code: string; message: string };
  const repairPlan = (refused: Refusal[] = [], writes = samplePlan({ mode: 'repair' }).writes) =>
    ({
      ...samplePlan({ mode: 'repair' }),
      writes,
      repair: { driftedCount: writes.length + refused.length, repairs: [], refused, extras: [], interruptedStaging: [] },
    }) as never;

  it('is planned when it rewrites drifted outputs, and says there is nothing to repair when none drifted', () => {
    expect(bulkRepairOutcome({ ok: true, value: { planId: 'p', confirmation: 'explicit', plan: repairPlan() } })).toMatchObject({
      kind: 'planned',
      planId: 'p',
    });
    expect(bulkRepairOutcome({ ok: true, value: { planId: 'p', confirmation: 'explicit', plan: repairPlan([], []) } })).toMatchObject({
      kind: 'nothing',
      title: 'Nothing to repair',
    });
  });

  it('is left out when some outputs cannot be proven: a partial repair is consented to one destination at a time', () => {
    const outcome = bulkRepairOutcome({
      ok: true,
      value: {
        planId: 'p',
        confirmation: 'explicit',
        plan: repairPlan([{ path: 'a.html', status: 'hash_mismatch', code: 'not_proven', message: 'not provable' }]),
      },
    });
    expect(outcome).toMatchObject({ kind: 'refused', next: expect.stringContaining('repair it on its own') });
    expect(outcome.kind === 'refused' && outcome.reason).toContain('a.html');
  });

  it('says a reason many rows share once, grouped by its title, and words a repair run as repaired', () => {
    const nothing = (id: string, title: string): BulkRow => ({
      id,
      plan: { kind: 'nothing', reason: `${id}: long words`, title, next: 'Repair' },
    });
    const groups = nothingGroups([nothing('a', DRIFTED_TITLE), nothing('b', DRIFTED_TITLE), nothing('c', 'Up to date'), { id: 'd' }]);
    expect(groups).toEqual([
      { title: DRIFTED_TITLE, ids: ['a', 'b'], next: 'Repair' },
      { title: 'Up to date', ids: ['c'], next: 'Repair' },
    ]);
    expect(bulkConfirmLabel({ planned: 3 }, 'repair')).toBe('Repair 3 destinations');
    expect(bulkOutcomeSentence({ replaced: 2, refused: 0, failed: 0, notRun: 0, pending: 0 }, 'repair')).toBe('2 repaired');
  });
});
