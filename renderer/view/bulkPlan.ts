// A replace (or a repair) planned for several destinations at once: each planned on its own against its
// configured source, and read here as one of three answers (planned with its counts, nothing to do, refused with
// the reason), then applied one after another, each with its own outcome. Pure: no DOM, no API.
// Never offers a forced replace: a destination that needs one is planned and confirmed on its own
// (its Actions tab, the destination id typed), so a bulk confirmation can never delete an extra file.

import type { ApiError, ApiResult, ResponseOf } from '../../shared/api';
import { repairRefusedText, type ApplyResult, type ReplacePlan } from '../../shared/plan';
import { addCounts, emptyCounts, planCounts, type ChangeCounts } from '../../shared/planCounts';
import { planKindOf } from '../../shared/planKinds';
import { bulkModeOf, type BulkMode } from './bulkModes';
import { plural } from './format';
import { readPlan } from './planView';

export type BulkPlanOutcome =
  | { kind: 'planned'; planId: string; plan: ReplacePlan; counts: ChangeCounts }
  /** `title`: the decision's short words, by which the panel says a reason shared by many rows once. */
  | { kind: 'nothing'; reason: string; next?: string; title?: string }
  | { kind: 'refused'; reason: string; next?: string }
  /** Cancel was pressed before its turn to be planned. */
  | { kind: 'not_planned'; reason: string };

export type BulkApplyOutcome =
  | { kind: 'replaced'; result: ApplyResult }
  /** The engine refused it before it changed anything (a stale plan, say): the destination is as it was. */
  | { kind: 'refused'; reason: string; result: ApplyResult }
  /** It stopped part-way: what it left is in the result's facts. */
  | { kind: 'failed'; reason: string; result: ApplyResult }
  /** It never ran: the API said why (cancelled, the connection lost), or the run was stopped before it. */
  | { kind: 'not_run'; reason: string; code?: string };

export interface BulkRow {
  id: string;
  /** Undefined while it waits to be planned. */
  plan?: BulkPlanOutcome;
  /** `waiting` until its turn, `applying` while it runs. */
  apply?: 'waiting' | 'applying' | BulkApplyOutcome;
}

export type BulkPhase = 'planning' | 'planned' | 'applying' | 'done';

export interface BulkRun {
  mode: BulkMode;
  /** The destinations, in the order they are planned and applied. */
  ids: readonly string[];
  phase: BulkPhase;
  rows: readonly BulkRow[];
  /** Cancel was asked: nothing more starts; the one running finishes (its own Cancel is in the status bar). */
  stopping: boolean;
}

export const NO_SOURCE_REASON =
  'The workspace configures no source for this destination: plan it on its own, from a bundle chosen in its Actions tab.';

export const FORCE_NOT_IN_BULK =
  'A forced replace is not offered for several destinations at once: one that needs it (unmanaged, conflicting, rolled back on purpose) is planned and confirmed on its own, in its Actions tab, with its id typed.';

export const TYPED_NOT_IN_BULK =
  'Backups are off for it, so its apply asks for its destination id typed (docs/confirmations.md): replace it on its own, in its Actions tab.';

/** What one destination's planReplace answered, as a bulk plan reads it. */
export function bulkPlanOutcome(answer: ApiResult<ResponseOf<'planReplace'>>): BulkPlanOutcome {
  if (!answer.ok) return { kind: 'refused', reason: answer.error.message };
  const read = readPlan(answer.value.plan);
  if (!read.ok) return { kind: 'refused', reason: read.error };
  const plan = read.value;
  const words = plan.comparison?.explanation;
  const reason = words ? `${words.title}: ${words.sentence}` : 'The engine gave no decision for this plan.';
  const next = words?.next !== undefined ? { next: words.next } : {};
  if (plan.action !== 'replace') return { kind: 'nothing', reason, ...next, ...(words ? { title: words.title } : {}) };
  if (!words?.normalReplaceAllowed) return { kind: 'refused', reason, ...next };
  // One confirmation of many stands only for applies that are backed up: the others are asked one by one.
  if (answer.value.confirmation === 'typed_id') return { kind: 'refused', reason: 'It would keep no backup.', next: TYPED_NOT_IN_BULK };
  return { kind: 'planned', planId: answer.value.planId, plan, counts: planCounts(plan) };
}

/** The comparison title of a replace that has nothing to do because the outputs drifted: Repair is what helps. */
export const DRIFTED_TITLE = 'Manifest matches, outputs drifted';

export const PARTIAL_NOT_IN_BULK =
  'Some drifted outputs cannot be proven from the source: repair it on its own (its Actions tab), where repairing only the others can be accepted.';

/** What one destination's planRepair answered, as a bulk repair reads it: planned, nothing to repair, or refused. */
export function bulkRepairOutcome(answer: ApiResult<ResponseOf<'planRepair'>>): BulkPlanOutcome {
  if (!answer.ok) return { kind: 'refused', reason: answer.error.message };
  const read = readPlan(answer.value.plan);
  if (!read.ok) return { kind: 'refused', reason: read.error };
  const plan = read.value;
  const refused = plan.repair?.refused ?? [];
  // A partial repair needs its own consent (acceptPartial): never given for many at once.
  if (refused.length > 0) return { kind: 'refused', reason: `${repairRefusedText(plan)}.`, next: PARTIAL_NOT_IN_BULK };
  if (plan.writes.length === 0)
    return { kind: 'nothing', reason: 'Every recorded output matches its record: nothing to repair.', title: 'Nothing to repair' };
  if (answer.value.confirmation === 'typed_id') return { kind: 'refused', reason: 'It would keep no backup.', next: TYPED_NOT_IN_BULK };
  return { kind: 'planned', planId: answer.value.planId, plan, counts: planCounts(plan) };
}

/** Rows with nothing to do, grouped by the decision's title: a reason shared by many is said once. */
export function nothingGroups(rows: readonly BulkRow[]): { title: string; ids: string[]; next?: string }[] {
  const groups = new Map<string, { title: string; ids: string[]; next?: string }>();
  for (const row of rows) {
    if (row.plan?.kind !== 'nothing' || row.plan.title === undefined) continue;
    const group = groups.get(row.plan.title) ?? { title: row.plan.title, ids: [], ...(row.plan.next ? { next: row.plan.next } : {}) };
    group.ids.push(row.id);
    groups.set(row.plan.title, group);
  }
  return [...groups.values()];
}

/** What one apply ended as: replaced, refused with nothing changed, failed part-way, or never run. */
export function bulkApplyOutcome(answer: ApiResult<ApplyResult>): BulkApplyOutcome {
  if (!answer.ok) return { kind: 'not_run', reason: notRunReason(answer.error), code: answer.error.code };
  const result = answer.value;
  if (result.ok) return { kind: 'replaced', result };
  const reason =
    result.error?.code === 'stale_plan'
      ? 'The destination changed since this plan: nothing was changed; plan it again.'
      : (result.error?.message ?? 'The engine gave no reason.');
  return result.changed ? { kind: 'failed', reason, result } : { kind: 'refused', reason, result };
}

function notRunReason(error: ApiError): string {
  if (error.code === 'cancelled') return 'Cancelled: the replace stopped; the destination was read again.';
  if (error.code === 'connection_lost') return 'The connection to the inspector was lost while it ran: outcome unknown, re-inspect.';
  return error.message;
}

/** Whether the run should stop before the next destination: asked to, or the link to the engine is gone. */
export function stopsTheRun(outcome: BulkApplyOutcome): boolean {
  return outcome.kind === 'not_run' && outcome.code === 'connection_lost';
}

export interface BulkPlanSummary {
  destinations: number;
  planned: number;
  nothing: number;
  refused: number;
  notPlanned: number;
  /** Still to be planned. */
  waiting: number;
  /** The planned ones' counts, added up (shared/planCounts.ts). */
  counts: ChangeCounts;
  /** Recorded outputs edited on disk that the planned replaces delete (editsLost). */
  changed: number;
}

/**
 * The recorded outputs edited on disk that this plan deletes, edits and all: none for a kind that
 * keeps the state (a repair rewrites exactly those, from a backup-kept copy: that is its job).
 */
export function editsLost(plan: Pick<ReplacePlan, 'mode' | 'summary'>): number {
  return planKindOf(plan.mode).keepsState ? 0 : plan.summary.changedCount;
}

export function bulkPlanSummary(rows: readonly BulkRow[]): BulkPlanSummary {
  const summary: BulkPlanSummary = {
    destinations: rows.length,
    planned: 0,
    nothing: 0,
    refused: 0,
    notPlanned: 0,
    waiting: 0,
    counts: emptyCounts(),
    changed: 0,
  };
  const planned: ChangeCounts[] = [];
  for (const row of rows) {
    if (!row.plan) summary.waiting += 1;
    else if (row.plan.kind === 'planned') {
      summary.planned += 1;
      planned.push(row.plan.counts);
      summary.changed += editsLost(row.plan.plan);
    } else if (row.plan.kind === 'not_planned') summary.notPlanned += 1;
    else summary[row.plan.kind] += 1;
  }
  summary.counts = addCounts(planned);
  return summary;
}

/** "3 planned, 1 with nothing to do, 1 refused" (parts with none left out; "planning 2 of 5" while it runs). */
export function bulkPlanSentence(summary: BulkPlanSummary): string {
  const parts = [
    summary.planned > 0 ? `${summary.planned.toLocaleString('en-US')} planned` : '',
    summary.nothing > 0 ? `${summary.nothing.toLocaleString('en-US')} with nothing to do` : '',
    summary.refused > 0 ? `${summary.refused.toLocaleString('en-US')} refused` : '',
    summary.notPlanned > 0 ? `${summary.notPlanned.toLocaleString('en-US')} not planned (cancelled)` : '',
  ].filter(Boolean);
  const planned = summary.destinations - summary.waiting;
  if (summary.waiting > 0) parts.unshift(`planning ${planned.toLocaleString('en-US')} of ${summary.destinations.toLocaleString('en-US')}`);
  return parts.length > 0 ? parts.join(', ') : 'nothing planned';
}

export interface BulkOutcomeSummary {
  replaced: number;
  refused: number;
  failed: number;
  notRun: number;
  /** Planned, still waiting for its turn, or running. */
  pending: number;
}

export function bulkOutcomeSummary(rows: readonly BulkRow[]): BulkOutcomeSummary {
  const summary: BulkOutcomeSummary = { replaced: 0, refused: 0, failed: 0, notRun: 0, pending: 0 };
  for (const row of rows) {
    if (row.plan?.kind !== 'planned') continue;
    const apply = row.apply;
    if (apply === undefined || apply === 'waiting' || apply === 'applying') summary.pending += 1;
    else if (apply.kind === 'replaced') summary.replaced += 1;
    else if (apply.kind === 'not_run') summary.notRun += 1;
    else summary[apply.kind] += 1;
  }
  return summary;
}

/** "2 replaced, 1 refused, 1 not run" (parts with none left out); "2 repaired, …" for a repair. */
export function bulkOutcomeSentence(summary: BulkOutcomeSummary, mode: BulkMode = 'replace'): string {
  const parts = [
    summary.replaced > 0 ? `${summary.replaced.toLocaleString('en-US')} ${bulkModeOf(mode).done}` : '',
    summary.refused > 0 ? `${summary.refused.toLocaleString('en-US')} refused` : '',
    summary.failed > 0 ? `${summary.failed.toLocaleString('en-US')} failed` : '',
    summary.notRun > 0 ? `${summary.notRun.toLocaleString('en-US')} not run` : '',
    summary.pending > 0 ? `${summary.pending.toLocaleString('en-US')} to go` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'nothing applied';
}

/** The confirm button's words: "Replace 3 destinations", "Repair 3 destinations". */
export function bulkConfirmLabel(summary: Pick<BulkPlanSummary, 'planned'>, mode: BulkMode = 'replace'): string {
  return `${bulkModeOf(mode).title} ${plural(summary.planned, 'destination')}`;
}

/** The run after Cancel: the planned rows not yet started are marked as not run; the one running finishes. */
export function stoppedRows(rows: readonly BulkRow[], reason: string): BulkRow[] {
  return rows.map((row) =>
    row.plan?.kind === 'planned' && (row.apply === undefined || row.apply === 'waiting')
      ? { ...row, apply: { kind: 'not_run', reason } }
      : row,
  );
}

/** The rows after Cancel while planning: those not planned yet say so. */
export function unplannedRows(rows: readonly BulkRow[]): BulkRow[] {
  return rows.map((row) =>
    row.plan ? row : { ...row, plan: { kind: 'not_planned', reason: 'Not planned: Cancel was pressed before its turn.' } },
  );
}

/** Rows with one changed. */
export function withRow(rows: readonly BulkRow[], id: string, patch: Partial<BulkRow>): BulkRow[] {
  return rows.map((row) => (row.id === id ? { ...row, ...patch } : row));
}
