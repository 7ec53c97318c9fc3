// A replace plan as the Actions tab shows it: the words around its rows (shared/planRows.ts), the confirm
// button's label, the warnings. Pure.

import { replacePlanSchema, type ReplacePlan } from '../../shared/plan';
import type { Result } from '../../shared/result';
import { formatTimestamp, plural } from './format';
import { countsBytesWords, countsWords, keptWords, planCounts, planCountsSentence } from '../../shared/planCounts';
import { planKindOf } from '../../shared/planKinds';

/** The plan, or why it cannot be read (a sentence). */
export type PlanRead = Result<ReplacePlan, string>;

/** The engine's plan is shown, never trusted back; still, a plan we cannot read is said so, not guessed. */
export function readPlan(raw: unknown): PlanRead {
  const parsed = replacePlanSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: `the plan could not be read: ${parsed.error.issues[0]?.message ?? 'unknown shape'}` };
}

export const CHANGED_WORDS = 'changed on disk since published: will be lost';

/**
 * "Replace: create 1 file, update 2 files (the state file among them), delete 2 files": the words of
 * the one confirm button, in the one vocabulary of counts (shared/planCounts.ts); a replace that only
 * creates is a "Publish".
 */
export function confirmLabel(plan: ReplacePlan): string {
  const { changedCount } = plan.summary;
  const lost = changedCount > 0 ? ` (${changedCount} ${CHANGED_WORDS})` : '';
  return `${planCountsSentence(plan.mode, planCounts(plan))}${lost}`;
}

/** "2 recorded outputs were changed on disk since published", or undefined when none was. */
export function changedWarning(plan: ReplacePlan): string | undefined {
  const count = plan.summary.changedCount;
  if (count === 0) return undefined;
  return `${plural(count, 'recorded output')} ${count === 1 ? 'was' : 'were'} changed on disk since published (edited by hand?): a replace deletes ${count === 1 ? 'it' : 'them'}, and those edits will be lost.`;
}

/** "252 B written, 76 B removed; keep 1 file": the bytes and what stays, beside the counts. */
export function planSummary(plan: ReplacePlan): string {
  const counts = planCounts(plan);
  const kept = keptWords(counts);
  return [countsBytesWords(counts), kept].filter(Boolean).join('; ');
}

/** "create 1 file, update 2 files (the state file among them), delete 2 files": the counts of a plan, kept files left to planSummary. */
export function planCountsWords(plan: ReplacePlan): string {
  return countsWords(planCounts(plan), 'plan', { kept: false });
}

/** Whether applying could change anything: skip and skip_newer plan nothing. */
export function planDoesSomething(plan: ReplacePlan): boolean {
  return plan.action === 'replace';
}

/** The bundle folder's own name ("handbook-2026-05"): what the confirm button says it publishes. */
export function bundleName(plan: ReplacePlan): string {
  return plan.sourcePath.split(/[\\/]/).filter(Boolean).at(-1) ?? plan.sourcePath;
}

/** What the plan publishes, as its manifest says: "handbook, created 2026-05-01 09:00:00 UTC"; undefined when it publishes nothing. */
export function planSourceWords(plan: ReplacePlan): string | undefined {
  const manifest = plan.newState?.source.manifest;
  if (!manifest) return undefined;
  return `${manifest.id}, created ${formatTimestamp(manifest.created)?.utc ?? manifest.created}`;
}

/**
 * A forced replace from a bundle older than the destination's publication (the decision skip_newer)
 * rolls it back: said in so many words, with both times, before anyone types the id.
 */
export function rollbackWarning(plan: ReplacePlan): string | undefined {
  if (!planKindOf(plan.mode).deletesWholeTree || plan.comparison?.decision !== 'skip_newer') return undefined;
  return 'This rolls the destination back: it holds a newer publication of this source than the bundle you chose.';
}
