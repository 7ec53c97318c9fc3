// Applying a plan from the page: a row in the status bar, and the destination's row and views updated
// from what the engine sends after the apply, without a second scan.

import type { DestinationRead, RequestOf } from '../../shared/api';
import type { JobOutcome } from '../api/jobs';
import { trackedJob } from './jobActions';
import { bumpRevisions } from './listUpdates';
import { scan } from './scanActions';
import { store, type JobView } from './store';

/** The destination as the engine read it after an apply: its row, and its verify (dropped when there is none: it described the old outputs). */
function showApplied({ entry, verify }: DestinationRead): void {
  store.set((state) => {
    const table = state.destinationTable.withScan([entry]);
    return { destinationTable: verify ? table.withVerify([verify]) : table.withoutVerify([entry.destination]) };
  });
  bumpRevisions([entry.destination]);
}

/**
 * Applies a plan with a row in the status bar. The engine sends the destination as it is afterwards
 * (read again, and verified when a new state is in place), so its row and views update without a
 * second scan and verify; only a job that ended before it could say (cancelled, an error) rescans it.
 */
export async function applyPlan(
  destination: string,
  request: RequestOf<'applyPlan'>,
  label: string,
  onProgress?: (view: JobView) => void,
): Promise<JobOutcome<'applyPlan'>> {
  let applied = false;
  const outcome = await trackedJob('applyPlan', request, label, {
    destination,
    onItem: (item) => {
      applied = true;
      showApplied(item);
    },
    ...(onProgress ? { onProgress } : {}),
  });
  // A refusal before the job started (a wrong confirmation, an unknown plan) changed nothing; a lost
  // link is re-inspected as a whole when it is back (reinspect).
  const started =
    outcome.ok || !['confirmation_required', 'not_found', 'refused', 'bad_request', 'connection_lost'].includes(outcome.error.code);
  if (!applied && started) await scan([destination]);
  return outcome;
}
