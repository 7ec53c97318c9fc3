// The checks of a plan against itself and the disk that every apply makes before it changes
// anything: clean, unreserved paths, a free staging name, deletes the fingerprint saw, and (for a
// normal replace) deletes that only recorded outputs. Throws ApplyFailure; never writes.

import path from 'node:path';
import { isCleanRelativePath } from '../../shared/cleanPath';
import { nestedDestinationsText, nestedNotAcknowledged, type ReplacePlan } from '../../shared/plan';
import { planKindOf } from '../../shared/planKinds';
import { isRecordedFolder, isStagingFolderName } from '../../shared/staging';
import { STATE_FILE_NAME, type State } from '../../shared/stateSchema';
import { checkFingerprint, joinRelative, lstatEntry, readStateFileBytes } from './fingerprint';
import { realPathOf } from './safeDestination';
import { ancestorsOf } from './planPaths';
import { ApplyFailure } from './applyErrors';
import { newStateIssues } from './newStateCheck';
import { recordedOutputPaths } from './recordedOutputs';
import type { ApplyRun } from './applyRun';

/** The plan against itself: clean paths, a free staging name, deletes its fingerprint saw, writes its new state records. */
export function checkPlanPaths(plan: ReplacePlan, newState: State): void {
  const kind = planKindOf(plan.mode);
  for (const entry of plan.deletes) {
    if (!isCleanRelativePath(entry.path))
      throw new ApplyFailure(
        'invalid_plan',
        `the plan deletes ${JSON.stringify(entry.path)}, which is not a clean path inside the destination`,
        { path: entry.path },
      );
  }
  for (const write of plan.writes) {
    if (!isCleanRelativePath(write.path) || write.path === STATE_FILE_NAME || isRecordedFolder(plan.stagingName, [write.path])) {
      throw new ApplyFailure(
        'invalid_plan',
        `the plan writes ${JSON.stringify(write.path)}, which is not a clean, unreserved path inside the destination`,
        { path: write.path },
      );
    }
  }
  const seenStaging = plan.fingerprint.entries.find((entry) => entry.path === plan.stagingName);
  if (!isStagingFolderName(plan.stagingName) || (seenStaging !== undefined && seenStaging.type !== 'missing')) {
    throw new ApplyFailure('invalid_plan', `the plan's staging folder ${JSON.stringify(plan.stagingName)} is not a free staging name`, {
      path: plan.stagingName,
    });
  }
  if (plan.deletes.some((entry) => isRecordedFolder(plan.stagingName, [entry.path])))
    throw new ApplyFailure('invalid_plan', `the plan deletes inside its own staging folder ${plan.stagingName}`);
  if (kind.deletesWholeTree !== plan.fingerprint.wholeTree && plan.destinationExists) {
    throw new ApplyFailure('invalid_plan', 'a forced plan must fingerprint the whole tree, a normal one only the paths it touches');
  }
  // Every delete must be an entry the fingerprint saw (and that apply just found unchanged), of that type.
  const seen = new Map(plan.fingerprint.entries.map((entry) => [entry.path, entry.type]));
  for (const entry of plan.deletes) {
    if (seen.get(entry.path) !== entry.type) {
      throw new ApplyFailure(
        'invalid_plan',
        `the plan deletes "${entry.path}" as a ${entry.type}, but its fingerprint did not see one there`,
        { path: entry.path },
      );
    }
  }
  // A folder to move whole must be one the fingerprint saw as a folder, inside the destination and
  // outside the staging folder; what it holds is proven again right before it moves (wholeFolders.ts).
  for (const folder of plan.wholeFolders ?? []) {
    if (!isCleanRelativePath(folder) || seen.get(folder) !== 'directory' || isRecordedFolder(plan.stagingName, [`${folder}/x`]))
      throw new ApplyFailure('invalid_plan', `the plan moves ${JSON.stringify(folder)} whole, but its fingerprint saw no such folder`, {
        path: folder,
      });
  }
  const recorded = newState.outputs
    .map((o) => `${o.path}\0${o.sha256}\0${o.size}`)
    .sort()
    .join('\n');
  const planned = plan.writes
    .map((w) => `${w.path}\0${w.sha256}\0${w.size}`)
    .sort()
    .join('\n');
  // A repair rewrites some of the state's outputs (kinds/repair.ts checks them); a replace all of them.
  if (recorded !== planned && !kind.keepsState) throw new ApplyFailure('invalid_plan', "the plan's writes and its new state disagree");
  if (newStateIssues(newState) !== undefined) throw new ApplyFailure('invalid_plan', "the plan's new state is not a valid state");
}

/** Normal replace deletes only what the current state records (and folders on the way): checked again here. */
export async function checkNormalDeletes(plan: ReplacePlan, destReal: string): Promise<void> {
  const stateBytes = await readStateFileBytes(destReal);
  // Parsed afresh unless they are the very bytes the plan parsed (recordedOutputs.ts).
  const outputs = stateBytes instanceof Buffer ? recordedOutputPaths(stateBytes) : [];
  const files = new Set(outputs);
  const folders = new Set(outputs.flatMap(ancestorsOf));
  for (const entry of plan.deletes) {
    const allowed =
      entry.path === STATE_FILE_NAME ? stateBytes !== null : entry.type === 'directory' ? folders.has(entry.path) : files.has(entry.path);
    if (!allowed)
      throw new ApplyFailure('invalid_plan', `a normal replace may delete only recorded outputs, but the plan deletes "${entry.path}"`, {
        path: entry.path,
      });
  }
}

/** A forced plan over the whole tree: the nested destinations it deletes must be the plan's, all of them. */
export function checkNestedListed(plan: ReplacePlan): void {
  if (!plan.fingerprint.wholeTree) return;
  // The tree was just found unchanged: the nested destinations it holds must be the plan's, all of them.
  const nested = plan.fingerprint.entries
    .filter((entry) => entry.type === 'file' && entry.path.endsWith(`/${STATE_FILE_NAME}`))
    .map((entry) => path.posix.dirname(entry.path))
    .sort();
  if (nested.join('\n') !== [...plan.nestedDestinations].sort().join('\n'))
    throw new ApplyFailure('invalid_plan', 'the plan does not name every nested managed destination it would delete');
}

/**
 * The checks of every kind that writes outputs, in one order: a state to publish, the plan's paths,
 * the kind's own check, the nested destinations acknowledged; then the destination is pinned.
 */
export async function checkPublication(
  run: ApplyRun,
  state: State | undefined,
  own?: (state: State) => Promise<void> | void,
): Promise<State> {
  const plan = run.plan;
  if (!state) throw new ApplyFailure('invalid_plan', 'the plan has no new state');
  checkPlanPaths(plan, state);
  await own?.(state);
  if (nestedNotAcknowledged(plan, run.options.includeNested)) {
    throw new ApplyFailure(
      'nested_not_acknowledged',
      `this forced replace of ${plan.destinationPath} would delete ${nestedDestinationsText(plan)}; confirm that they go too (--include-nested)`,
      { nestedDestinations: plan.nestedDestinations },
    );
  }
  if (plan.destinationExists) await run.pinDestination();
  return state;
}

/** The destination is still the one planned: the same folder (no link), the same real path, the same entries, no mount point. */
export async function checkDestinationAsPlanned(run: ApplyRun): Promise<void> {
  const plan = run.plan;
  const destEntry = await lstatEntry(plan.destinationPath, '');
  if (destEntry.type === 'symlink') throw new ApplyFailure('unsafe_path', `${plan.destinationPath} is now a symbolic link`);
  if (destEntry.type !== (plan.destinationExists ? 'directory' : 'missing'))
    throw new ApplyFailure('stale_plan', `${plan.destinationPath} changed since the plan was made`);
  run.destReal = await realPathOf(plan.destinationPath);
  if (run.destReal !== plan.destinationRealPath)
    throw new ApplyFailure('stale_plan', `${plan.destinationPath} now resolves to ${run.destReal}, not ${plan.destinationRealPath}`);
  const fresh = await checkFingerprint(run.destReal, plan.fingerprint);
  if (!fresh.fresh) {
    throw new ApplyFailure(
      'stale_plan',
      `the destination changed since the plan was made: "${fresh.path || '.'}" was ${fresh.planned}, is now ${fresh.now}; make a new plan`,
      { path: fresh.path, planned: fresh.planned, now: fresh.now },
    );
  }
  if (fresh.mountPoints.length > 0) {
    const first = fresh.mountPoints[0] as string;
    throw new ApplyFailure(
      'crosses_mount_point',
      `${joinRelative(run.destReal, first)} is a mount point now; a replace never deletes or descends into another file system`,
      { path: first, mountPoints: fresh.mountPoints },
    );
  }
}
