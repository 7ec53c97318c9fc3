// operations/: may be imported by service/ and cli/. The apply use case, written once: apply a plan
// (replace/applyPlan.ts) and read the destination again (and, when asked, verify it against the new
// state), so that whoever asked learns both what the apply did (the ApplyResult, refused and failed
// ones included) and what is on disk now. Never
// throws for a refusal or a failure: those are in the result.

import type { ApplyProgress, ApplyResult, ReplacePlan } from '../../shared/plan';
import type { VerifyReport } from '../../shared/verifyReport';
import type { HashPool } from '../engine/hashPool';
import { inspectDestination, type DestinationInspection } from '../engine/inspectDestination';
import { verifyDestination } from '../engine/verify';
import { applyPlan } from '../replace/applyPlan';

export interface AppliedReplace {
  result: ApplyResult;
  /** The destination as it is after the apply; absent only when it cannot be read at all. */
  inspection?: DestinationInspection;
  /** With `verifyAfter`, once a new state is in place: its outputs hashed against it, as on disk now. */
  verify?: VerifyReport;
}

export interface ApplyOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ApplyProgress) => void;
  /** The operator acknowledged the nested managed destinations a forced plan deletes. */
  includeNested?: boolean;
  /** Verify the destination against the state the apply wrote (the desktop app shows it at once). */
  verifyAfter?: boolean;
  /** The worker pool for that verify (the session's); without it, one is made for the call. */
  pool?: HashPool;
}

export async function applyReplacePlan(plan: ReplacePlan, options: ApplyOptions = {}): Promise<AppliedReplace> {
  const result = await applyPlan(plan, { signal: options.signal, onProgress: options.onProgress, includeNested: options.includeNested });
  // Whatever happened, the caller should show the destination as it is now.
  const inspection = await inspectDestination(plan.destinationPath).catch(() => undefined);
  if (!inspection) return { result };
  if (!options.verifyAfter || !result.stateWritten || !inspection.state) return { result, inspection };
  const verify = await verifyDestination(plan.destinationPath, inspection.state, options.pool ? { pool: options.pool } : {}).catch(
    () => undefined,
  );
  return verify ? { result, inspection, verify } : { result, inspection };
}
