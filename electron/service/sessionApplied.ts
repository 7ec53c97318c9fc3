// After an apply job (a plan or a restore): the destination as it is now, kept for the list and the
// report and sent as the job's item (verified when a state is in place), so that the renderer need
// not start a scan and a verify to learn it. One copy for sessionPlans.ts and sessionBackups.ts.

import type { DestinationEntry } from '../../shared/api';
import { fingerprintOf } from '../../shared/verifyFreshness';
import type { AppliedReplace } from '../operations/applyReplacePlan';
import { entryWithSync } from './sessionSync';
import type { JobContext } from './jobRegistry';
import type { SessionContext } from './sessionContext';
import { keepVerify } from './sessionDestinations';

export async function reportApplied(
  session: SessionContext,
  context: JobContext<'applyPlan'>,
  destination: DestinationEntry,
  { result, inspection, verify, readAt }: AppliedReplace,
): Promise<void> {
  // Only while the destination is still the one of the open workspace (not reopened or reconfigured meanwhile).
  if (!inspection || session.state.workspace?.byId.get(destination.id) !== destination) return;
  const open = session.workspace();
  const entry = await entryWithSync(open, destination, inspection);
  if (session.state.workspace !== open) return;
  open.scans.set(destination.id, entry);
  // An apply that left the destination as it was (refused or cancelled before touching what was there,
  // its staging removed) leaves the verify made before it true: kept, not thrown away.
  const untouched = !result.oldTouched && !result.stateWritten && !result.stagingLeft;
  if (!verify && !untouched) open.verifies.delete(destination.id);
  const stamp = { verifiedAt: readAt ?? new Date().toISOString(), basis: fingerprintOf(inspection) };
  context.item(verify ? { entry, verify: keepVerify(open, destination.id, verify, stamp) } : { entry });
}

/** After an apply not reported (reportAfter false): what the session held of the destination no longer describes it. */
export function forgetApplied(session: SessionContext, destinationId: string): void {
  const open = session.state.workspace;
  if (!open) return;
  open.scans.delete(destinationId);
  open.verifies.delete(destinationId);
}
