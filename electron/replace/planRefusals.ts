// The refusals planning ends with, as data naming the path: one shape (shared/result.ts) for every
// step of a replace plan. Pure: never reads the disk.

import path from 'node:path';
import { formatIssuePath } from '../../shared/issues';
import type { PlanRefusal } from '../../shared/plan';
import { type Result, failed, type Failed } from '../../shared/result';
import { STAGING_FILES_DIR } from '../../shared/staging';
import { type OutputRecord } from '../../shared/stateSchema';
import { joinRelative } from './fingerprint';
import { nameLength, notPortableRefusal, pathMaxFor, segmentTooLong } from './nameLimits';

/** A step of planning: its value, or the refusal that ends the plan. */
export type Step<T> = Result<T, PlanRefusal>;
export type Refused = Failed<PlanRefusal>;

/** A refusal that ends the plan (shared/result.ts failed). */
export const refuse = failed;

export function mountRefusal(dest: string, mountPoints: string[]): Refused {
  const first = mountPoints[0] as string;
  const more = mountPoints.length > 1 ? ` (and ${mountPoints.length - 1} more: ${mountPoints.slice(1, 4).join(', ')})` : '';
  return refuse(
    'crosses_mount_point',
    `${joinRelative(dest, first)} is a mount point${more}; a replace never deletes or descends into another file system (like rm --one-file-system): unmount it, or move it out of the destination`,
    { path: first, mountPoints },
  );
}

/** A name (or the whole path) the file system cannot hold: refused now rather than failing mid-apply. */
export function nameLimitRefusal(
  destReal: string,
  stagingName: string,
  writes: OutputRecord[],
  nameMax: number,
  platform: NodeJS.Platform,
): Refused | null {
  const notPortable = notPortableRefusal(writes, platform);
  if (notPortable) return { ok: false, error: notPortable };
  const pathMax = pathMaxFor(platform);
  for (const write of writes) {
    const tooLong = segmentTooLong(write.path, platform, nameMax);
    if (tooLong) {
      return refuse(
        'name_too_long',
        `output "${write.path}" (from source file "${write.source_path}") has the name "${tooLong.segment}" of ${tooLong.length} bytes; the file system holds names of at most ${nameMax}`,
        { path: write.path, source_path: write.source_path, segment: tooLong.segment, length: tooLong.length, limit: nameMax },
      );
    }
    // Staged under <staging>/files/ first: the longest path apply uses for this output.
    const staged = path.join(destReal, stagingName, STAGING_FILES_DIR, ...write.path.split('/'));
    if (pathMax !== undefined && nameLength(staged, platform) > pathMax) {
      return refuse(
        'path_too_long',
        `output "${write.path}" (from source file "${write.source_path}") would need the path ${staged}, longer than the ${pathMax} bytes the system allows`,
        { path: write.path, source_path: write.source_path, limit: pathMax },
      );
    }
  }
  return null;
}

export function sourceRefusal(manifestFile: string, issues: { path: (string | number)[]; message: string; severity: string }[]): Refused {
  const errors = issues.filter((issue) => issue.severity === 'error');
  const text = errors
    .map((issue) => (issue.path.length > 0 ? `${formatIssuePath(issue.path)}: ${issue.message}` : issue.message))
    .join('; ');
  return refuse('source_invalid', `${manifestFile}: ${text}`, { file: manifestFile, issues: errors });
}
