// operations/: may be imported by service/ and cli/. The apply use case, written once: apply a plan
// (replace/applyPlan.ts) and read the destination again (and, when asked, verify it against the new
// state), so that whoever asked learns both what the apply did (the ApplyResult, refused and failed
// ones included) and what is on disk now. Never
// throws for a refusal or a failure: those are in the result.

import { initialResult } from '../replace/applyResult';
import os from 'node:os';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { planCounts } from '../../shared/planCounts';
import { historyRecordOf, type HistoryTransport } from '../../shared/historySchema';
import { planAsApplied, type ApplyProgress, type ApplyResult, type ReplacePlan } from '../../shared/plan';
import type { Problem } from '../../shared/result';
import { appendHistory } from '../history/journal';
import { journalInsideDestination } from '../history/journalPath';
import type { VerifyReport } from '../../shared/verifyReport';
import type { HashPool } from '../engine/hashPool';
import { inspectDestination, type DestinationInspection } from '../engine/inspectDestination';
import { verifyDestination } from '../engine/verify';
import { applyPlan } from '../replace/applyPlan';
import type { VerifiedOutputs } from '../replace/publish';
import { backupForApply, settleBackup, type BackupRequest } from './applyBackup';
import { planKindOf } from '../../shared/planKinds';

export interface AppliedReplace {
  result: ApplyResult;
  /** The destination as it is after the apply; absent when it cannot be read at all, or was not asked for (inspectAfter false). */
  inspection?: DestinationInspection;
  /** With `verifyAfter`, once a new state is in place: its outputs hashed against it, as on disk now. */
  verify?: VerifyReport;
  /** When `inspection` was read (RFC 3339): the time a verify made after it is stamped with. */
  readAt?: string;
}

/** Where the apply is journaled, and who ran it. */
export interface HistoryTarget {
  file: string;
  transport: HistoryTransport;
  destinationId?: string;
}

export interface ApplyReplaceOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ApplyProgress) => void;
  /** The operator acknowledged the nested managed destinations a forced plan deletes. */
  includeNested?: boolean;
  /** The operator accepted a repair that leaves its refused outputs as they are. */
  acceptPartial?: boolean;
  /** Verify the destination against the state the apply wrote (the desktop app shows it at once). */
  verifyAfter?: boolean;
  /** Default true: read the destination again after the apply (`inspection`); false for a caller that shows only the result. */
  inspectAfter?: boolean;
  /** The worker pool for that verify and for the old outputs a plan applied at once leaves to the apply (the session's); without it, one is made. */
  pool?: HashPool;
  /** Journal the apply (applied, refused or failed) there, flushed before this returns. */
  history?: HistoryTarget;
  /** Keep what the apply removes in a backup (operations/applyBackup.ts); absent or off: removed entries are deleted. */
  backup?: BackupRequest;
  /** The plan's verified outputs, when the apply follows the plan at once (replace/applyPlan.ts). */
  verified?: VerifiedOutputs;
}

/** The OS user, also where the passwd database has no entry for the uid (a container). */
export function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? `uid ${process.getuid?.() ?? '?'}`;
  }
}

export async function applyReplacePlan(plan: ReplacePlan, options: ApplyReplaceOptions = {}): Promise<AppliedReplace> {
  // Checked again now, by inode: a link swapped in since the workspace was loaded can put the journal inside.
  const journalInside = options.history ? await journalInsideDestination(options.history.file, plan.destinationPath) : undefined;
  if (journalInside) return { result: refusedBeforeStart(plan.mode, plan.destinationPath, journalInside) };
  const writer = backupForApply(plan, options.backup);
  const bare = await applyPlan(plan, {
    signal: options.signal,
    onProgress: options.onProgress,
    includeNested: options.includeNested,
    acceptPartial: options.acceptPartial,
    ...(writer ? { backup: writer } : {}),
    ...(options.verified ? { verified: options.verified } : {}),
    ...(options.pool ? { pool: options.pool } : {}),
  });
  const backup = await settleBackup(plan, bare, writer, options.backup);
  // The plan with what the apply's own hash of old outputs found (a plan applied at once): counted and journaled as planned.
  const asApplied = planAsApplied(plan, bare);
  // A completed apply did what its plan said: the same counts the operator confirmed.
  const counted: ApplyResult = bare.ok ? { ...bare, counts: planCounts(asApplied) } : bare;
  const applied: ApplyResult = backup ? { ...counted, backup } : counted;
  const historyError = options.history ? await journal(asApplied, applied, options.history) : undefined;
  const result: ApplyResult = historyError ? { ...applied, historyError } : applied;
  if (options.inspectAfter === false) return { result };
  // Whatever happened, the caller should show the destination as it is now.
  const readAt = new Date().toISOString();
  const inspection = await inspectDestination(plan.destinationPath).catch(() => undefined);
  if (!inspection) return { result };
  // A repair and a discard keep the state: what is on disk is verified against it, also after a failure.
  const stateStands = result.stateWritten || planKindOf(plan.mode).keepsState;
  if (!options.verifyAfter || !stateStands || !inspection.state || inspection.status !== 'managed') return { result, inspection, readAt };
  const verify = await verifyDestination(plan.destinationPath, inspection.state, options.pool ? { pool: options.pool } : {}).catch(
    () => undefined,
  );
  return verify ? { result, inspection, verify, readAt } : { result, inspection, readAt };
}

/** An apply refused before anything was read or changed; not journaled (the journal is where it must not be). */
export function refusedBeforeStart(mode: ApplyResult['mode'], destinationPath: string, error: Problem): ApplyResult {
  return { ...initialResult(mode, destinationPath), error };
}

async function journal(plan: ReplacePlan, result: ApplyResult, target: HistoryTarget): Promise<Problem | undefined> {
  const record = historyRecordOf(plan, result, {
    at: formatRfc3339Utc(new Date()),
    user: osUser(),
    host: os.hostname(),
    transport: target.transport,
    ...(target.destinationId !== undefined ? { destinationId: target.destinationId } : {}),
    ...(result.backup ? { backupId: result.backup.id } : {}),
  });
  const appended = await appendHistory(target.file, record);
  return appended.ok ? undefined : appended.error;
}
