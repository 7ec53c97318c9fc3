// The rules and words over a plan that every front end shares: what must be acknowledged before an
// apply, how refusals and nested destinations are named, what a failed apply left. The plan's data
// shapes live in planSchema.ts and are re-exported here, where every room has always found them.

import { planKindOf } from './planKinds';
import type { ApplyResult, AppliedKind, ReplacePlan } from './planSchema';

export * from './planSchema';

/**
 * Whether a forced plan deletes other managed destinations that the operator has not acknowledged
 * (the one rule: applyPlan refuses such a plan; the CLI and the UI ask for the acknowledgement first).
 */
export function nestedNotAcknowledged(plan: Pick<ReplacePlan, 'nestedDestinations'>, includeNested: boolean | undefined): boolean {
  return plan.nestedDestinations.length > 0 && includeNested !== true;
}

/** "2 other managed destinations inside it (a, b)": how the plan's nested destinations are named in text. */
/**
 * Whether a repair plan refuses some drifted outputs and the operator has not accepted repairing only
 * the rest (the one rule: applyPlan refuses such a plan; the CLI and the UI ask first).
 */
export function partialNotAccepted(plan: Pick<ReplacePlan, 'mode' | 'repair' | 'writes'>, acceptPartial: boolean | undefined): boolean {
  return planKindOf(plan.mode).mayBePartial && (plan.repair?.refused.length ?? 0) > 0 && plan.writes.length > 0 && acceptPartial !== true;
}

/** "2 outputs cannot be repaired (a.html, b.html)": how a repair plan's refusals are named in text. */
export function repairRefusedText(plan: Pick<ReplacePlan, 'repair'>, limit = 5): string {
  const refused = plan.repair?.refused ?? [];
  const list = refused
    .slice(0, limit)
    .map((entry) => entry.path)
    .join(', ');
  const more = refused.length > limit ? ` and ${refused.length - limit} more` : '';
  return `${refused.length} output${refused.length === 1 ? '' : 's'} cannot be repaired (${list}${more})`;
}

export function nestedDestinationsText(plan: Pick<ReplacePlan, 'nestedDestinations'>, limit = 5): string {
  const count = plan.nestedDestinations.length;
  const list = plan.nestedDestinations.slice(0, limit).join(', ');
  const more = count > limit ? ` and ${count - limit} more` : '';
  return `${count} other managed destination${count === 1 ? '' : 's'} inside it (${list}${more})`;
}

/**
 * What a failed apply left, in one sentence for the CLI and the UI: nothing changed; the new state in
 * place; the old state and outputs untouched (a failure while staging); or stopped past the point of
 * no return, with no state yet.
 */
export function applyAftermathText(
  result: Pick<ApplyResult, 'changed' | 'oldTouched' | 'stateWritten' | 'stagingLeft' | 'deleted' | 'written'> & { mode?: AppliedKind },
): string {
  if (!result.changed) return 'Nothing was changed.';
  const kindWords = planKindOf(result.mode).aftermath;
  if (kindWords) return kindWords(result);
  if (result.stateWritten) return 'The new state is in place; only the cleanup of the staging folder did not finish.';
  if (!result.oldTouched) {
    const moved = result.written.length;
    return [
      'The old state and outputs are untouched: it stopped before anything that was there was removed or moved',
      moved > 0
        ? `; ${moved} new output${moved === 1 ? ' was' : 's were'} moved in with no state describing ${moved === 1 ? 'it' : 'them'} yet`
        : '',
      result.stagingLeft ? '; only its staging folder was left behind.' : '.',
    ].join('');
  }
  return `Deleted ${result.deleted.length}, moved ${result.written.length} before it stopped; the destination has no valid new state yet.`;
}

/**
 * The plan as its apply found it: each delete the apply hashed (`hashAtApply`, a plan applied at
 * once) carries what planning would have said of it (`changed`, or its proven `sha256`), and the
 * summary counts the changed ones. Deletes the apply did not get to hash keep `hashAtApply`. The
 * CLI's output, the result's counts and the journal read this plan, so an apply at once says exactly
 * what a plan hashed first would have.
 */
export function planAsApplied(plan: ReplacePlan, result: Pick<ApplyResult, 'checkedDeletes'>): ReplacePlan {
  const checked = new Map((result.checkedDeletes ?? []).map((entry) => [entry.path, entry]));
  if (checked.size === 0) return plan;
  const deletes = plan.deletes.map((entry) => {
    const found = entry.hashAtApply !== undefined ? checked.get(entry.path) : undefined;
    if (!found) return entry;
    const { hashAtApply: _hashed, ...rest } = entry;
    return { ...rest, ...(found.changed ? { changed: found.changed } : {}), ...(found.sha256 ? { sha256: found.sha256 } : {}) };
  });
  const changedCount = deletes.filter((entry) => entry.changed !== undefined).length;
  return { ...plan, deletes, summary: { ...plan.summary, changedCount } };
}
