// Plans adopting an unmanaged folder: when every output a publish of the source would write already
// stands there byte for byte (compareFolder.ts), the plan writes only the state file that records
// them. It deletes nothing, writes no output, keeps every extra entry, and fingerprints the whole
// tree, so apply refuses a folder in which anything changed since. Read-only; refusals as data.

import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PlanOutcome, ReplacePlan } from '../../shared/plan';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { chooseStagingName, isRecordedFolder } from '../../shared/staging';
import type { HashPool } from '../engine/hashPool';
import { compareFolderDetailed } from './compareFolder';
import { lstatEntry, stateFileSha256, walkTree } from './fingerprint';
import { mountRefusal, refuse } from './planRefusals';
import { destinationSafetyRefusal, realPathOf, type ProtectedPath } from './safeDestination';

export interface PlanAdoptInput {
  destinationPath: string;
  sourcePath: string;
  /** The ids the state records: the workspace's; an unmanaged folder has no state to take them from. */
  configured?: { pipelineId?: string; destinationId?: string };
  baseUrl?: string;
  primary?: string;
  protectedPaths?: ProtectedPath[];
  pool?: HashPool;
  now?: () => Date;
}

export async function planAdopt(input: PlanAdoptInput): Promise<PlanOutcome> {
  try {
    return await planUnchecked(input);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return refuse('io_error', `planning failed while reading the disk: ${(cause as Error).message}`, code ? { errno: code } : undefined);
  }
}

async function planUnchecked(input: PlanAdoptInput): Promise<PlanOutcome> {
  const dest = path.resolve(input.destinationPath);
  const now = (input.now ?? (() => new Date()))();
  const plannedAt = formatRfc3339Utc(now);
  const pipelineId = input.configured?.pipelineId;
  const destinationId = input.configured?.destinationId;
  if (!pipelineId || !destinationId) {
    const missing = [!pipelineId ? 'pipeline_id' : undefined, !destinationId ? 'destination_id' : undefined].filter(Boolean);
    return refuse('ids_required', `an adopted folder's state records ${missing.join(' and ')}: configure them for the destination`, {
      missing,
    });
  }
  // The state is taken before the folder is read: a state file appearing while planning is seen below.
  const stateBefore = await stateFileSha256(dest);
  const detailed = await compareFolderDetailed({
    ...input,
    destinationPath: dest,
    configured: { pipelineId, destinationId },
    publishedAt: plannedAt,
  });
  if (!detailed.ok) return detailed;
  const { compare, state, bundleRealPath } = detailed.value;
  if (!compare.adoptable)
    return refuse('not_adoptable', `${dest} cannot be adopted: ${compare.blockers.map((blocker) => blocker.message).join('; ')}`, {
      blockers: compare.blockers,
    });
  const safety = await destinationSafetyRefusal({
    destinationPath: dest,
    sourceRealPath: bundleRealPath,
    mode: 'replace',
    protectedPaths: input.protectedPaths,
  });
  if (safety) return { ok: false, error: safety };

  const walk = await walkTree(dest);
  if (walk.mountPoints.length > 0) return mountRefusal(dest, walk.mountPoints);
  const stateSha256 = await stateFileSha256(dest);
  if (stateBefore !== null || stateSha256 !== null)
    return refuse('changed_while_planning', `${dest} gained a state file while the plan was being made; compare again`, {
      path: '.distributor.json',
    });
  if ((await lstatEntry(dest, '')).type !== 'directory') return refuse('changed_while_planning', `${dest} is no longer a folder`);

  const outputPaths = state.outputs.map((output) => output.path);
  const names = new Set(await fs.readdir(dest));
  const stagingName = chooseStagingName(
    (name) => names.has(name) || isRecordedFolder(name, outputPaths),
    () => randomBytes(4).toString('hex'),
  );
  const extras = compare.entries.filter((entry) => entry.status === 'extra').map((entry) => entry.path);
  const plan: ReplacePlan = {
    planVersion: 1,
    mode: 'adopt',
    action: 'replace',
    destinationPath: dest,
    destinationRealPath: await realPathOf(dest),
    destinationExists: true,
    sourcePath: bundleRealPath,
    stagingName,
    nestedDestinations: [],
    extras,
    deletes: [],
    writes: [],
    newState: state,
    fingerprint: { stateSha256: null, wholeTree: true, entries: walk.entries },
    plannedAt,
    summary: { deleteCount: 0, writeCount: 0, deleteBytes: 0, writeBytes: 0, changedCount: 0 },
  };
  return { ok: true, value: plan };
}
