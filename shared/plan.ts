// The data of a replace: the plan (what will be deleted and written, and the destination as it was
// read), a refusal, apply's progress events and its result. Pure zod schemas; types inferred, never
// written twice. A plan is plain JSON so it can cross IPC/HTTP and be shown before anything changes.

import { z } from 'zod';
import { comparisonSchema } from './compare';
import { comparisonWordsSchema } from './comparisonWords';
import { problemSchema, type Result } from './result';
import { stateSchema } from './stateSchema';

export const replaceModeSchema = z.enum(['replace', 'force']);
export type ReplaceMode = z.infer<typeof replaceModeSchema>;

/** What lstat saw at one path, without following links. `missing` when nothing was there. */
export const entryTypeSchema = z.enum(['file', 'directory', 'symlink', 'other', 'missing']);
export type EntryType = z.infer<typeof entryTypeSchema>;

export const fingerprintEntrySchema = z.object({
  /** Relative to the destination, "/" separated; "" is the destination itself. */
  path: z.string(),
  type: entryTypeSchema,
  size: z.number(),
  /** Nanoseconds as a decimal string (bigint does not survive JSON). */
  mtimeNs: z.string(),
  ino: z.string(),
  /** The device id (decimal string): an entry on another device than the destination is a mount point. */
  dev: z.string(),
});
export type FingerprintEntry = z.infer<typeof fingerprintEntrySchema>;

export const fingerprintSchema = z.object({
  /** sha256 of the state file's bytes as planned; null when there was none. */
  stateSha256: z.string().nullable(),
  /** Whether `entries` is the whole tree (force) or only the paths the plan touches (replace). */
  wholeTree: z.boolean(),
  entries: z.array(fingerprintEntrySchema),
});
export type Fingerprint = z.infer<typeof fingerprintSchema>;

/** Why a recorded output's bytes on disk are not the ones its state records. */
export const changedOnDiskSchema = z.enum(['size_mismatch', 'hash_mismatch', 'not_a_file']);
export type ChangedOnDisk = z.infer<typeof changedOnDiskSchema>;

export const planDeleteSchema = z.object({
  path: z.string(),
  type: z.enum(['file', 'directory', 'symlink', 'other']),
  size: z.number(),
  /** Normal replace: this recorded output was changed on disk since it was published, and will be lost. */
  changed: changedOnDiskSchema.optional(),
});
export type PlanDelete = z.infer<typeof planDeleteSchema>;

export const planWriteSchema = z.object({
  path: z.string(),
  size: z.number(),
  sha256: z.string(),
  kind: z.enum(['source', 'generated']),
  source_path: z.string(),
});
export type PlanWrite = z.infer<typeof planWriteSchema>;

export const planComparisonSchema = comparisonSchema.extend({
  /** The decision in the one wording (shared/comparisonWords.ts), with the destination's replace policy. */
  explanation: comparisonWordsSchema,
});

export const replacePlanSchema = z.object({
  planVersion: z.literal(1),
  mode: replaceModeSchema,
  /** `nothing`: skip or skip_newer; the lists are empty and apply changes nothing. */
  action: z.enum(['replace', 'nothing']),
  /** Absolute, as given (resolved). */
  destinationPath: z.string(),
  /** The destination's real path (symlinks of its ancestors resolved) at plan time; apply re-checks it. */
  destinationRealPath: z.string(),
  /** Whether the destination directory existed; a publish to a missing directory creates it. */
  destinationExists: z.boolean(),
  /** The source bundle directory holding manifest.json. */
  sourcePath: z.string(),
  /** The source the destination's valid state recorded when planned (for the history journal). */
  recordedSource: z.object({ id: z.string(), digest: z.string() }).optional(),
  /**
   * The working folder apply creates inside the destination (shared/staging.ts): a name that is not
   * an entry on disk and that no old or new output (nor a folder of one) uses.
   */
  stagingName: z.string(),
  /**
   * Forced replace: folders below the destination that hold their own `.distributor.json` (other
   * managed destinations) and would be deleted. Apply refuses unless the confirmation acknowledges them.
   */
  nestedDestinations: z.array(z.string()),
  comparison: planComparisonSchema,
  /** In apply order: the state file first, then outputs (deepest first), then emptied folders. */
  deletes: z.array(planDeleteSchema),
  /** The new outputs, in apply order. */
  writes: z.array(planWriteSchema),
  /** The state apply writes last. `published_at` is re-stamped with the time of the apply. */
  newState: stateSchema.optional(),
  fingerprint: fingerprintSchema,
  plannedAt: z.string(),
  summary: z.object({
    deleteCount: z.number(),
    writeCount: z.number(),
    deleteBytes: z.number(),
    writeBytes: z.number(),
    /** Normal replace: how many deleted outputs were changed on disk since published (`changed` on each). */
    changedCount: z.number(),
  }),
});
export type ReplacePlan = z.infer<typeof replacePlanSchema>;

/** Why a plan was not made: the one Problem shape. */
export const planRefusalSchema = problemSchema;
export type PlanRefusal = z.infer<typeof planRefusalSchema>;

/** A plan, or why none was made. */
export type PlanOutcome = Result<ReplacePlan, PlanRefusal>;

/** Refusals caused by what the caller passed (bad manifest, bad URL, missing ids): CLI exit 2, not 1. */
export const INPUT_REFUSAL_CODES = [
  'source_invalid',
  'invalid_base_url',
  'ids_required',
  'primary_not_an_output',
  'invalid_input',
] as const;
export function isInputRefusal(refusal: PlanRefusal): boolean {
  return (INPUT_REFUSAL_CODES as readonly string[]).includes(refusal.code);
}

export const applyPhaseSchema = z.enum([
  'check',
  'verify',
  'stage',
  'backup',
  'remove_state',
  'delete',
  'move',
  'write_state',
  'cleanup',
  'done',
]);
export type ApplyPhase = z.infer<typeof applyPhaseSchema>;

/** The phase an apply is in, with its own count (files staged of files to stage), for words like "staging 3,400 / 10,000". */
export const applyStepSchema = z.object({ phase: applyPhaseSchema, done: z.number(), total: z.number() });
export type ApplyStep = z.infer<typeof applyStepSchema>;

export const applyProgressSchema = z.object({
  phase: applyPhaseSchema,
  step: applyStepSchema,
  /** Items done and planned over the whole apply (writes staged and moved, deletes, the state). */
  done: z.number(),
  total: z.number(),
  /** Output bytes staged so far. */
  bytes: z.number(),
  path: z.string().optional(),
});
export type ApplyProgress = z.infer<typeof applyProgressSchema>;

/** Why an apply stopped, the one Problem shape; codes: stale_plan, source_changed, unsafe_path, crosses_mount_point, nested_not_acknowledged, target_exists, io_error, cancelled, invalid_plan. */
export const applyErrorSchema = problemSchema;
export type ApplyError = z.infer<typeof applyErrorSchema>;

export const applyResultSchema = z.object({
  ok: z.boolean(),
  mode: replaceModeSchema,
  destinationPath: z.string(),
  error: applyErrorSchema.optional(),
  /** Whether anything on disk was changed (false for every refusal before the first mutation). */
  changed: z.boolean(),
  /**
   * Whether anything that was in the destination before (the old state, an old output, an extra
   * file of a forced replace) was removed or moved. False after a failure while staging (ENOSPC,
   * say): the old state and outputs are exactly as they were, even if the cleanup failed.
   */
  oldTouched: z.boolean(),
  /** Whether the new state file is in place: the destination now describes the new publication. */
  stateWritten: z.boolean(),
  /** Whether a staging folder is left behind (inspect reports it as an interrupted replace). */
  stagingLeft: z.boolean(),
  deleted: z.array(z.string()),
  written: z.array(z.string()),
  state: stateSchema.optional(),
  stateSha256: z.string().optional(),
  /** Filesystem mutations made (through FsOps). */
  mutations: z.number(),
  durationMs: z.number(),
  /** The apply stands, but its record could not be written to the history journal (why, naming the file). */
  historyError: problemSchema.optional(),
});
export type ApplyResult = z.infer<typeof applyResultSchema>;

/**
 * Whether a forced plan deletes other managed destinations that the operator has not acknowledged
 * (the one rule: applyPlan refuses such a plan; the CLI and the UI ask for the acknowledgement first).
 */
export function nestedNotAcknowledged(plan: Pick<ReplacePlan, 'nestedDestinations'>, includeNested: boolean | undefined): boolean {
  return plan.nestedDestinations.length > 0 && includeNested !== true;
}

/** "2 other managed destinations inside it (a, b)": how the plan's nested destinations are named in text. */
export function nestedDestinationsText(plan: Pick<ReplacePlan, 'nestedDestinations'>, limit = 5): string {
  const count = plan.nestedDestinations.length;
  const list = plan.nestedDestinations.slice(0, limit).join(', ');
  const more = count > limit ? ` and ${count - limit} more` : '';
  return `${count} other managed destination${count === 1 ? '' : 's'} inside it (${list}${more})`;
}

/**
 * What a failed apply left, in one sentence for the CLI and the UI: nothing changed; the new state in
 * place; the old state and outputs untouched (a failure while staging); or stopped past the point of
 * no return, with no state yet.
 */
export function applyAftermathText(
  result: Pick<ApplyResult, 'changed' | 'oldTouched' | 'stateWritten' | 'stagingLeft' | 'deleted' | 'written'>,
): string {
  if (!result.changed) return 'Nothing was changed.';
  if (result.stateWritten) return 'The new state is in place; only the cleanup of the staging folder did not finish.';
  if (!result.oldTouched) {
    const moved = result.written.length;
    return [
      'The old state and outputs are untouched: it stopped before anything that was there was removed or moved',
      moved > 0
        ? `; ${moved} new output${moved === 1 ? ' was' : 's were'} moved in with no state describing ${moved === 1 ? 'it' : 'them'} yet`
        : '',
      result.stagingLeft ? '; only its staging folder was left behind.' : '.',
    ].join('');
  }
  return `Deleted ${result.deleted.length}, moved ${result.written.length} before it stopped; the destination has no valid new state yet.`;
}
