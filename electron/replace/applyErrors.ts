// The failures an apply ends with: a refusal or failure with a code, thrown inside the apply and
// returned as data (applyPlan.ts). Also how a folder that cannot be reached is named, and the
// refusals of a source that no longer gives the planned bytes.

import { failed, type Failed } from '../../shared/result';
import type { ManifestFile } from '../../shared/manifestSchema';
import { type ReplacePlan } from '../../shared/plan';

/** A refusal or failure with a code; caught in applyPlan and returned as data. */
export class ApplyFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export type PlannedWrite = ReplacePlan['writes'][number];

/** The manifest entry a write is made from: a plan whose manifest does not list it is no valid plan. */
export function manifestFileOf(manifestFiles: ReadonlyMap<string, ManifestFile>, write: PlannedWrite): ManifestFile {
  const file = manifestFiles.get(write.source_path);
  if (!file)
    throw new ApplyFailure('invalid_plan', `the plan writes "${write.path}" from "${write.source_path}", which its manifest does not list`);
  return file;
}

/**
 * The source read again does not give the planned bytes: the refusal the read gave, as this apply's
 * failure. Not "changed since the plan": a plan applied at once (`--yes`) leaves a large file's hash
 * to the apply, so the file may never have matched.
 */
export function sourceChanged(refusal: { message: string; details?: Record<string, unknown> }): ApplyFailure {
  return new ApplyFailure('source_changed', `${refusal.message}; the source is not what the plan expects: plan again`, refusal.details);
}

export function notThePlannedBytes(write: PlannedWrite): ApplyFailure {
  return new ApplyFailure('source_changed', `output "${write.path}" no longer renders to the bytes the plan recorded`, {
    path: write.path,
  });
}

/** Failures of reaching a folder, as apply names them: a link or file on the way, or another file system. */
export function reachFailure(cause: unknown, relative: string): unknown {
  const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (errno === 'ELOOP' || errno === 'ENOTDIR')
    return new ApplyFailure(
      'unsafe_path',
      `the folder of "${relative}" is no longer a real folder in the destination (a symbolic link or a file is on the way); nothing is done through a link`,
      { path: relative },
    );
  if (errno === 'EXDEV')
    return new ApplyFailure('crosses_mount_point', `"${relative}": ${(cause as Error).message.replace(/^EXDEV: /, '')}`, {
      path: relative,
    });
  return cause;
}

/** A plan that is not one, as data: the refusal a kind's check returns. */
export const invalidPlan = (message: string, details?: Record<string, unknown>): Failed => failed('invalid_plan', message, details);
