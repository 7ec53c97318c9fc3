// operations/: may be imported by service/ and cli/. The two recovery use cases, written once: a
// repair of what drifted (replace/planRepair.ts), from the destination's configured source or a
// chosen bundle, and discarding the staging folder an interrupted apply left
// (replace/planDiscardStaging.ts). Both give the same PlannedReplace as a replace, so the Session
// keeps them under one opaque plan id and the CLI prints, confirms and applies them by one path.
// Read-only.

import type { PlanRefusal } from '../../shared/plan';
import type { Result } from '../../shared/result';
import { planDiscardStaging, type PlanDiscardStagingInput } from '../replace/planDiscardStaging';
import { planRepair, type PlanRepairInput } from '../replace/planRepair';
import type { PlannedReplace } from './planDestinationReplace';

/**
 * Neither kind has a typed confirmation (like a normal replace: one explicit click or "yes"): neither
 * deletes anything but drifted bytes or a staging folder. A partial repair is accepted at apply time
 * (shared/plan.ts partialNotAccepted).
 */
export async function planDestinationRepair(input: PlanRepairInput): Promise<Result<PlannedReplace, PlanRefusal>> {
  const outcome = await planRepair(input);
  return outcome.ok ? { ok: true, value: { plan: outcome.value } } : outcome;
}

export async function planDestinationDiscardStaging(input: PlanDiscardStagingInput): Promise<Result<PlannedReplace, PlanRefusal>> {
  const outcome = await planDiscardStaging(input);
  return outcome.ok ? { ok: true, value: { plan: outcome.value } } : outcome;
}
