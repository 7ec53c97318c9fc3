// Applies a plan: the one driver over every plan kind. It refuses a plan that is not one, checks
// that the destination is still exactly the one planned, then hands the plan to its kind
// (kinds/index.ts), which checks it against the disk and runs its steps (docs/plan-kinds.md; the
// order of a replace's steps, and why it keeps the contract's promise at every instant, in
// docs/replace.md). Never touches anything outside the destination: every mutation goes through
// ApplyRun (applyRun.ts), reached from the destination held open, never through a link. A failure
// before the old state is removed takes everything back out; failures come back as data, never as
// a throw.

import type { ApplyResult, ReplacePlan } from '../../shared/plan';
import { checkDestinationAsPlanned } from './applyChecks';
import { failedBeforeStart } from './applyResult';
import { ApplyRun, type ApplyPlanOptions } from './applyRun';
import { applyKindOf } from './kinds';
import { isSealedPlan, sealPlan } from './sealedPlan';

export type { ApplyPlanOptions };

export async function applyPlan(planInput: ReplacePlan, options: ApplyPlanOptions = {}): Promise<ApplyResult> {
  const startedMs = performance.now();
  // A plan the service sealed when it kept it was checked then and is frozen since (sealedPlan.ts).
  const checked = isSealedPlan(planInput) ? { ok: true as const, plan: planInput } : sealPlan(planInput);
  if (!checked.ok) return failedBeforeStart(planInput, `the plan is not a valid plan: ${checked.problems}`, startedMs);
  const plan = checked.plan;
  const run = new ApplyRun(plan, applyKindOf(plan.mode), options);
  try {
    run.progress();
    // ── check: the destination is still the one planned, and the plan is safe to run ──
    await checkDestinationAsPlanned(run);
    if (plan.action !== 'nothing') {
      const state = await run.kind.check(run);
      await run.kind.execute(run, state);
    }
    run.result.ok = true;
    return run.result;
  } catch (cause) {
    await run.fail(cause);
    return run.result;
  } finally {
    await run.finish(startedMs);
  }
}
