// operations/: the backup of one apply, written once for the Session and the CLI: which folder it
// goes to (the workspace's backups, one folder per destination), the BackupStep handed to applyPlan,
// and after the apply the manifest's `after` (how it ended, the state it left, which a restore
// expects to find) and the prune to `keep`. Never throws: what fails after the apply stands is a
// warning on the result, naming the file.

import path from 'node:path';
import type { BackupSettings } from '../../shared/backupSchema';
import { applyOutcomeOf } from '../../shared/historySchema';
import type { AppliedBackup, ApplyResult, ReplacePlan } from '../../shared/plan';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import { destinationBackupsFolder } from '../backup/backupLocation';
import { settleBackupEntries } from '../backup/backupSettle';
import { pruneBackups, type WrittenManifest } from '../backup/backupStore';
import { backupWriter, type BackupWriter } from '../backup/backupWriter';
import { planKindOf } from '../../shared/planKinds';

/** Where an apply keeps what it removes: the settings of its workspace (or the CLI's), and the destination's id there. */
export interface BackupRequest {
  settings: BackupSettings;
  destinationId?: string;
  now?: () => Date;
}

/** The writer for this plan, or none when backups are off. */
export function backupForApply(plan: ReplacePlan, request: BackupRequest | undefined): BackupWriter | undefined {
  if (!request?.settings.enabled) return undefined;
  const destinationFolder = destinationBackupsFolder(request.settings.folder, {
    ...(request.destinationId !== undefined ? { id: request.destinationId } : {}),
    path: plan.destinationPath,
  });
  return backupWriter({
    destinationFolder,
    ...(request.destinationId !== undefined ? { destinationId: request.destinationId } : {}),
    action: plan.mode,
    ...(request.now ? { now: request.now } : {}),
  });
}

/**
 * Records how the apply ended in the backup it kept (if it kept one: a refusal or an early failure
 * takes it back out, and one that holds nothing is removed: no backup, no backupId), then, after a
 * successful apply, keeps only the newest `keep` of the destination (backupStore.ts pruneBackups).
 */
export async function settleBackup(
  plan: ReplacePlan,
  result: ApplyResult,
  writer: BackupWriter | undefined,
  request: BackupRequest | undefined,
): Promise<AppliedBackup | undefined> {
  const made = writer?.made();
  if (!made || !request?.settings.enabled) return undefined;
  const backup: AppliedBackup = { id: made.id, folder: made.folder, method: made.method };
  const warnings: string[] = [];
  // A repair and a discard leave the state as it is; a replace leaves the one it wrote (none when it stopped midway).
  const stateLeft = planKindOf(plan.mode).keepsState ? (plan.fingerprint.stateSha256 ?? undefined) : result.stateSha256;
  let written: WrittenManifest | undefined;
  try {
    // Each entry the apply was to move is settled to what the backup really holds; one holding nothing is removed.
    const settled = await settleBackupEntries(
      made.folder,
      {
        at: formatRfc3339Utc((request.now ?? (() => new Date()))()),
        outcome: applyOutcomeOf(result),
        ...(stateLeft !== undefined ? { stateSha256: stateLeft } : {}),
      },
      planKindOf(plan.mode).writesOnlyState && result.stateWritten,
    );
    if (!settled.kept) return undefined;
    written = settled.written;
  } catch (cause) {
    warnings.push(`the end of the apply could not be recorded in ${made.folder}: ${(cause as Error).message}`);
  }
  if (result.ok) {
    try {
      await pruneBackups(request.settings, path.dirname(made.folder), Date.now(), written);
    } catch (cause) {
      warnings.push(`older backups in ${path.dirname(made.folder)} could not be pruned: ${(cause as Error).message}`);
    }
  }
  return warnings.length > 0 ? { ...backup, warning: warnings.join('; ') } : backup;
}
