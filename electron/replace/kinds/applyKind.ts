// What a plan kind is to the apply: one module per kind (replace, force, repair, discard staging)
// with its checks, its steps from the first mutation to the last, what of its deletes a backup keeps
// whole, and what it leaves behind when it stops. applyPlan.ts checks that the destination is still
// the planned one, picks the kind (kinds/index.ts, the one place a plan's kind string is read) and
// drives it; the kind never catches a failure: the driver turns every throw into the result's error.
// The kind's planning and words are named beside it (PlanKindModule): docs/plan-kinds.md.

import type { AppliedKind, PlanDelete, PlanKind, ReplacePlan } from '../../../shared/plan';
import type { Problem, Result } from '../../../shared/result';
import type { State } from '../../../shared/stateSchema';
import type { ApplyRun } from '../applyRun';

export interface ApplyKind {
  readonly kind: PlanKind;
  /**
   * Checks the plan against itself and the disk, before anything changes (throws ApplyFailure), and
   * pins the destination. Runs after the destination was found exactly as planned. Gives the state
   * the writes publish (a repair's: the one on disk), or none for a kind that writes nothing.
   */
  check(run: ApplyRun): Promise<State | undefined>;
  /** Every step from the first mutation to done (staging, backup, swap, cleanup), with the state check gave; throws on failure. */
  execute(run: ApplyRun, state: State | undefined): Promise<void>;
  /** Whether a backup keeps this delete as one unit (moved whole by rename, or copied whole). */
  keptInBackup(entry: PlanDelete): boolean;
  /** The names in the destination that, still there after the apply, were left behind by it. */
  leftovers(plan: ReplacePlan): string[];
}

/**
 * A destructive action as one module: how it is planned, how it is applied, and its words
 * (shared/planKinds.ts). A restore (backup/) has the same shape with its own plan and apply.
 */
export interface PlanKindModule<Input, Plan, Options, Outcome> {
  readonly kind: AppliedKind;
  plan(input: Input): Promise<Result<Plan, Problem>>;
  applyPlan(plan: Plan, options: Options): Promise<Outcome>;
}
