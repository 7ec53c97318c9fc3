// A backup's manifest says what the backup really holds at every moment a crash can see it: an
// apply keeping a backup by rename, killed (SIGKILL, in a child) before every mutation, leaves a
// backup whose every entry marked kept is there, which holds nothing its manifest does not list, and
// which a list counts by what it holds (one holding nothing is listed as a problem, never as a
// backup); settled once the apply ends, every entry it moved is kept.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_FILES_DIR } from '../../shared/backupSchema';
import { lstatEntry } from '../replace/fingerprint';
import { planReplace } from '../replace/planReplace';
import { buildCrashChild, killBeforeEveryMutation } from '../testing/crashHarness';
import {
  makeTempDir,
  removeTempDir,
  snapshotTree,
  stateInvariantProblems,
  writeBundle,
  writeManagedDestination,
} from '../testing/fixtures';
import { isStagingFolderName } from '../../shared/staging';
import { fullMatrices } from '../testing/testSampling';
import { failAtEveryMutation } from '../testing/countingFsOps';
import { applyPlan } from '../replace/applyPlan';
import { nodeFsOps } from '../replace/fsOps';
import { backupWriter } from './backupWriter';
import { applyRestore } from './applyRestore';
import { planRestore } from './planRestore';
import { settleBackupEntries } from './backupSettle';
import { listBackups, readBackup } from './backupStore';
import { openPinnedBackup } from './pinnedBackup';

let workDir: string;
let childScript: string;
beforeAll(async () => {
  workDir = await makeTempDir('backup-crash-work-');
  childScript = await buildCrashChild(workDir);
});
afterAll(async () => removeTempDir(workDir));

const STEP_LOOP_TIMEOUT = 240_000;

/** `<root>/dest` with outputs, extras and a link, and the plan replacing it from `<root>/source`. */
async function planned(root: string, mode: 'replace' | 'force') {
  const dest = path.join(root, 'dest');
  const old = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(dest, {
    manifest: old,
    outputs: { 'report.html': 'old report', 'pages/a.html': 'old a', 'old/gone.html': 'gone' },
    extras: { 'notes.txt': 'operator notes' },
  });
  await fs.symlink('../outside', path.join(dest, 'link'));
  await writeBundle(path.join(root, 'source'), { 'report.md': '# New', 'b.txt': 'b' }, { created: '2026-06-05T09:00:00Z' });
  const plan = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode });
  if (!plan.ok) throw new Error(plan.error.message);
  return plan.value;
}

/** What the manifest claims, held to what its folder holds; returns how many entries it holds. */
async function checkTruthful(folder: string, label: string): Promise<number> {
  const read = await readBackup(folder);
  if (!read.ok) return 0; // killed before backup.json: a folder nobody lists as a backup
  let held = 0;
  for (const entry of read.manifest.entries) {
    const seen = await lstatEntry(path.join(folder, BACKUP_FILES_DIR), entry.path);
    const here = seen.type === entry.type && seen.ino === entry.ino;
    if (entry.kept) expect(here, `${label}: "${entry.path}" is marked kept`).toBe(true);
    else expect(entry.pending === true || !here, `${label}: "${entry.path}" is here, not listed`).toBe(true);
    if (here) held++;
  }
  const opened = await openPinnedBackup(folder);
  if (!opened.ok) throw new Error(`${label}: ${opened.error.message}`);
  try {
    expect(await opened.backup.strays(), `${label}: files not in the manifest`).toEqual([]);
  } finally {
    await opened.backup.close();
  }
  return held;
}

describe.each(['replace', 'force'] as const)('a %s keeping its backup by rename, killed before every mutation', (mode) => {
  it(
    'leaves a manifest that claims only what the backup holds, and a list that counts only that',
    async () => {
      const completedAt = await killBeforeEveryMutation(childScript, workDir, async (child, killStep) => {
        const root = await makeTempDir('backup-crash-');
        const label = `${mode}, killed before mutation ${killStep}`;
        const backups = path.join(root, 'backups');
        try {
          const plan = await planned(root, mode);
          const run = await child.run(plan, killStep, { backupsFolder: path.join(backups, 'archive') });
          const settings = { enabled: true as const, folder: backups, keep: 5 };
          const listed = await listBackups(settings);
          for (const summary of listed) {
            const held = await checkTruthful(summary.folder, label);
            if (held === 0) expect(summary.problem, `${label}: a backup holding nothing`).toBeDefined();
            else expect(summary.entryCount, `${label}: the count`).toBe(held);
          }
          if (run.killed) return 'killed';
          expect(run.result.error, label).toBeUndefined();
          // Settled as the session does when the apply ends: every entry it moved is kept.
          expect(listed).toHaveLength(1);
          const folder = listed[0]!.folder;
          await settleBackupEntries(folder, { at: '2026-06-05T09:00:01Z', outcome: 'applied' });
          const manifest = await readBackup(folder);
          expect(manifest.ok && manifest.manifest.entries.every((entry) => entry.kept && entry.pending === undefined)).toBe(true);
          expect(await checkTruthful(folder, `${label}, settled`)).toBe(manifest.ok ? manifest.manifest.entries.length : -1);
          return 'completed';
        } finally {
          await removeTempDir(root);
        }
      });
      expect(completedAt).toBeGreaterThan(10);
    },
    STEP_LOOP_TIMEOUT,
  );
});

/** Folders of only recorded outputs, published again at the same paths: moved whole out, and whole in (replace/wholeFolders.ts). */
async function plannedWhole(root: string) {
  const dest = path.join(root, 'dest');
  const old = await writeBundle(path.join(root, 'old-source'), { 'report.md': '# Old' }, { created: '2026-06-04T11:55:00Z' });
  await writeManagedDestination(dest, {
    manifest: old,
    outputs: {
      'report.html': 'old report',
      'pages/00/a.html': 'old a',
      'pages/00/b.html': 'old b',
      'pages/01/c.html': 'old c',
      'old/gone.html': 'gone',
    },
    extras: { 'notes.txt': 'operator notes' },
  });
  await writeBundle(
    path.join(root, 'source'),
    { 'report.md': '# New', 'pages/00/a.html': 'new a', 'pages/00/b.html': 'new b', 'pages/01/c.html': 'new c' },
    { created: '2026-06-05T09:00:00Z' },
  );
  const plan = await planReplace({ destinationPath: dest, sourcePath: path.join(root, 'source'), mode: 'replace' });
  if (!plan.ok) throw new Error(plan.error.message);
  expect(plan.value.wholeFolders).toEqual(['old', 'pages', 'pages/00', 'pages/01']);
  return { dest, plan: plan.value, before: await snapshotTree(dest) };
}

/** A snapshot without the staging folder an interrupted apply left (it holds only the apply's own files). */
const withoutStaging = (snapshot: string) =>
  snapshot
    .split('\n')
    .filter((line) => !isStagingFolderName(line.split(/[ /]/)[0] ?? ''))
    .join('\n');

describe('a replace moving folders whole into its backup and into place, killed before every mutation', () => {
  it(
    'keeps the contract, a truthful backup, and an undo that puts the destination back as it was, also between the two renames',
    async () => {
      let betweenTheRenames = 0;
      const completedAt = await killBeforeEveryMutation(childScript, workDir, async (child, killStep) => {
        const root = await makeTempDir('backup-crash-whole-');
        const label = `killed before mutation ${killStep}`;
        const backups = path.join(root, 'backups');
        try {
          const { dest, plan, before } = await plannedWhole(root);
          const run = await child.run(plan, killStep, { backupsFolder: path.join(backups, 'archive') });
          expect(await stateInvariantProblems(dest), label).toEqual([]);
          const listed = await listBackups({ enabled: true as const, folder: backups, keep: 5 });
          let held = 0;
          for (const summary of listed) held += await checkTruthful(summary.folder, label);
          if (run.killed && listed[0] && (await lstatEntry(path.join(listed[0].folder, BACKUP_FILES_DIR), 'pages')).type === 'directory') {
            if ((await lstatEntry(dest, 'pages')).type === 'missing') betweenTheRenames++;
          }
          if (held === 0) {
            // Nothing was moved yet: the old state and outputs are where they were.
            expect(withoutStaging(await snapshotTree(dest)), label).toBe(before);
            return run.killed ? 'killed' : 'completed';
          }
          const restore = await planRestore({ backupFolder: listed[0]!.folder, destinationPath: dest });
          if (!restore.ok) throw new Error(`${label}: ${restore.error.code}: ${restore.error.message}`);
          expect((await applyRestore(restore.value)).error, label).toBeUndefined();
          // Killed in the cleanup after its marker went, an apply leaves an empty, unmarked staging folder: no one's.
          const after = await snapshotTree(dest);
          expect(
            after.split('\n').filter((line) => /^\.distributor-staging[^ ]*\//.test(line)),
            label,
          ).toEqual([]);
          expect(withoutStaging(after), label).toBe(before);
          return run.killed ? 'killed' : 'completed';
        } finally {
          await removeTempDir(root);
        }
      });
      expect(completedAt).toBeGreaterThan(10);
      // Kill points fall after the folder went into the backup and before the staged one came in (a sample may miss them).
      if (fullMatrices()) expect(betweenTheRenames).toBeGreaterThan(0);
    },
    STEP_LOOP_TIMEOUT,
  );
});

describe('a replace moving folders whole, failing with EIO at every mutation', () => {
  it(
    'keeps the contract and a truthful backup, and its undo puts the destination back as it was',
    async () => {
      await failAtEveryMutation(
        async (fs) => {
          const root = await makeTempDir('backup-fail-whole-');
          const { plan } = await plannedWhole(root);
          const result = await applyPlan(plan, {
            fs,
            backup: backupWriter({ destinationFolder: path.join(root, 'b'), action: 'replace' }),
          });
          expect(result.ok).toBe(true);
          await removeTempDir(root);
        },
        async (faulty, { label }) => {
          const root = await makeTempDir('backup-fail-whole-');
          try {
            const { dest, plan, before } = await plannedWhole(root);
            const writer = backupWriter({ destinationFolder: path.join(root, 'b'), action: 'replace' });
            const result = await applyPlan(plan, { fs: faulty, backup: writer });
            expect(['io_error', 'backup_failed'], label).toContain(result.error?.code);
            expect(await stateInvariantProblems(dest), label).toEqual([]);
            const made = writer.made();
            const held = made ? await checkTruthful(made.folder, label).catch(() => 0) : 0;
            if (held > 0) {
              const restore = await planRestore({ backupFolder: made!.folder, destinationPath: dest });
              if (!restore.ok) throw new Error(`${label}: ${restore.error.code}: ${restore.error.message}`);
              expect((await applyRestore(restore.value)).error, label).toBeUndefined();
            }
            expect(withoutStaging(await snapshotTree(dest)), label).toBe(before);
          } finally {
            await removeTempDir(root);
          }
        },
        { inner: nodeFsOps, codes: ['EIO'] },
      );
    },
    STEP_LOOP_TIMEOUT,
  );
});
