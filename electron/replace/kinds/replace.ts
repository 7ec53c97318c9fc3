// A normal replace: publishes the source in place of the recorded outputs, through a staging folder,
// and deletes only what the state on disk records (and the folders that leaves empty); every extra
// file stays. Planned by planReplace.ts; its words are in shared/planKinds.ts.

import type { PlanDelete } from '../../../shared/plan';
import { checkNormalDeletes, checkPublication } from '../applyChecks';
import { publishStaged, removeRecorded } from '../publishStaged';
import type { ApplyKind } from './applyKind';

export const replaceKind: ApplyKind = {
  kind: 'replace',
  check: (run) => checkPublication(run, run.plan.newState, () => checkNormalDeletes(run.plan, run.destReal)),
  execute: (run, state) =>
    publishStaged(run, { state: state!, markerMode: 'replace', trash: false, writesState: true, removeOld: removeRecorded }),
  // Files, links and special files: the folders it empties come back with them.
  keptInBackup: (entry: PlanDelete) => entry.type !== 'directory',
  leftovers: (plan) => [plan.stagingName],
};
