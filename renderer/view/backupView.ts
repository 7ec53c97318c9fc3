// Backups as the renderer words them (docs/backups.md): where the next apply's backup goes (or that
// backups are off and what that means), a backup's row (when, the apply that made it, size, method,
// whether it can still be restored), what a prune would remove, and a restore's refusal in words
// with what to do next. Pure.

import { planCountsSentence, restoreCounts } from '../../shared/planCounts';
import { planKindOf } from '../../shared/planKinds';
import type { BackupSummary, BackupTargetInfo, RestorePlan } from '../../shared/backupSchema';
import type { HistoryRecord } from '../../shared/historySchema';
import { formatBytes, plural } from './format';
import { applyActionLabel } from './historyRows';

const METHOD_WORDS: Record<BackupSummary['method'], string> = {
  rename: 'moved (same file system)',
  copy: 'copied and verified (sha256)',
};
export const backupMethodWords = (method: BackupSummary['method']) => METHOD_WORDS[method];

/** The one sentence a confirmation says about the backup of what it removes, in parts: the folder shown as code. */
export function backupTargetParts(target: BackupTargetInfo): { before: string; folder?: string; after: string } {
  if (!target.enabled)
    return {
      before:
        'Backups are off for this workspace (its file says "backups": "off"): what this apply deletes or overwrites is gone for good, and it cannot be undone.',
      after: '',
    };
  const how =
    target.method === 'rename'
      ? 'moved there by rename (the same file system: no copy, as fast as deleting)'
      : 'copied there and verified by sha256 before anything is deleted (another file system)';
  return {
    before: 'What this apply deletes or overwrites is kept as a backup in ',
    folder: `${target.folder}/<UTC time>/`,
    after: `, ${how}. "Restore this backup" (Backups tab) undoes it.`,
  };
}

export function backupTargetSentence(target: BackupTargetInfo): string {
  const parts = backupTargetParts(target);
  return `${parts.before}${parts.folder ?? ''}${parts.after}`;
}

/** Why a backup cannot be restored from the list, or undefined when it can. */
export function notRestorableReason(backup: BackupSummary): string | undefined {
  if (backup.problem !== undefined) return `unreadable: ${backup.problem}`;
  if (backup.restoredAt !== undefined) return `already restored (${backup.restoredAt}): its entries are back in the destination`;
  return undefined;
}

export interface BackupRow {
  id: string;
  createdAt: string;
  madeBy: string;
  outcome: string;
  tone: 'tone-good' | 'tone-warning' | 'tone-danger' | 'tone-neutral';
  size: string;
  method: string;
  /** Absent: it can be restored. */
  notRestorable?: string;
}

const OUTCOME_TONES: Record<NonNullable<BackupSummary['outcome']>, BackupRow['tone']> = {
  applied: 'tone-good',
  refused: 'tone-warning',
  failed: 'tone-danger',
};

/** The list's rows, in the order given (newest first, as the engine lists them). */
export function backupRows(backups: readonly BackupSummary[]): BackupRow[] {
  return backups.map((backup) => {
    const reason = notRestorableReason(backup);
    return {
      id: backup.id,
      createdAt: backup.createdAt,
      madeBy: backup.problem !== undefined ? '—' : applyActionLabel(backup.action),
      outcome: backup.problem !== undefined ? 'unreadable' : (backup.outcome ?? 'interrupted'),
      tone: backup.problem !== undefined ? 'tone-danger' : backup.outcome ? OUTCOME_TONES[backup.outcome] : 'tone-warning',
      size: backup.problem !== undefined ? '—' : `${formatBytes(backup.sizeBytes)} · ${plural(backup.entryCount, 'entry', 'entries')}`,
      method: backup.problem !== undefined ? '—' : backupMethodWords(backup.method),
      ...(reason !== undefined ? { notRestorable: reason } : {}),
    };
  });
}

/**
 * What `pruneBackups` of one destination removes, as the engine decides it (backup/backupStore.ts):
 * every readable backup after the newest `keep`; an unreadable one (an apply killed while it wrote
 * the manifest) only once it is older than ten minutes, so it is listed as "may go".
 */
export function pruneCandidates(backups: readonly BackupSummary[], keep: number): { goes: BackupSummary[]; mayGo: BackupSummary[] } {
  const readable = backups.filter((backup) => backup.problem === undefined);
  return { goes: readable.slice(keep), mayGo: backups.filter((backup) => backup.problem !== undefined) };
}

/** A history record's backup, as its entry links to it. */
export type HistoryBackupLink =
  | { kind: 'none' }
  /** The apply kept one and it is still there: link, and Undo unless it was restored. */
  | { kind: 'kept'; id: string; restorable: boolean; restoredAt?: string }
  /** The apply kept one, since pruned or removed. */
  | { kind: 'gone'; id: string }
  /** A restore: the backup it put back. */
  | { kind: 'restored_from'; id: string };

export function historyBackupLink(
  record: Pick<HistoryRecord, 'action' | 'backupId'> & { destination: string },
  backups: ReadonlyMap<string, BackupSummary> | undefined,
): HistoryBackupLink {
  const id = record.backupId;
  if (id === undefined) return { kind: 'none' };
  if (planKindOf(record.action).putsBackBackup) return { kind: 'restored_from', id };
  const backup = backups?.get(backupKey(record.destination, id));
  if (!backup) return { kind: 'gone', id };
  return {
    kind: 'kept',
    id,
    restorable: notRestorableReason(backup) === undefined,
    ...(backup.restoredAt !== undefined ? { restoredAt: backup.restoredAt } : {}),
  };
}

/** The backups by backupKey(destination, id), for the history's links: a destination is its workspace id, else its path. */
export function backupsByKey(backups: readonly BackupSummary[]): Map<string, BackupSummary> {
  return new Map(backups.map((backup) => [backupKey(backup.destination.id ?? backup.destination.path, backup.id), backup]));
}

/** A backup's key across destinations: the id alone is only unique within one destination. */
export const backupKey = (destination: string, id: string) => `${destination}\u0000${id}`;

/** An API error or an apply's error (a Problem): both carry a code and maybe details. */
type ErrorLike = { code: string; details?: Record<string, unknown> | undefined };

export interface RefusalWords {
  title: string;
  /** What to do next. */
  next: string;
}

const REFUSALS: Record<string, RefusalWords> = {
  destination_changed: {
    title: 'The destination changed since the apply that made this backup',
    next: 'A restore puts back only what was there before that apply and removes only what it wrote, so it would lose the change named above: it is refused and nothing was changed. Look at that path; move it out of the destination if it is not wanted, then plan the restore again. A forced replace publishes a source whatever the folder holds.',
  },
  backup_changed: {
    title: 'The backup is no longer as it was kept',
    next: 'A file in the backup folder was changed or removed since it was kept, so the backup cannot put it back exactly: nothing was changed. Restore another backup of this destination, or publish it again with a forced replace.',
  },
  target_exists: {
    title: 'Something stands where the backup puts its own entry',
    next: 'A restore never overwrites: the path named above is in the destination now where the backup puts its own. Move it out of the destination (or delete it, if it is not wanted), then plan the restore again.',
  },
  stale_plan: {
    title: 'The destination changed since this restore was planned',
    next: 'Something on disk differs from what the restore was planned against, so it was refused and nothing was changed. Plan the restore again to see what it would do now.',
  },
  crosses_mount_point: {
    title: 'A mount point is inside the destination',
    next: 'A restore never crosses into another file system: unmount it (or move it out), then plan the restore again.',
  },
  backup_unreadable: {
    title: 'The backup cannot be read',
    next: 'Its manifest (backup.json) is missing or damaged, so the backup cannot say what it holds: it is never restored. An apply killed while it wrote the backup leaves one like this; prune removes it.',
  },
  backups_off: {
    title: 'Backups are off for this workspace',
    next: 'There is nothing to restore: the workspace file says "backups": "off".',
  },
  not_found: {
    title: 'This backup is no longer there',
    next: 'It was pruned or removed since the list was read: reload the list of backups.',
  },
};

/** A refused restore (plan or apply) in words: the engine's code, from a plan's refusal or the apply's error. */
export function restoreRefusalWords(error: ErrorLike): RefusalWords | undefined {
  return REFUSALS[restoreRefusalCode(error)];
}

/** The refusal's own code (planRestore sends it as details.refusal under `refused`), else the error's. */
export function restoreRefusalCode(error: ErrorLike): string {
  const refusal = (error.details as { refusal?: { code?: unknown } } | undefined)?.refusal;
  return typeof refusal?.code === 'string' ? refusal.code : error.code;
}

export interface RestoreLine {
  /** The list's class: the colours of a plan's delete, write and keep. */
  kind: 'delete' | 'write' | 'keep' | 'refused';
  op: string;
  path: string;
  detail: string;
}

/** Every line of a restore plan: what it removes (the apply's writes, its staging), what it puts back, what is already back, what cannot come back. */
export function restoreLines(plan: RestorePlan): RestoreLine[] {
  return [
    ...plan.removes.map((entry): RestoreLine => ({
      kind: 'delete',
      op: 'remove',
      path: entry.type === 'directory' ? `${entry.path}/` : entry.path,
      detail:
        entry.path === '.distributor.json'
          ? 'the state the apply wrote'
          : entry.type === 'directory'
            ? 'folder left empty'
            : formatBytes(entry.size),
    })),
    ...plan.removeStaging.map((name): RestoreLine => ({
      kind: 'delete',
      op: 'remove',
      path: `${name}/`,
      detail: 'staging folder an interrupted apply left',
    })),
    ...plan.puts.map((entry): RestoreLine => ({
      kind: 'write',
      op: 'put back',
      path: entry.type === 'directory' ? `${entry.path}/` : entry.path,
      detail:
        entry.path === '.distributor.json'
          ? 'the old state, last'
          : entry.type === 'directory'
            ? `folder, ${formatBytes(entry.size)} below it`
            : entry.type === 'symlink'
              ? 'link'
              : formatBytes(entry.size),
    })),
    ...plan.alreadyInPlace.map((entry): RestoreLine => ({
      kind: 'keep',
      op: 'in place',
      path: entry,
      detail: 'already back as it was kept',
    })),
    ...plan.notKept.map((entry): RestoreLine => ({
      kind: 'refused',
      op: 'not kept',
      path: entry,
      detail: 'could not be kept (a FIFO or device): not restored',
    })),
  ];
}

/** The one button that applies a restore, in the one vocabulary of counts: "Restore: update 2 files (the state file among them), delete 1 file". */
export function restoreConfirmLabel(plan: RestorePlan, host?: string): string {
  const sentence = planCountsSentence('restore', restoreCounts(plan));
  return host === undefined ? sentence : sentence.replace(/^Restore:/, `Restore on ${host}:`);
}
