// operations/: may be imported by service/ and cli/. The apply use case, written once: apply a plan
// (replace/applyPlan.ts) and read the destination again, so that whoever asked learns both what the
// apply did (the ApplyResult, refused and failed ones included) and what is on disk now. Never
// throws for a refusal or a failure: those are in the result.

import type { ApplyProgress, ApplyResult, ReplacePlan } from '../../shared/plan';
import { inspectDestination, type DestinationInspection } from '../engine/inspectDestination';
import { applyPlan } from '../replace/applyPlan';

export interface AppliedReplace {
  result: ApplyResult;
  /** The destination as it is after the apply; absent only when it cannot be read at all. */
  inspection?: DestinationInspection;
}

export interface ApplyOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ApplyProgress) => void;
  /** The operator acknowledged the nested managed destinations a forced plan deletes. */
  includeNested?: boolean;
}

export async function applyReplacePlan(plan: ReplacePlan, options: ApplyOptions = {}): Promise<AppliedReplace> {
  const result = await applyPlan(plan, options);
  // Whatever happened, the caller should show the destination as it is now.
  const inspection = await inspectDestination(plan.destinationPath).catch(() => undefined);
  return inspection ? { result, inspection } : { result };
}
