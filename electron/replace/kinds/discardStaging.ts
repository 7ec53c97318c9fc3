// Discarding staging as the apply runs it: it removes only top-level staging folders that are still
// interrupted ones, each with its marker last, and writes nothing.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isCleanRelativePath } from '../../../shared/cleanPath';
import { parseState } from '../../../shared/parseDocument';
import { type ReplacePlan } from '../../../shared/plan';
import { problem, type Problem } from '../../../shared/result';
import { isStagingFolderName, STAGING_MARKER_NAME } from '../../../shared/staging';
import { interruptedStagingFolders } from '../../engine/stagingReader';
import { joinRelative, lstatEntry, readStateFileBytes } from '../fingerprint';
import { ApplyFailure, invalidPlan as invalid } from '../applyErrors';
import type { ApplyKind } from './applyKind';

/** A discard removes only top-level staging folders that the one rule still calls interrupted, and writes nothing. */
export async function checkDiscardPlan(plan: ReplacePlan, destReal: string): Promise<Problem | undefined> {
  if (plan.writes.length > 0 || plan.newState) return invalid('discarding staging writes nothing').error;
  const bytes = await readStateFileBytes(destReal);
  const parsed = bytes instanceof Buffer ? parseState(bytes) : undefined;
  const recorded = parsed?.status === 'managed' ? parsed.state.outputs.map((output) => output.path) : [];
  const interrupted = new Set(interruptedStagingFolders(destReal, recorded));
  for (const entry of plan.deletes) {
    if (!isCleanRelativePath(entry.path) || entry.path.includes('/') || !isStagingFolderName(entry.path) || entry.type !== 'directory')
      return invalid(`discarding staging removes only top-level staging folders, but the plan removes "${entry.path}"`, {
        path: entry.path,
      }).error;
    if (!interrupted.has(entry.path))
      return problem('stale_plan', `"${entry.path}" is no longer the marked staging folder of an interrupted apply; plan again`, {
        path: entry.path,
      });
  }
  return undefined;
}

export interface DiscardOps {
  unlink(relative: string): Promise<void>;
  rmdir(relative: string): Promise<void>;
  removeTree(relative: string): Promise<void>;
}

/**
 * Removes one staging folder, its marker last: killed part-way, what is left still carries the
 * marker, so it is still reported as interrupted and can be discarded again. Folders go through
 * removeTree (never follows a link, never leaves the folder); anything else is unlinked as itself.
 */
export async function discardStagingFolder(name: string, destReal: string, ops: DiscardOps): Promise<void> {
  const names = (await fs.readdir(joinRelative(destReal, name))).filter((child) => child !== STAGING_MARKER_NAME).sort();
  for (const child of names) {
    const relative = path.posix.join(name, child);
    if ((await lstatEntry(destReal, relative)).type === 'directory') await ops.removeTree(relative);
    else await ops.unlink(relative);
  }
  if ((await lstatEntry(destReal, `${name}/${STAGING_MARKER_NAME}`)).type !== 'missing') await ops.unlink(`${name}/${STAGING_MARKER_NAME}`);
  await ops.rmdir(name);
}

export const discardStagingKind: ApplyKind = {
  kind: 'discard_staging',
  async check(run) {
    const refusal = await checkDiscardPlan(run.plan, run.destReal);
    if (refusal) throw new ApplyFailure(refusal.code, refusal.message, refusal.details);
    await run.pinDestination();
    return undefined;
  },
  async execute(run) {
    const { plan, ops } = run;
    // Only apply's own leftovers go, nothing of the publication; still kept, as every apply keeps
    // what it removes: each folder moved whole into the backup (rename never follows a link), or
    // copied and verified first and then removed as before.
    await run.takeBackup();
    run.pastNoReturn = true;
    run.enter('delete', plan.deletes.length);
    run.progress();
    for (const entry of plan.deletes) {
      if (run.backupTaken?.moves) await ops.moveOut(entry.path, run.backupTaken.targetOf(entry.path));
      else await discardStagingFolder(entry.path, run.destReal, ops);
      run.result.deleted.push(entry.path);
      run.stepped(entry.path);
    }
    await ops.fsyncDir('');
    run.enter('done', 0);
    run.progress();
  },
  keptInBackup: (entry) => !entry.path.includes('/'),
  // Its own targets count too: one it did not finish removing is still there, marked.
  leftovers: (plan) => plan.deletes.map((entry) => entry.path),
};
