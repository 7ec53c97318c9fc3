// The data of a replace: the plan (what will be deleted and written, and the destination as it was
// read), a refusal, apply's progress events and its result. Pure zod schemas; types inferred, never
// written twice. A plan is plain JSON so it can cross IPC/HTTP and be shown before anything changes.
// shared/plan.ts re-exports all of it beside the rules over a plan; planKinds.ts reads only this file,
// so the kind table and the rules that ask it never import each other.

import { z } from 'zod';
import { comparisonSchema } from './compare';
import { comparisonWordsSchema } from './comparisonWords';
import { problemSchema } from './problemSchema';
import type { Result } from './result';
import { stateSchema } from './documentSchemas';

export const replaceModeSchema = z.enum(['replace', 'force']);
export type ReplaceMode = z.infer<typeof replaceModeSchema>;

/**
 * What a plan does: a normal or forced replace (publish the source), a repair (rewrite only the
 * recorded outputs that drifted, from proven bytes; the state stays), discarding the staging
 * folder an interrupted apply left, or adopting an unmanaged folder whose files already match (only
 * the state file is written). One plan → confirm → apply path for all five.
 */
export const planKindSchema = z.enum(['replace', 'force', 'repair', 'discard_staging', 'adopt']);
export type PlanKind = z.infer<typeof planKindSchema>;

/** How the operator confirms an apply (shared/planKinds.ts confirmationOf, docs/confirmations.md): typing the destination id, or one explicit confirmation naming the counts. */
export const confirmationLevelSchema = z.enum(['typed_id', 'explicit']);
export type ConfirmationLevel = z.infer<typeof confirmationLevelSchema>;

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
  /** Normal replace: a recorded output whose bytes on disk were hashed while planning and are its recorded ones (this sha256). */
  sha256: z.string().optional(),
  /**
   * Normal replace planned to be applied at once (`applyAtOnce`): a large recorded output of its
   * recorded size that planning left unhashed; the apply hashes it against this, its recorded
   * sha256, beside its staging and before anything old is touched, and says in its result
   * (`checkedDeletes`) whether it changed.
   */
  hashAtApply: z.string().optional(),
});
export type PlanDelete = z.infer<typeof planDeleteSchema>;

/** A delete the apply hashed (`hashAtApply`): what planning would have said of it, `changed` or its proven `sha256`. */
export const checkedDeleteSchema = z.object({
  path: z.string(),
  changed: changedOnDiskSchema.optional(),
  sha256: z.string().optional(),
});
export type CheckedDelete = z.infer<typeof checkedDeleteSchema>;

export const planWriteSchema = z.object({
  path: z.string(),
  size: z.number(),
  sha256: z.string(),
  kind: z.enum(['source', 'generated']),
  source_path: z.string(),
});
export type PlanWrite = z.infer<typeof planWriteSchema>;

/** Repair: a drifted output it cannot rewrite, by name, and why (its bytes are not proven, a link is on its way, …). */
export const repairRefusalSchema = z.object({
  path: z.string(),
  /** What verify found there. */
  status: z.enum(['missing', 'size_mismatch', 'hash_mismatch', 'not_a_file']),
  code: z.string(),
  message: z.string(),
});
export type RepairRefusal = z.infer<typeof repairRefusalSchema>;

/** Repair: one drifted output it can rewrite: what verify found, and where the bytes are proven from. */
export const repairEntrySchema = z.object({
  path: z.string(),
  status: z.enum(['missing', 'size_mismatch', 'hash_mismatch', 'not_a_file']),
  origin: z.enum(['source_file', 'regenerated']),
});
export type RepairEntry = z.infer<typeof repairEntrySchema>;

export const repairDetailsSchema = z.object({
  /** How many recorded outputs verify found not ok (rewritten + kept + refused). */
  driftedCount: z.number(),
  /** The outputs repair rewrites: what verify found, and where the bytes are proven from. */
  repairs: z.array(repairEntrySchema),
  /**
   * Drifted outputs the repair could rewrite and the operator chose to leave as they are (a hotfix):
   * untouched by the apply, still drifted afterwards, their records in the state unchanged.
   */
  kept: z.array(repairEntrySchema).optional(),
  refused: z.array(repairRefusalSchema),
  /** Extra files in the destination: kept, never touched. */
  extras: z.array(z.string()),
  /** Staging folders an interrupted apply left (kept; Discard staging removes them). */
  interruptedStaging: z.array(z.string()),
});
export type RepairDetails = z.infer<typeof repairDetailsSchema>;

/** Discard staging: what one leftover staging folder holds, read from its marker and a walk of it. */
export const stagingContentsSchema = z.object({
  name: z.string(),
  /** The interrupted apply, from the marker: its mode, publication and when it was planned and started. */
  marker: z
    .object({
      mode: z.string(),
      source: z.object({ id: z.string(), digest: z.string() }),
      created: z.string(),
      plannedAt: z.string(),
      pipeline_id: z.string(),
      destination_id: z.string(),
    })
    .optional(),
  /** New outputs staged under files/ (files, and their bytes). */
  stagedFiles: z.number(),
  stagedBytes: z.number(),
  /** Old entries a forced replace had moved into trash/ and not yet removed. */
  trashEntries: z.number(),
  /** Whether the new state's temporary file is there. */
  stateTemp: z.boolean(),
});
export type StagingContents = z.infer<typeof stagingContentsSchema>;

export const planComparisonSchema = comparisonSchema.extend({
  /** The decision in the one wording (shared/comparisonWords.ts), with the destination's replace policy. */
  explanation: comparisonWordsSchema,
});

export const replacePlanSchema = z.object({
  planVersion: z.literal(1),
  mode: planKindSchema,
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
  /** The source against the destination (absent for discard staging, which reads no source). */
  comparison: planComparisonSchema.optional(),
  /** Normal replace: the extra entries in the destination (files no state records), kept untouched; repair lists its own in `repair.extras`. */
  extras: z.array(z.string()).optional(),
  /** In apply order: the state file first, then outputs (deepest first), then emptied folders. */
  deletes: z.array(planDeleteSchema),
  /**
   * Normal replace: folders whose listing, when planned, held only recorded outputs it deletes (regular
   * files) and folders of this list, outermost first. With a backup made by rename, the apply moves the
   * outermost of them into it by one rename each, once it has proven again that each still holds
   * exactly that (docs/replace.md, "Folders moved whole"); every other delete goes one by one. A hint:
   * the apply's own proof decides, so a forged entry can at most fall back to the per-file path.
   */
  wholeFolders: z.array(z.string()).optional(),
  /** The new outputs, in apply order. */
  writes: z.array(planWriteSchema),
  /** The state apply writes last. `published_at` is re-stamped with the time of the apply. Absent for repair (the state stays) and discard staging. */
  newState: stateSchema.optional(),
  /** Repair: what drifted, what is rewritten and what is refused by name. */
  repair: repairDetailsSchema.optional(),
  /** Discard staging: what each staging folder it removes holds. */
  staging: z.array(stagingContentsSchema).optional(),
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

/** Why an apply stopped, the one Problem shape; codes: stale_plan, source_changed, unsafe_path, crosses_mount_point, nested_not_acknowledged, partial_not_accepted, target_exists, io_error, cancelled, invalid_plan. */
export const applyErrorSchema = problemSchema;
export type ApplyError = z.infer<typeof applyErrorSchema>;

/** What an apply ran: a plan's kind, or the restore of a backup (backup/applyRestore.ts, through the same job). */
export const appliedKindSchema = z.union([planKindSchema, z.literal('restore')]);
export type AppliedKind = z.infer<typeof appliedKindSchema>;

/** The backup an apply kept of what it removed (or, for a restore, the backup it put back). */
export const appliedBackupSchema = z.object({
  id: z.string(),
  /** The backup's folder (absolute). */
  folder: z.string(),
  method: z.enum(['rename', 'copy']),
  /** The apply stands and its backup too, but keeping the record of it (or pruning old ones) failed: why, naming the file. */
  warning: z.string().optional(),
});
export type AppliedBackup = z.infer<typeof appliedBackupSchema>;

/** The one vocabulary of counts (shared/planCounts.ts computes them, from a plan's entries). */
export const COUNTED_CHANGES = ['create', 'update', 'delete', 'keep'] as const;
export const countedChangeSchema = z.enum(COUNTED_CHANGES);
export type CountedChange = z.infer<typeof countedChangeSchema>;

export const changeCountsSchema = z.object({
  /** Files (links, special files and the state file among them), never folders. */
  created: z.number(),
  updated: z.number(),
  deleted: z.number(),
  kept: z.number(),
  /** Bytes written by the creates and the updates, and the bytes the deletes remove. */
  createdBytes: z.number(),
  updatedBytes: z.number(),
  deletedBytes: z.number(),
  /** Folders made (a restore putting one back whole) and folders removed (emptied, or removed whole). */
  foldersCreated: z.number(),
  foldersDeleted: z.number(),
  /** The bucket the state file is counted in (once), or absent when the plan does not name it. */
  stateFile: countedChangeSchema.optional(),
});
export type ChangeCounts = z.infer<typeof changeCountsSchema>;

export const applyResultSchema = z.object({
  ok: z.boolean(),
  mode: appliedKindSchema,
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
  /** Where what it removed was kept (absent: backups off, nothing removed, or taken back out after a refusal or early failure). */
  backup: appliedBackupSchema.optional(),
  /** A completed apply: what it did, in the counts its plan was confirmed with (shared/planCounts.ts). */
  counts: changeCountsSchema.optional(),
  /** The plan's `hashAtApply` deletes as the apply found them, once hashed (shared/plan.ts planAsApplied merges them in). */
  checkedDeletes: z.array(checkedDeleteSchema).optional(),
});
export type ApplyResult = z.infer<typeof applyResultSchema>;
