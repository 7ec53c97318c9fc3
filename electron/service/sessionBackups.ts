// The Session's backups (docs/backups.md): list them (per destination, with where its next apply's
// backup goes), plan a restore under an opaque plan id (applied by applyPlan, with the destination id
// typed as for a forced replace, the stale-plan check in applyRestore), and prune. Never takes a
// backup's path from a request: a backup is named by its destination and its id, resolved here.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DestinationEntry, ResponseOf } from '../../shared/api';
import { fail } from '../../shared/apiError';
import type { BackupTargetInfo, RestorePlan } from '../../shared/backupSchema';
import { destinationBackupsFolder } from '../backup/backupLocation';
import { backupMethodFor } from '../backup/backupMethod';
import { listBackups, pruneBackups } from '../backup/backupStore';
import { backupSettingsOf, journalOf } from './sessionStorage';
import { applyBackupRestore, backupFolderOf } from '../operations/restoreBackup';
import { planRestore } from '../backup/planRestore';
import { reportApplied } from './sessionApplied';
import type { RequestValue, SessionContext } from './sessionContext';
import { requireConsent, type Consent } from './consentGate';
import { confirmationOf } from '../../shared/planKinds';

export interface StoredRestore {
  plan: RestorePlan;
  destination: string;
  confirmText: string;
}

const backupsOf = (session: SessionContext) => backupSettingsOf(session);
const foldersOf = (session: SessionContext, destination: DestinationEntry) => {
  const settings = backupsOf(session);
  return settings.enabled ? destinationBackupsFolder(settings.folder, destination) : undefined;
};

/** Where the next apply of this destination keeps what it removes, and how (rename on its file system, else copy). */
export async function backupTargetOf(session: SessionContext, destination: DestinationEntry): Promise<BackupTargetInfo> {
  const folder = foldersOf(session, destination);
  if (folder === undefined) return { enabled: false };
  const real = await fs.realpath(destination.path).catch(() => path.resolve(destination.path));
  const method = await backupMethodFor(real, folder).catch(() => 'copy' as const);
  return { enabled: true, folder, method };
}

export async function listBackupsHandler(
  session: SessionContext,
  request: RequestValue<'listBackups'>,
): Promise<ResponseOf<'listBackups'>> {
  const settings = backupsOf(session);
  if (request.destination === undefined) return { settings, backups: await listBackups(settings) };
  const destination = session.destination(request.destination);
  const folder = foldersOf(session, destination);
  return {
    settings,
    backups: folder === undefined ? [] : await listBackups(settings, folder),
    target: await backupTargetOf(session, destination),
  };
}

export async function pruneBackupsHandler(
  session: SessionContext,
  request: RequestValue<'pruneBackups'>,
): Promise<ResponseOf<'pruneBackups'>> {
  const settings = backupsOf(session);
  const folder = request.destination === undefined ? undefined : foldersOf(session, session.destination(request.destination));
  if (request.destination !== undefined && folder === undefined) return { removed: [], kept: 0 };
  return pruneBackups(settings, folder);
}

export async function planRestoreHandler(
  session: SessionContext,
  keep: (stored: StoredRestore) => string,
  request: RequestValue<'planRestore'>,
): Promise<ResponseOf<'planRestore'>> {
  const destination = session.destination(request.destination);
  const folder = backupFolderOf(backupsOf(session), destination, request.backup);
  if (!folder.ok)
    throw fail(folder.error.code === 'invalid_input' ? 'bad_request' : 'refused', folder.error.message, { refusal: folder.error });
  if (!(await exists(folder.value)))
    throw fail('not_found', `${destination.id} has no backup ${request.backup} (in ${path.dirname(folder.value)}): list its backups again`);
  const planned = await planRestore({ backupFolder: folder.value, destinationPath: destination.path });
  if (!planned.ok) throw fail('refused', planned.error.message, { refusal: planned.error });
  const stored: StoredRestore = { plan: planned.value, destination: destination.id, confirmText: destination.id };
  // A restore keeps no backup of what it removes: always the typed id (docs/confirmations.md).
  return { planId: keep(stored), plan: planned.value, confirmText: stored.confirmText, confirmation: confirmationOf('restore', false) };
}

const exists = (target: string) =>
  fs.lstat(target).then(
    () => true,
    () => false,
  );

export function applyRestoreJob(
  session: SessionContext,
  stored: StoredRestore,
  consent: Consent,
  consume: () => void,
): ResponseOf<'applyPlan'> {
  const destination = session.destination(stored.destination);
  if (path.resolve(destination.path) !== path.resolve(stored.plan.destinationPath))
    throw fail('refused', 'the restore is for another destination than its id names now: plan it again');
  requireConsent(
    {
      plan: stored.plan,
      confirmation: 'typed_id',
      confirmText: stored.confirmText,
      busy: session.jobs.isRunning('applyPlan'),
    },
    consent,
  );
  consume();
  const historyFile = journalOf(session);
  const job = session.jobs.start('applyPlan', async (context) => {
    // Its own writes are no news: the restore reads and verifies the destination afterwards.
    const unmute = session.muteLiveRefresh(destination.id);
    const applied = await applyBackupRestore(stored.plan, {
      verifyAfter: true,
      pool: session.hashPool(),
      history: { file: historyFile, transport: session.options.transport, destinationId: destination.id },
    }).finally(unmute);
    await reportApplied(session, context, destination, applied);
    return applied.result;
  });
  return { job };
}
