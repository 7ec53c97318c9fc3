// Plans discarding what an interrupted apply left: the staging folders the one rule of
// shared/staging.ts calls interrupted (a staging name, a valid marker, no recorded output in it), and
// nothing else. The plan says what each holds (which publication, how many files staged, what a
// forced replace had moved to its trash) and fingerprints every entry of it, so apply refuses a
// folder that changed since. Read-only; never follows a link, never enters a mount point.

import path from 'node:path';
import type { FingerprintEntry, PlanOutcome, ReplacePlan, StagingContents } from '../../shared/plan';
import { problem } from '../../shared/result';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { parseStagingMarker, STAGING_FILES_DIR, STAGING_STATE_TEMP, STAGING_TRASH_DIR } from '../../shared/staging';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { inspectDestination } from '../engine/inspectDestination';
import { interruptedStagingFolders, stagingCandidates } from '../engine/stagingReader';
import { fingerprintPaths, joinRelative, lstatEntry, stateFileSha256, walkTree } from './fingerprint';
import { realPathOf } from './safeDestination';

export interface PlanDiscardStagingInput {
  destinationPath: string;
  now?: () => Date;
}

const refuse = (code: string, message: string, details?: Record<string, unknown>): PlanOutcome => ({
  ok: false,
  error: problem(code, message, details),
});

/** What one staging folder holds, from its marker and its walked entries (relative to the folder). */
export function stagingContentsOf(name: string, markerText: string | undefined, entries: readonly FingerprintEntry[]): StagingContents {
  const marker = parseStagingMarker(markerText);
  const staged = entries.filter((entry) => entry.path.startsWith(`${STAGING_FILES_DIR}/`) && entry.type !== 'directory');
  return {
    name,
    ...(marker
      ? {
          marker: {
            mode: marker.mode,
            source: marker.source,
            created: marker.created,
            plannedAt: marker.plannedAt,
            pipeline_id: marker.pipeline_id,
            destination_id: marker.destination_id,
          },
        }
      : {}),
    stagedFiles: staged.length,
    stagedBytes: staged.reduce((sum, entry) => sum + (entry.type === 'file' ? entry.size : 0), 0),
    trashEntries: entries.filter(
      (entry) => entry.path.startsWith(`${STAGING_TRASH_DIR}/`) && !entry.path.slice(STAGING_TRASH_DIR.length + 1).includes('/'),
    ).length,
    stateTemp: entries.some((entry) => entry.path === STAGING_STATE_TEMP),
  };
}

export async function planDiscardStaging(input: PlanDiscardStagingInput): Promise<PlanOutcome> {
  try {
    return await planUnchecked(input);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return refuse('io_error', `planning failed while reading the disk: ${(cause as Error).message}`, code ? { errno: code } : undefined);
  }
}

async function planUnchecked(input: PlanDiscardStagingInput): Promise<PlanOutcome> {
  const dest = path.resolve(input.destinationPath);
  const destEntry = await lstatEntry(dest, '');
  if (destEntry.type === 'symlink')
    return refuse('destination_is_symlink', `${dest} is a symbolic link; nothing is removed through a link`);
  if (destEntry.type !== 'directory') return refuse('no_staging', `${dest} is not a folder: there is no staging folder to discard`);
  const inspection = await inspectDestination(dest);
  const recorded = inspection.status === 'managed' ? (inspection.state?.outputs ?? []).map((output) => output.path) : [];
  const names = interruptedStagingFolders(dest, recorded);
  if (names.length === 0)
    return refuse('no_staging', `${dest} holds no staging folder of an interrupted apply: there is nothing to discard`);
  const markers = new Map(stagingCandidates(dest, names).map((candidate) => [candidate.name, candidate.markerText]));

  const stateSha256 = await stateFileSha256(dest);
  const base = await fingerprintPaths(dest, ['', STATE_FILE_NAME], stateSha256);
  const entries = [...base.entries];
  const staging: StagingContents[] = [];
  for (const name of names) {
    const walk = await walkTree(joinRelative(dest, name));
    if (walk.mountPoints.length > 0) {
      const first = `${name}/${walk.mountPoints[0] as string}`;
      return refuse('crosses_mount_point', `${joinRelative(dest, first)} is a mount point; nothing is removed in another file system`, {
        path: first,
      });
    }
    const inside = walk.entries.filter((entry) => entry.path !== '');
    staging.push(stagingContentsOf(name, markers.get(name), inside));
    for (const entry of walk.entries) entries.push({ ...entry, path: entry.path === '' ? name : `${name}/${entry.path}` });
  }
  const plan: ReplacePlan = {
    planVersion: 1,
    mode: 'discard_staging',
    action: 'replace',
    destinationPath: dest,
    destinationRealPath: await realPathOf(dest),
    destinationExists: true,
    sourcePath: '',
    ...(inspection.state && inspection.status === 'managed'
      ? { recordedSource: { id: inspection.state.source.manifest.id, digest: inspection.state.source.manifest.digest } }
      : {}),
    stagingName: '',
    nestedDestinations: [],
    deletes: names.map((name) => ({ path: name, type: 'directory' as const, size: 0 })),
    writes: [],
    staging,
    fingerprint: { stateSha256, wholeTree: false, entries: entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) },
    plannedAt: formatRfc3339Utc((input.now ?? (() => new Date()))()),
    summary: {
      deleteCount: names.length,
      writeCount: 0,
      deleteBytes: entries.filter((entry) => entry.type === 'file' && entry.path.includes('/')).reduce((sum, entry) => sum + entry.size, 0),
      writeBytes: 0,
      changedCount: 0,
    },
  };
  return { ok: true, value: plan };
}
