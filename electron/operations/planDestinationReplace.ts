// operations/: may be imported by service/ and cli/. The plan use case, written once: a replace or
// forced replace planned by replace/planReplace.ts, and the text the operator must type to apply a
// forced one (one rule, for the desktop app and the command line alike). Read-only.

import type { PlanRefusal, ReplacePlan } from '../../shared/plan';
import type { Result } from '../../shared/result';
import { planReplace, type PlanReplaceInput } from '../replace/planReplace';
import { planKindOf } from '../../shared/planKinds';

export interface PlannedReplace {
  plan: ReplacePlan;
  /** For a forced replace: what the operator types to confirm it. Absent for a normal replace. */
  confirmText?: string;
}

/**
 * A forced replace is confirmed by the destination id its new state records: the configured one, or
 * the one the valid state already holds (planReplace refuses a plan that has neither).
 */
export function confirmTextOf(plan: ReplacePlan): string | undefined {
  if (!planKindOf(plan.mode).confirmsById) return undefined;
  return plan.newState?.destination_id ?? plan.destinationPath;
}

export async function planDestinationReplace(input: PlanReplaceInput): Promise<Result<PlannedReplace, PlanRefusal>> {
  const outcome = await planReplace(input);
  if (!outcome.ok) return outcome;
  const plan = outcome.value;
  const confirmText = confirmTextOf(plan);
  return { ok: true, value: confirmText === undefined ? { plan } : { plan, confirmText } };
}
