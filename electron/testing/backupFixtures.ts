// A destination replaced (or force-replaced, or its staging discarded) with a backup kept, the way the restore tests start:
// what it was before (a snapshot), and the backup (its folder and method). For tests only.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BACKUP_KIND, type BackupManifest } from '../../shared/backupSchema';
import type { ApplyResult, ReplaceMode, ReplacePlan } from '../../shared/plan';
import { planKindOf } from '../../shared/planKinds';
import { settleBackupEntries } from '../backup/backupSettle';
import { backupWriter } from '../backup/backupWriter';
import { applyPlan } from '../replace/applyPlan';
import { planReplace } from '../replace/planReplace';
import { snapshotTree, writeBundle, writeInterruptedStaging, writeManagedDestination } from './fixtures';
import { discardPlanOf, publishedDestination, type Published } from './recoveryFixtures';

/** The id of the backup made on the n-th of June 2026 (n 1–9) at noon: ids sort as their days. */
export const dayBackupId = (n: number) => `2026-06-0${n}T120000.000Z`;

/**
 * The manifest of a replace's backup by rename of the destination `site`, made on the n-th (as
 * dayBackupId), holding `entries`: applied a second later, or still pending (an apply killed mid-way).
 */
export function dayBackupManifest(n: number, entries: BackupManifest['entries'], options: { pending?: boolean } = {}): BackupManifest {
  return {
    kind: BACKUP_KIND,
    version: 1,
    id: dayBackupId(n),
    action: 'replace',
    createdAt: `2026-06-0${n}T12:00:00Z`,
    destination: { id: 'site', path: '/srv/site', realPath: '/srv/site' },
    method: 'rename',
    stagingName: '.distributor-staging',
    stateSha256: null,
    entries,
    writes: [],
    ...(options.pending ? {} : { after: { at: `2026-06-0${n}T12:00:01Z`, outcome: 'applied' as const } }),
  };
}

/**
 * Applies `plan` keeping a backup in `backups`, then settles the backup as the session does after an
 * apply (its outcome and the state it left). Throws if the apply fails.
 */
export async function applyWithBackup(
  plan: ReplacePlan,
  backups: string,
): Promise<{ result: ApplyResult; folder: string; method: 'rename' | 'copy' }> {
  const writer = backupWriter({ destinationFolder: backups, action: plan.mode });
  const result = await applyPlan(plan, { backup: writer });
  if (!result.ok) throw new Error(result.error?.message);
  const made = writer.made()!;
  // A repair or a discard leaves the state as it was: the backup's "after" is the plan's state.
  const stateSha256 = result.stateSha256 ?? plan.fingerprint.stateSha256 ?? undefined;
  await settleBackupEntries(
    made.folder,
    { at: '2026-06-05T09:00:01Z', outcome: 'applied', ...(stateSha256 ? { stateSha256 } : {}) },
    planKindOf(plan.mode).writesOnlyState && result.stateWritten,
  );
  return { result, folder: made.folder, method: made.method };
}

export interface Replaced {
  dest: string;
  /** The destination before the apply (snapshotTree). */
  before: string;
  /** The backup's folder. */
  folder: string;
  method: 'rename' | 'copy';
}

/** `<root>/dest` (outputs, extras, a link), replaced from `<root>/source` with a backup kept in `backups`. */
export async function replacedWithBackup(
  root: string,
  mode: ReplaceMode,
  backups = path.join(root, 'backups', 'archive'),
): Promise<Replaced> {
  const dest = path.join(root, 'dest');
  const old = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(dest, {
    manifest: old,
    outputs: { 'report.html': 'old report', 'pages/a.html': 'old a', 'old/gone.html': 'gone' },
    extras: { 'notes.txt': 'operator notes', 'pages/keep.txt': 'keep me' },
  });
  await fs.symlink('../outside', path.join(dest, 'link'));
  await writeBundle(
    path.join(root, 'source'),
    { 'report.md': '# New', 'pages/a.md': '# A', 'b.txt': 'b' },
    { created: '2026-06-05T09:00:00Z' },
  );
  const before = await snapshotTree(dest);
  const planned = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode });
  if (!planned.ok) throw new Error(planned.error.message);
  const { folder, method } = await applyWithBackup(planned.value, backups);
  return { dest, before, folder, method };
}

/**
 * A published destination (recoveryFixtures.ts) with an interrupted apply's staging folder (staged
 * files, a forced replace's trash, a link pointing out of the tree) and the plan discarding it: what
 * the destination was before (staging included).
 */
export async function stagingToDiscard(root: string): Promise<Published & { before: string; plan: ReplacePlan }> {
  const published = await publishedDestination(root);
  const staging = await writeInterruptedStaging(published.dest, { 'report.html': 'half', 'pages/a.html': 'half a' });
  await fs.mkdir(path.join(staging, 'trash', 'old'), { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(staging, 'trash', 'old', 'gone.html'), 'gone');
  await fs.symlink(published.outside, path.join(staging, 'files', 'escape'));
  return { ...published, before: await snapshotTree(published.dest), plan: await discardPlanOf(published.dest) };
}

/** That staging folder discarded with a backup kept in `backups`: what it was before, and the backup. */
export async function discardedWithBackup(root: string, backups = path.join(root, 'backups', 'archive')): Promise<Replaced & Published> {
  const { plan, ...fixture } = await stagingToDiscard(root);
  const { folder, method } = await applyWithBackup(plan, backups);
  return { ...fixture, folder, method };
}
