// What a plan kind is to the apply: one module per kind (replace, force, repair, discard staging)
// with its checks, its steps from the first mutation to the last, what of its deletes a backup keeps
// whole, and what it leaves behind when it stops. applyPlan.ts checks that the destination is still
// the planned one, picks the kind (kinds/index.ts, the one place a plan's kind string is read) and
// drives it; the kind never catches a failure: the driver turns every throw into the result's error.
// ApplyKind itself is declared beside ApplyRun (applyRun.ts), which it takes and which holds it.
// The kind's planning and words are named beside it (PlanKindModule): docs/plan-kinds.md.

import type { AppliedKind } from '../../../shared/plan';
import type { Problem, Result } from '../../../shared/result';
import type { ApplyKind } from '../applyRun';

export type { ApplyKind };

/**
 * A destructive action as one module: how it is planned, how it is applied, and its words
 * (shared/planKinds.ts). A restore (backup/) has the same shape with its own plan and apply.
 */
export interface PlanKindModule<Input, Plan, Options, Outcome> {
  readonly kind: AppliedKind;
  plan(input: Input): Promise<Result<Plan, Problem>>;
  applyPlan(plan: Plan, options: Options): Promise<Outcome>;
}
