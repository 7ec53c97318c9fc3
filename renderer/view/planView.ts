// A replace plan as the Actions tab shows it: counts first, then every path, deletions first.
// Pure. Never hides a deletion: every planned delete is listed, whatever the count.

import { replacePlanSchema, type ReplacePlan } from '../../shared/plan';
import { formatBytes, plural } from './format';

export type PlanRead = { ok: true; plan: ReplacePlan } | { ok: false; message: string };

/** The engine's plan is shown, never trusted back; still, a plan we cannot read is said so, not guessed. */
export function readPlan(raw: unknown): PlanRead {
  const parsed = replacePlanSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, plan: parsed.data }
    : { ok: false, message: `the plan could not be read: ${parsed.error.issues[0]?.message ?? 'unknown shape'}` };
}

export interface PlanLine {
  op: 'delete' | 'write';
  path: string;
  detail: string;
}

export function planLines(plan: ReplacePlan): PlanLine[] {
  const deletes = plan.deletes.map((entry): PlanLine => ({
    op: 'delete',
    path: entry.path,
    detail: entry.type === 'file' ? formatBytes(entry.size) : entry.type,
  }));
  const writes = plan.writes.map((entry): PlanLine => ({
    op: 'write',
    path: entry.path,
    detail: `${formatBytes(entry.size)} · ${entry.kind}`,
  }));
  return [...deletes, ...writes];
}

/** "Delete 5 files and write 4": the words of the one confirm button. */
export function confirmLabel(plan: ReplacePlan): string {
  const { deleteCount, writeCount } = plan.summary;
  const verb = plan.mode === 'force' ? 'Force replace: delete' : 'Replace: delete';
  return `${verb} ${plural(deleteCount, 'path')} and write ${plural(writeCount, 'file')}`;
}

export function planSummary(plan: ReplacePlan): string {
  const { deleteCount, writeCount, deleteBytes, writeBytes } = plan.summary;
  return `${plural(deleteCount, 'delete')} (${formatBytes(deleteBytes)}) · ${plural(writeCount, 'write')} (${formatBytes(writeBytes)})`;
}

/** Whether applying could change anything: skip and skip_newer plan nothing. */
export function planDoesSomething(plan: ReplacePlan): boolean {
  return plan.action === 'replace';
}
