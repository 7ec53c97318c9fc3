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
import { startPrune, type WrittenManifest } from '../backup/backupStore';
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

/** The backup an apply kept, and the prune it started: await `pruned` (a warning, or undefined; never rejects) before saying the apply is done. */
export interface SettledBackup {
  backup: AppliedBackup | undefined;
  pruned: Promise<string | undefined>;
}

const NOTHING_PRUNED: Promise<string | undefined> = Promise.resolve(undefined);

/**
 * Records how the apply ended in the backup it kept (if it kept one: a refusal or an early failure
 * takes it back out, and one that holds nothing is removed: no backup, no backupId), then, after a
 * successful apply, moves all but the newest `keep` of the destination out of the kept set
 * (backupStore.ts startPrune): their files go while the caller journals and reads the destination.
 */
export async function settleBackup(
  plan: ReplacePlan,
  result: ApplyResult,
  writer: BackupWriter | undefined,
  request: BackupRequest | undefined,
): Promise<SettledBackup> {
  const made = writer?.made();
  if (!made || !request?.settings.enabled) return { backup: undefined, pruned: NOTHING_PRUNED };
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
    if (!settled.kept) return { backup: undefined, pruned: NOTHING_PRUNED };
    written = settled.written;
  } catch (cause) {
    warnings.push(`the end of the apply could not be recorded in ${made.folder}: ${(cause as Error).message}`);
  }
  let pruned = NOTHING_PRUNED;
  if (result.ok) {
    const pruneProblem = (cause: Error) => `older backups in ${path.dirname(made.folder)} could not be pruned: ${cause.message}`;
    try {
      const started = await startPrune(request.settings, path.dirname(made.folder), Date.now(), written);
      pruned = started.removal.then((failed) => (failed ? pruneProblem(failed) : undefined));
    } catch (cause) {
      warnings.push(pruneProblem(cause as Error));
    }
  }
  return { backup: warnings.length > 0 ? { ...backup, warning: warnings.join('; ') } : backup, pruned };
}

/** The result with the prune's warning added to its backup's. */
export function withPruneWarning(result: ApplyResult, warning: string | undefined): ApplyResult {
  if (warning === undefined || !result.backup) return result;
  const joined = result.backup.warning ? `${result.backup.warning}; ${warning}` : warning;
  return { ...result, backup: { ...result.backup, warning: joined } };
}
