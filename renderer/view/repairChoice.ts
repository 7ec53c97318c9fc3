// The operator's choice in a repair review: which drifted outputs to rewrite (all ticked by default)
// and which to keep as they are (an intentional hotfix). The boxes change no plan: applying a choice
// other than the plan's plans again with it, and applies only if that plan is the one reviewed (the
// same drifted outputs, found the same way, with that selection). Pure.

import type { ReplacePlan } from '../../shared/plan';
import { keptPathsOf, repairChoiceCounts, repairChoicePaths, selectRepair } from '../../shared/repairSelection';
import { plural } from './format';

/** What the boxes start as for a plan: unticked exactly the outputs it keeps. */
export const initialUnchecked = (plan: Pick<ReplacePlan, 'repair'>): ReadonlySet<string> => new Set(keptPathsOf(plan));

/** The paths a choice keeps as they are, sorted: the `keep` of planRepair and applyPlan. */
export function keepOf(plan: Pick<ReplacePlan, 'repair'>, unchecked: ReadonlySet<string>): string[] {
  return repairChoicePaths(plan).filter((path) => unchecked.has(path));
}

/** Whether the plan already is this choice (no planning again before the apply). */
export function choiceIsPlanned(plan: Pick<ReplacePlan, 'repair'>, unchecked: ReadonlySet<string>): boolean {
  const keep = keepOf(plan, unchecked);
  const planned = keptPathsOf(plan);
  return keep.length === planned.length && keep.every((path, index) => path === planned[index]);
}

/** What each drifted output was found as and where its bytes come from: what the operator reviewed. */
function reviewed(plan: Pick<ReplacePlan, 'repair'>): string {
  const entries = [...(plan.repair?.repairs ?? []), ...(plan.repair?.kept ?? [])].map(
    (entry) => `${entry.path}|${entry.status}|${entry.origin}`,
  );
  const refused = (plan.repair?.refused ?? []).map((entry) => `!${entry.path}|${entry.status}|${entry.code}`);
  return JSON.stringify([entries.sort(), refused.sort()]);
}

/**
 * Whether `next`, planned again with `keep`, is the plan reviewed with that selection: the same
 * drifted outputs found the same way, the same refusals, and exactly `keep` kept. When it is not, the
 * destination changed since the review, and the new plan is shown instead of applied.
 */
export function sameReview(next: Pick<ReplacePlan, 'repair'>, shown: Pick<ReplacePlan, 'repair'>, keep: readonly string[]): boolean {
  const kept = keptPathsOf(next);
  return reviewed(next) === reviewed(shown) && kept.length === keep.length && kept.every((path, index) => path === [...keep].sort()[index]);
}

/** "2 of 3 drifted outputs ticked to rewrite · 1 kept as it is": the live count beside the boxes. */
export function choiceCountsText(plan: Pick<ReplacePlan, 'repair'>, unchecked: ReadonlySet<string>): string {
  const counts = repairChoiceCounts(plan, unchecked);
  const total = counts.rewrite + counts.keep;
  const kept = counts.keep > 0 ? ` · ${counts.keep} kept as ${counts.keep === 1 ? 'it is' : 'they are'}` : '';
  return `${counts.rewrite} of ${plural(total, 'drifted output')} ticked to rewrite${kept}`;
}

export const NONE_CHOSEN =
  'No output is ticked, so there is nothing to rewrite: tick at least one (the unticked ones are kept as they are).';

/**
 * The plan as the boxes now choose it, for the confirmation's counts: the drifted outputs unticked
 * since it was planned taken out. One kept by the plan and ticked again cannot be put back here (its
 * bytes are not in the plan): the plan is then shown as it was, and planned again before the apply.
 */
export function chosenPlan(plan: ReplacePlan, unchecked: ReadonlySet<string>): ReplacePlan {
  const planned = new Set(keptPathsOf(plan));
  const chosen = selectRepair(
    plan,
    keepOf(plan, unchecked).filter((path) => !planned.has(path)),
  );
  return chosen.ok ? chosen.value : plan;
}
