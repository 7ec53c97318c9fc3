// A forced replace: publishes the source over whatever the destination holds. Everything in the tree
// goes (nested managed destinations only when acknowledged), each top-level entry moved whole, by
// rename (which never follows a link), into the backup or into a private trash folder that is then
// removed from the inside only (removeTree.ts). Planned by planReplace.ts with the whole tree as its
// fingerprint; refused for system folders, homes and roots by safeDestination.ts.

import type { PlanDelete } from '../../../shared/plan';
import { STAGING_TRASH_DIR } from '../../../shared/staging';
import { checkNestedListed, checkPublication } from '../applyChecks';
import type { ApplyRun } from '../applyRun';
import { publishStaged } from '../publishStaged';
import type { ApplyKind } from './applyKind';

/** Each top-level entry out of the destination whole: into the backup when it keeps them by rename, else through the trash. */
async function removeWholeTree(run: ApplyRun, deletes: PlanDelete[]): Promise<void> {
  const { ops, backupTaken } = run;
  const topLevel = deletes.filter((entry) => !entry.path.includes('/'));
  if (backupTaken?.moves) {
    // Each top-level entry moves whole into the backup: nothing is deleted.
    for (const entry of topLevel) await ops.moveOut(entry.path, backupTaken.targetOf(entry.path));
    await ops.fsyncDir('');
    await ops.rmdir(run.inStaging(STAGING_TRASH_DIR));
  } else {
    // What is removed next is exactly what was in the destination, and removal never leaves the trash.
    for (const entry of topLevel) await ops.rename(entry.path, run.inStaging(`${STAGING_TRASH_DIR}/${entry.path}`));
    await ops.fsyncDir('');
    await ops.removeTree(run.inStaging(STAGING_TRASH_DIR));
  }
  for (const entry of deletes) run.result.deleted.push(entry.path);
  run.done += deletes.length;
  run.stepDone = deletes.length;
  run.progress();
}

export const forceKind: ApplyKind = {
  kind: 'force',
  check: (run) => checkPublication(run, run.plan.newState, () => checkNestedListed(run.plan)),
  execute: (run, state) =>
    publishStaged(run, { state: state!, markerMode: 'force', trash: true, writesState: true, removeOld: removeWholeTree }),
  keptInBackup: (entry) => !entry.path.includes('/'),
  leftovers: (plan) => [plan.stagingName],
};
