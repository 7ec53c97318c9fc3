// The history journal's record (issue 13 §4): one line of JSON per plan applied, refused or failed,
// written by whoever applied it (the app, the browser host, the CLI, an agent) into the journal of
// the workspace. zod, so the reader checks every line it did not write itself. Pure: no Node.

import { z } from 'zod';
import { changeCountsSchema, type ApplyResult, type ReplacePlan } from './plan';
import { planCounts, restoreCounts, type RestoreCountInput } from './planCounts';
import { planKindOf } from './planKinds';

export const HISTORY_FORMAT = 1;

/** How many paths a record names in one list (the count says how many there were): a line stays short. */
export const HISTORY_PATHS = 100;

const namedPaths = (paths: readonly string[]) => ({ count: paths.length, paths: paths.slice(0, HISTORY_PATHS) });

/** Who applied it: the API's transports, and the command line applying on its own. */
export const historyTransportSchema = z.enum(['electron', 'http', 'agent', 'cli']);
export type HistoryTransport = z.infer<typeof historyTransportSchema>;

const sourceRefSchema = z.object({ id: z.string(), digest: z.string() });

export const historyRecordSchema = z.looseObject({
  format: z.literal(HISTORY_FORMAT),
  /** RFC 3339, UTC: when the apply ended. */
  at: z.string(),
  user: z.string(),
  host: z.string(),
  transport: historyTransportSchema,
  destination: z.object({ id: z.string().optional(), path: z.string() }),
  /** The plan's kind: replace, force, repair, discard_staging (and the recovery actions as they come). */
  action: z.string(),
  sourcePath: z.string(),
  /** The plan's deletes and writes as the first records counted them: kept for the readers of older versions. */
  counts: z.object({ delete: z.number(), write: z.number(), keep: z.number().optional() }),
  /** What the plan does in the one vocabulary of counts (shared/planCounts.ts); absent in records written before it. */
  changes: changeCountsSchema.optional(),
  /** What the destination recorded before, and what it records after (absent where there is no state). */
  sourceBefore: sourceRefSchema.optional(),
  sourceAfter: sourceRefSchema.optional(),
  result: z.object({
    /** applied: done; refused: stopped before anything changed (a stale plan, say); failed: an error, perhaps midway. */
    outcome: z.enum(['applied', 'refused', 'failed']),
    changed: z.boolean(),
    stateWritten: z.boolean(),
    code: z.string().optional(),
    message: z.string().optional(),
  }),
  durationMs: z.number(),
  /** The backup of what the apply removed, where one was kept. */
  backupId: z.string().optional(),
  /**
   * A repair: the drifted outputs it was to rewrite, and those the operator kept as they are (still
   * drifted after it), each counted and the first HISTORY_PATHS named.
   */
  repair: z
    .object({
      rewrite: z.object({ count: z.number(), paths: z.array(z.string()) }),
      kept: z.object({ count: z.number(), paths: z.array(z.string()) }),
    })
    .optional(),
});
export type HistoryRecord = z.infer<typeof historyRecordSchema>;

/** A problem with one line of the journal: the line number and why it was skipped. */
export const historyLineIssueSchema = z.object({
  line: z.number(),
  message: z.string(),
  torn: z.boolean(),
  /** not_json, not_a_record, too_long, torn; more_like_this for the summary of those past the cap. */
  code: z.string().optional(),
  /** On a summary: which code it stands for, and how many issues of it were only counted. */
  omitted: z.object({ code: z.string(), count: z.number() }).optional(),
});
export type HistoryLineIssue = z.infer<typeof historyLineIssueSchema>;

/** Stopped before it changed anything, for a reason of the plan or the disk's state (not an error). */
const REFUSAL_CODES = new Set([
  'stale_plan',
  'source_changed',
  'unsafe_path',
  'crosses_mount_point',
  'nested_not_acknowledged',
  'target_exists',
  'invalid_plan',
  'cancelled',
  'backup_inside_destination',
  'backup_changed',
  'backup_untrusted',
  'history_inside_destination',
]);

export function applyOutcomeOf(result: Pick<ApplyResult, 'ok' | 'changed' | 'error'>): HistoryRecord['result']['outcome'] {
  if (result.ok) return 'applied';
  return !result.changed && result.error && REFUSAL_CODES.has(result.error.code) ? 'refused' : 'failed';
}

export interface HistoryContext {
  at: string;
  user: string;
  host: string;
  transport: HistoryTransport;
  destinationId?: string;
  backupId?: string;
}

/** The record of one apply, from the plan, its result and who ran it. */
export function historyRecordOf(plan: ReplacePlan, result: ApplyResult, context: HistoryContext): HistoryRecord {
  const after = result.state?.source.manifest ?? (result.stateWritten ? plan.newState?.source.manifest : undefined);
  // A repair keeps the extra files (and every output that was fine); a replace the outputs it does not write.
  const keep =
    plan.repair !== undefined
      ? plan.repair.extras.length
      : planKindOf(plan.mode).deletesWholeTree || !plan.newState
        ? undefined
        : Math.max(0, plan.newState.outputs.length - plan.summary.writeCount);
  return {
    format: HISTORY_FORMAT,
    at: context.at,
    user: context.user,
    host: context.host,
    transport: context.transport,
    destination: { ...(context.destinationId !== undefined ? { id: context.destinationId } : {}), path: plan.destinationPath },
    action: plan.mode,
    sourcePath: plan.sourcePath,
    counts: { delete: plan.summary.deleteCount, write: plan.summary.writeCount, ...(keep !== undefined ? { keep } : {}) },
    changes: planCounts(plan),
    ...(plan.recordedSource ? { sourceBefore: plan.recordedSource } : {}),
    ...(after && result.stateWritten ? { sourceAfter: { id: after.id, digest: after.digest } } : {}),
    result: {
      outcome: applyOutcomeOf(result),
      changed: result.changed,
      stateWritten: result.stateWritten,
      ...(result.error ? { code: result.error.code, message: result.error.message } : {}),
    },
    durationMs: result.durationMs,
    ...(context.backupId !== undefined ? { backupId: context.backupId } : {}),
    ...(plan.repair !== undefined
      ? {
          repair: {
            rewrite: namedPaths(plan.repair.repairs.map((entry) => entry.path)),
            kept: namedPaths((plan.repair.kept ?? []).map((entry) => entry.path)),
          },
        }
      : {}),
  };
}

/** The record of a restore (backup/applyRestore.ts through the apply job): action `restore`, its backup's id and folder. */
export function historyRecordOfRestore(
  plan: RestoreCountInput & {
    backupId: string;
    backupFolder: string;
    destinationPath: string;
    summary: { removeCount: number; putCount: number };
  },
  result: ApplyResult,
  context: HistoryContext,
): HistoryRecord {
  return {
    format: HISTORY_FORMAT,
    at: context.at,
    user: context.user,
    host: context.host,
    transport: context.transport,
    destination: { ...(context.destinationId !== undefined ? { id: context.destinationId } : {}), path: plan.destinationPath },
    action: 'restore',
    sourcePath: plan.backupFolder,
    counts: { delete: plan.summary.removeCount, write: plan.summary.putCount },
    changes: restoreCounts(plan),
    result: {
      outcome: applyOutcomeOf(result),
      changed: result.changed,
      stateWritten: result.stateWritten,
      ...(result.error ? { code: result.error.code, message: result.error.message } : {}),
    },
    durationMs: result.durationMs,
    backupId: plan.backupId,
  };
}
