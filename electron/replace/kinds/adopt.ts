// An adopt as the apply runs it: the folder's files already are the publication, so it writes the
// state file that records them and nothing else: no output is written, moved or deleted, every extra
// entry stays. Before that it proves, again, that there is still no state and that every recorded
// output still holds its bytes (the whole tree was just found as planned; the bytes are hashed once
// more, since an edit may keep a file's size and time). The state is written as a replace writes
// it: a temporary file in a private staging folder, fsynced, renamed into place, never over one.

import { parseState } from '../../../shared/parseDocument';
import { problem } from '../../../shared/result';
import { formatRfc3339Utc } from '../../../shared/rfc3339';
import { STAGING_MARKER_KIND, STAGING_MARKER_NAME, STAGING_STATE_TEMP, stagingMarkerText } from '../../../shared/staging';
import { STATE_FILE_NAME, type State } from '../../../shared/stateSchema';
import { verifyDestination } from '../../engine/verify';
import { ApplyFailure } from '../applyErrors';
import type { ApplyRun } from '../applyRun';
import { readStateFileBytes } from '../fingerprint';
import { stateFileBytes } from '../publish';
import { sha256Of } from '../sourceFile';
import type { ApplyKind } from './applyKind';

const invalid = (message: string) => new ApplyFailure('invalid_plan', message);

/** The plan against itself and the disk: no deletes, no writes, a valid state, and every output it records still in place. */
async function checkAdopt(run: ApplyRun): Promise<State> {
  const { plan } = run;
  const state = plan.newState;
  if (!state) throw invalid('an adopt plan carries the state it writes');
  if (plan.deletes.length > 0 || plan.writes.length > 0)
    throw invalid('an adopt writes only the state file: it deletes and writes nothing else');
  if (!plan.fingerprint.wholeTree || plan.fingerprint.stateSha256 !== null)
    throw invalid('an adopt plan fingerprints the whole folder, as it stood with no state file');
  if (parseState(JSON.stringify(state)).status !== 'managed') throw invalid("the plan's new state is not a valid state");
  if ((await readStateFileBytes(run.destReal)) !== null)
    throw new ApplyFailure('stale_plan', `${plan.destinationPath} has a state file now; compare again`, { path: STATE_FILE_NAME });
  const report = await verifyDestination(run.destReal, state);
  const changed = report.outputs.find((output) => output.status !== 'ok');
  if (changed) {
    const refusal = problem(
      'stale_plan',
      `"${changed.path}" is no longer the file the plan found (${changed.status.replace('_', ' ')}); nothing was written: compare again`,
      { path: changed.path, status: changed.status },
    );
    throw new ApplyFailure(refusal.code, refusal.message, refusal.details);
  }
  await run.pinDestination();
  return state;
}

async function writeAdoptedState(run: ApplyRun, state: State): Promise<void> {
  const { plan, ops, result } = run;
  // A backup that holds no entry, kept so that an undo can remove the state written here.
  await run.takeBackup();
  run.enter('write_state', 1);
  run.progress();
  await ops.mkdir(run.staging, 0o700);
  run.stagingCreated = true;
  const marker = stagingMarkerText({
    kind: STAGING_MARKER_KIND,
    version: 1,
    created: formatRfc3339Utc(run.now()),
    mode: 'adopt',
    source: { id: state.source.manifest.id, digest: state.source.manifest.digest },
    plannedAt: plan.plannedAt,
    pipeline_id: state.pipeline_id,
    destination_id: state.destination_id,
  });
  await ops.writeFile(run.inStaging(STAGING_MARKER_NAME), Buffer.from(marker, 'utf8'));
  const finalState: State = { ...state, published_at: formatRfc3339Utc(run.now()) };
  const bytes = stateFileBytes(finalState);
  await ops.writeFile(run.inStaging(STAGING_STATE_TEMP), bytes);
  run.throwIfCancelled();
  // The rename never lands on a state file that appeared meanwhile (target_exists), and is the one step that counts.
  await ops.rename(run.inStaging(STAGING_STATE_TEMP), STATE_FILE_NAME);
  run.pastNoReturn = true;
  result.stateWritten = true;
  result.state = finalState;
  result.stateSha256 = sha256Of(bytes);
  await ops.fsyncDir('');
  run.stepped(STATE_FILE_NAME);
  run.enter('cleanup', 1);
  run.progress();
  await ops.unlink(run.inStaging(STAGING_MARKER_NAME));
  await ops.rmdir(run.staging);
  run.stagingCreated = false;
  await ops.fsyncDir('');
  run.enter('done', 0);
  run.progress();
}

export const adoptKind: ApplyKind = {
  kind: 'adopt',
  check: checkAdopt,
  execute: (run, state) => writeAdoptedState(run, state!),
  keptInBackup: () => false,
  leftovers: (plan) => [plan.stagingName],
};
