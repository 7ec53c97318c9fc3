// The steps every kind that writes outputs runs in the same order (docs/replace.md explains each):
// verify and stage, keep a backup, remove the state (the point of no return), remove what the kind
// removes, move the staged outputs into place, write the new state, clean up. The order keeps the
// contract's promise at every instant, also when the process is killed between two steps: a
// `.distributor.json` on disk always describes outputs whose bytes are on disk as it says.

import type { PlanDelete } from '../../shared/plan';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { STAGING_FILES_DIR, STAGING_MARKER_NAME, STAGING_STATE_TEMP, STAGING_TRASH_DIR } from '../../shared/staging';
import { STATE_FILE_NAME, type State } from '../../shared/stateSchema';
import { ApplyFailure } from './applyErrors';
import { parentOf } from './planPaths';
import type { ApplyRun } from './applyRun';
import { boundedAll } from './boundedAll';
import { lstatEntry } from './fingerprint';
import { ancestorsOf } from './planPaths';
import { stateFileBytes } from './publish';
import { sha256Of } from './sourceFile';
import { FILES_IN_FLIGHT, verifyAndStage, type StagedPublication } from './stageOutputs';
import { startOldOutputsCheck } from './oldOutputsCheck';
import { moveWholeFolders } from './wholeFolders';

export interface Publication extends StagedPublication {
  /** A forced replace's private trash folder, made in the staging folder before anything old goes. */
  trash: boolean;
  /** The kind writes a new state (a repair keeps the one on disk: its point of no return is its first removal). */
  writesState: boolean;
  /** Removes the old entries the plan deletes (all but the state file), in the delete step. */
  removeOld(run: ApplyRun, deletes: PlanDelete[]): Promise<void>;
}

export async function publishStaged(run: ApplyRun, publication: Publication): Promise<void> {
  const { plan, ops } = run;
  // A plan applied at once left its large old outputs' hash to here: it runs beside the staging
  // copy (two cores, not one after the other) and is joined before anything old is touched.
  const oldOutputs = startOldOutputsCheck(run);
  try {
    await verifyAndStage(run, publication);
    if (publication.trash) await ops.mkdir(run.inStaging(STAGING_TRASH_DIR), 0o700);
    run.throwIfCancelled();
  } catch (cause) {
    await oldOutputs.stop();
    throw cause;
  }
  const checkedDeletes = await oldOutputs.join();
  if (checkedDeletes.length > 0) run.result.checkedDeletes = checkedDeletes;
  // ── backup: what will be removed, kept outside the destination (moved by rename, or copied first) ──
  await run.takeBackup();

  // ── remove_state: from here on no state file claims anything until the new one is in place ──
  if (publication.writesState) {
    run.enter('remove_state', 1);
    run.progress();
  }
  run.pastNoReturn = true;
  const stateDelete = plan.deletes.find((entry) => entry.path === STATE_FILE_NAME && entry.type !== 'directory');
  const otherDeletes = plan.deletes.filter((entry) => entry !== stateDelete);
  if (stateDelete) {
    await run.deleteEntry(stateDelete);
    await ops.fsyncDir('');
  }

  // ── delete: what the kind removes ──
  run.enter('delete', otherDeletes.length);
  run.progress();
  await publication.removeOld(run, otherDeletes);

  await moveStaged(run);
  if (publication.writesState) await writeState(run, publication.state);
  run.stepped(STATE_FILE_NAME);
  await cleanupStaging(run);
}

/** Normal replace and repair: recorded outputs (files and links many at once), then the folders they emptied, deepest first. */
export async function removeRecorded(run: ApplyRun, deletes: PlanDelete[]): Promise<void> {
  // `deleted` lists them in the plan's order, also after a failure part-way (what was deleted, no more).
  // A folder moved whole into the backup took its files and folders with it (wholeFolders.ts).
  const gone = await moveWholeFolders(run, deletes);
  const files = deletes.filter((entry) => entry.type !== 'directory');
  try {
    await boundedAll(
      files.filter((entry) => !gone.has(entry.path)),
      (entry) => run.deleteEntry(entry, false).then(() => void gone.add(entry.path)),
      { limit: FILES_IN_FLIGHT },
    );
  } finally {
    for (const entry of files) if (gone.has(entry.path)) run.result.deleted.push(entry.path);
  }
  for (const entry of deletes) {
    if (entry.type !== 'directory') continue;
    if (gone.has(entry.path)) run.result.deleted.push(entry.path);
    else await run.deleteEntry(entry);
  }
}

/** ── move: staged outputs into place ── */
async function moveStaged(run: ApplyRun): Promise<void> {
  const { plan, ops, result } = run;
  run.enter('move', plan.writes.length);
  run.progress();
  // Folders first (each checked once, outermost first), then the renames many at once; each rename
  // still reaches its folder afresh, never through a link, and never over an existing path. A folder
  // missing in the destination (moved whole into the backup, or never there) is not made: the staged
  // folder, which holds exactly the writes below it, takes its place by one rename, as `mv` would.
  const movedFolders = new Set<string>(['']);
  const checkedFolders = new Set<string>();
  const wholeFolders = new Set<string>();
  const moved = new Set<string>();
  const writesBelow = new Map<string, string[]>();
  for (const write of plan.writes) {
    for (const folder of ancestorsOf(write.path)) {
      const below = writesBelow.get(folder);
      if (below) below.push(write.path);
      else writesBelow.set(folder, [write.path]);
    }
  }
  const underWhole = (relative: string) => ancestorsOf(relative).some((folder) => wholeFolders.has(folder));
  try {
    for (const write of plan.writes) {
      for (const folder of ancestorsOf(write.path)) {
        if (checkedFolders.has(folder)) continue;
        checkedFolders.add(folder);
        if (underWhole(folder)) continue;
        const entry = await lstatEntry(run.destReal, folder);
        if (entry.type === 'directory') continue;
        if (entry.type !== 'missing') throw new ApplyFailure('unsafe_path', `"${folder}" is no longer a folder`, { path: folder });
        await ops.rename(run.stagedFile(folder), folder);
        wholeFolders.add(folder);
        movedFolders.add(parentOf(folder));
        for (const below of writesBelow.get(folder) ?? []) {
          moved.add(below);
          movedFolders.add(parentOf(below));
          run.stepped(below);
        }
      }
    }
    await boundedAll(
      plan.writes.filter((write) => !moved.has(write.path)),
      async (write) => {
        await ops.rename(run.stagedFile(write.path), write.path);
        movedFolders.add(parentOf(write.path));
        moved.add(write.path);
        run.stepped(write.path);
      },
      { limit: FILES_IN_FLIGHT },
    );
  } finally {
    // In the plan's order, also after a failure part-way: what is in place, no more.
    for (const write of plan.writes) if (moved.has(write.path)) result.written.push(write.path);
  }
  // The folders made on the way too: their names in their parents must last as long as the outputs.
  for (const folder of checkedFolders) movedFolders.add(folder);
  for (const folder of [...movedFolders].sort().reverse()) await ops.fsyncDir(folder);
}

/** ── write_state: temporary file (fsynced), rename, fsync of the folder ── */
async function writeState(run: ApplyRun, state: State): Promise<void> {
  const { ops, result } = run;
  run.enter('write_state', 1);
  run.progress();
  const finalState: State = { ...state, published_at: formatRfc3339Utc(run.now()) };
  const stateBytes = stateFileBytes(finalState);
  await ops.writeFile(run.inStaging(STAGING_STATE_TEMP), stateBytes);
  await ops.rename(run.inStaging(STAGING_STATE_TEMP), STATE_FILE_NAME);
  result.stateWritten = true;
  result.state = finalState;
  result.stateSha256 = sha256Of(stateBytes);
  await ops.fsyncDir('');
}

/** ── cleanup: the staging folder (now only empty folders), its marker last ── */
async function cleanupStaging(run: ApplyRun): Promise<void> {
  run.enter('cleanup', 1);
  run.progress();
  await run.ops.removeTree(run.inStaging(STAGING_FILES_DIR));
  await run.ops.unlink(run.inStaging(STAGING_MARKER_NAME));
  await run.ops.rmdir(run.staging);
  run.stagingCreated = false;
  await run.pins.closeAll();
  run.enter('done', 0);
  run.progress();
}
