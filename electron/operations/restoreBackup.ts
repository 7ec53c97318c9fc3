// operations/: the restore of a backup, written once for the Session and the CLI: plan it
// (backup/planRestore.ts) from a backup id of the destination's folder of backups, apply it
// (backup/applyRestore.ts) as an apply like the others (an ApplyResult of mode `restore`, journaled
// in the history, the destination read again and verified), and mark the backup restored. Never
// throws for a refusal or a failure: those are data.

import os from 'node:os';
import path from 'node:path';
import type { BackupSettings, RestorePlan } from '../../shared/backupSchema';
import { restoreCounts } from '../../shared/planCounts';
import { historyRecordOfRestore } from '../../shared/historySchema';
import type { ApplyResult } from '../../shared/plan';
import { problem, type Problem, type Result } from '../../shared/result';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { destinationBackupsFolder, isBackupId } from '../backup/backupLocation';
import { updateBackup } from '../backup/backupStore';
import { restoreKind } from '../backup/restoreKind';
import type { HashPool } from '../engine/hashPool';
import { inspectDestination } from '../engine/inspectDestination';
import { interruptedStagingFolders } from '../engine/stagingReader';
import { verifyDestination } from '../engine/verify';
import { appendHistory } from '../history/journal';
import type { FsOps } from '../replace/fsOps';
import { journalInsideDestination } from '../history/journalPath';
import { osUser, refusedBeforeStart, type AppliedReplace, type HistoryTarget } from './applyReplacePlan';

/** The folder of one backup of a destination: refused as `invalid_input` for an id that is not a backup's name, `backups_off` when off. */
export function backupFolderOf(
  settings: BackupSettings,
  destination: { id?: string; path: string },
  backupId: string,
): Result<string, Problem> {
  if (!settings.enabled)
    return { ok: false, error: problem('backups_off', 'backups are off for this workspace: there is nothing to restore') };
  if (!isBackupId(backupId))
    return {
      ok: false,
      error: problem(
        'invalid_input',
        `"${backupId}" is not a backup id (a UTC time like 2026-12-04T062000.123Z, as backups list shows it)`,
      ),
    };
  return { ok: true, value: path.join(destinationBackupsFolder(settings.folder, destination), backupId) };
}

export async function planBackupRestore(
  settings: BackupSettings,
  destination: { id?: string; path: string },
  backupId: string,
): Promise<Result<RestorePlan, Problem>> {
  const folder = backupFolderOf(settings, destination, backupId);
  if (!folder.ok) return folder;
  return restoreKind.plan({ backupFolder: folder.value, destinationPath: destination.path });
}

export interface RestoreApplyOptions {
  history?: HistoryTarget;
  verifyAfter?: boolean;
  pool?: HashPool;
  /** The restore's own mutations (the crash tests count and kill them). */
  fs?: FsOps;
}

export async function applyBackupRestore(plan: RestorePlan, options: RestoreApplyOptions = {}): Promise<AppliedReplace> {
  const journalInside = options.history ? await journalInsideDestination(options.history.file, plan.destinationPath) : undefined;
  if (journalInside) return { result: refusedBeforeStart('restore', plan.destinationPath, journalInside) };
  const restored = await restoreKind.applyPlan(plan, options.fs ? { fs: options.fs } : {});
  const stagingLeft = await Promise.resolve()
    .then(() => interruptedStagingFolders(plan.destinationRealPath).length > 0)
    .catch(() => false);
  let warning: string | undefined;
  if (restored.ok)
    await updateBackup(plan.backupFolder, (manifest) => ({ ...manifest, restoredAt: formatRfc3339Utc(new Date()) })).catch(
      (cause: Error) => void (warning = `the restore stands, but ${plan.backupFolder} could not be marked restored: ${cause.message}`),
    );
  const applied: ApplyResult = {
    ok: restored.ok,
    mode: restoreKind.kind,
    destinationPath: plan.destinationPath,
    ...(restored.error ? { error: restored.error } : {}),
    changed: restored.changed,
    oldTouched: restored.changed,
    stateWritten: restored.stateRestored,
    stagingLeft,
    deleted: restored.removed,
    written: restored.restored,
    mutations: restored.mutations,
    durationMs: restored.durationMs,
    backup: { id: plan.backupId, folder: plan.backupFolder, method: plan.method, ...(warning ? { warning } : {}) },
    ...(restored.ok ? { counts: restoreCounts(plan) } : {}),
  };
  const historyError = options.history ? await journalRestore(plan, applied, options.history) : undefined;
  const result: ApplyResult = historyError ? { ...applied, historyError } : applied;
  const readAt = new Date().toISOString();
  const inspection = await inspectDestination(plan.destinationPath).catch(() => undefined);
  if (!inspection) return { result };
  if (!options.verifyAfter || !inspection.state || inspection.status !== 'managed') return { result, inspection, readAt };
  const verify = await verifyDestination(plan.destinationPath, inspection.state, options.pool ? { pool: options.pool } : {}).catch(
    () => undefined,
  );
  return verify ? { result, inspection, verify, readAt } : { result, inspection, readAt };
}

async function journalRestore(plan: RestorePlan, result: ApplyResult, target: HistoryTarget): Promise<Problem | undefined> {
  const record = historyRecordOfRestore(plan, result, {
    at: formatRfc3339Utc(new Date()),
    user: osUser(),
    host: os.hostname(),
    transport: target.transport,
    ...(target.destinationId !== undefined ? { destinationId: target.destinationId } : {}),
  });
  const appended = await appendHistory(target.file, record);
  return appended.ok ? undefined : appended.error;
}
