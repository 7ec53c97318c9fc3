// Applies a restore plan in the order that keeps the contract's promise at every instant, also when
// killed between two steps: the state the apply left goes first (from then on no state claims
// anything), then its staging folders and outputs, then the kept entries come back, and the old state
// last, once every output it records is in place. Renamed backups move back by rename; copied ones
// are copied into a marked staging folder inside the destination first (verified by sha256), then
// renamed into place, so no half-written file ever stands at an output's path. Every mutation goes
// through FsOps and acts on one name inside a folder held open (replace/pinnedDir.ts); refusals and
// failures come back as data.

import { createHash } from 'node:crypto';
import path from 'node:path';
import { restorePlanSchema, type RestorePlan, type RestoreResult } from '../../shared/backupSchema';
import { formatRfc3339Utc } from '../../shared/rfc3339';
import {
  chooseStagingName,
  restoreStagingSourceId,
  STAGING_FILES_DIR,
  STAGING_MARKER_KIND,
  STAGING_MARKER_NAME,
  stagingMarkerText,
} from '../../shared/staging';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { checkFingerprint, lstatEntry } from '../replace/fingerprint';
import { nodeFsOps, type FsOps } from '../replace/fsOps';
import { childPath, pinDirectory, pinRelative, type PinnedDir } from '../replace/pinnedDir';
import { realPathOf } from '../replace/safeDestination';
import { hashRegularFile } from './fileDigest';
import { openPinnedBackup, type PinnedBackup } from './pinnedBackup';
import { backupFilesProblem } from './planRestore';

export interface RestoreOptions {
  fs?: FsOps;
  now?: () => Date;
}

class RestoreFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const parentOf = (relative: string) => (path.posix.dirname(relative) === '.' ? '' : path.posix.dirname(relative));
const ancestorsOf = (relative: string) => {
  const parts = relative.split('/');
  return parts.slice(0, -1).map((_, index) => parts.slice(0, index + 1).join('/'));
};

export async function applyRestore(planInput: RestorePlan, options: RestoreOptions = {}): Promise<RestoreResult> {
  const startedMs = performance.now();
  const inner = options.fs ?? nodeFsOps;
  const parsed = restorePlanSchema.safeParse(planInput);
  const given = planInput as Partial<RestorePlan> | undefined;
  const result: RestoreResult = {
    ok: false,
    backupId: String(given?.backupId ?? ''),
    destinationPath: String(given?.destinationPath ?? ''),
    changed: false,
    stateRestored: false,
    removed: [],
    restored: [],
    mutations: 0,
    durationMs: 0,
  };
  let destPin: PinnedDir | undefined;
  let backup: PinnedBackup | undefined;
  try {
    if (!parsed.success)
      throw new RestoreFailure('invalid_plan', `the restore plan is not a valid plan: ${parsed.error.issues[0]?.message ?? ''}`);
    const plan = parsed.data;
    const destReal = await realPathOf(plan.destinationPath);
    if (destReal !== plan.destinationRealPath)
      throw new RestoreFailure('stale_plan', `${plan.destinationPath} now resolves to ${destReal}, not ${plan.destinationRealPath}`);

    // ── check: the destination as planned, and every entry to put back still in the backup as kept ──
    const fresh = await checkFingerprint(destReal, plan.fingerprint);
    if (!fresh.fresh)
      throw new RestoreFailure(
        'stale_plan',
        `the destination changed since the restore was planned: "${fresh.path || '.'}" was ${fresh.planned}, is now ${fresh.now}; plan again`,
      );
    if (fresh.mountPoints.length > 0) throw new RestoreFailure('crosses_mount_point', `${fresh.mountPoints[0]} is a mount point now`);
    // The backup, held open and checked again as a whole: the source of every rename or copy below.
    const opened = await openPinnedBackup(plan.backupFolder);
    if (!opened.ok) throw new RestoreFailure(opened.error.code, opened.error.message);
    backup = opened.backup;
    const pinnedBackup = backup;
    if (pinnedBackup.manifest.id !== plan.backupId || pinnedBackup.manifest.method !== plan.method)
      throw new RestoreFailure(
        'backup_changed',
        `${plan.backupFolder} is not the backup ${plan.backupId} the restore was planned from; plan again`,
      );
    const changed = await backupFilesProblem(pinnedBackup, plan.puts, plan.backupFolder);
    if (changed) throw new RestoreFailure('backup_changed', `${changed.message}; it changed since the restore was planned`);
    const pin = await pinDirectory(destReal, { label: plan.destinationPath });
    destPin = pin;
    const planned = plan.fingerprint.entries.find((entry) => entry.path === '');
    if (planned && (planned.ino !== pin.ino.toString() || planned.dev !== pin.dev.toString()))
      throw new RestoreFailure('stale_plan', `${plan.destinationPath} was replaced by another folder since the restore was planned`);

    /** Runs one mutation on `relative`'s name inside its folder, held open (never reached through a link). */
    const at = async (relative: string, action: (full: string) => Promise<void>) => {
      const folder = await pinRelative(pin, parentOf(relative));
      try {
        result.mutations++;
        result.changed = true;
        await action(childPath(folder, path.posix.basename(relative)));
      } finally {
        await folder.close();
      }
    };
    const fsyncDir = async (relative: string) => {
      const folder = await pinRelative(pin, relative);
      try {
        result.mutations++;
        await inner.fsyncDir(folder.path);
      } finally {
        await folder.close();
      }
    };
    const ensureFolders = async (relative: string, made: Set<string>) => {
      for (const folder of ancestorsOf(relative)) {
        if (made.has(folder)) continue;
        const entry = await lstatEntry(destReal, folder);
        if (entry.type === 'missing') await at(folder, (full) => inner.mkdir(full));
        else if (entry.type !== 'directory') throw new RestoreFailure('target_exists', `"${folder}" is not a folder now`);
        made.add(folder);
      }
    };

    // ── copied backups: staged inside the destination (marked, 0700) and verified, before anything is removed ──
    let staging: string | undefined;
    const stagedPath = (relative: string) => `${staging}/${STAGING_FILES_DIR}/${relative}`;
    if (plan.method === 'copy' && plan.puts.some((entry) => entry.type !== 'directory')) {
      // Never a name the backup puts back itself (a discard's backup holds staging folders).
      const names = new Set([...plan.fingerprint.entries, ...plan.puts].map((entry) => entry.path.split('/')[0]));
      staging = chooseStagingName(
        (name) => names.has(name),
        () => createHash('sha256').update(`${Date.now()}${Math.random()}`).digest('hex').slice(0, 8),
      );
      await at(staging, (full) => inner.mkdir(full, 0o700));
      const marker = stagingMarkerText({
        kind: STAGING_MARKER_KIND,
        version: 1,
        created: formatRfc3339Utc((options.now ?? (() => new Date()))()),
        mode: 'force',
        source: { id: restoreStagingSourceId(plan.backupId), digest: 'sha256:' + '0'.repeat(64) },
        plannedAt: plan.plannedAt,
        pipeline_id: '',
        destination_id: '',
      });
      await at(`${staging}/${STAGING_MARKER_NAME}`, (full) => inner.writeFile(full, Buffer.from(marker, 'utf8')));
      await at(`${staging}/${STAGING_FILES_DIR}`, (full) => inner.mkdir(full, 0o700));
      const made = new Set<string>();
      for (const entry of plan.puts) {
        if (entry.type === 'directory') continue;
        for (const folder of ancestorsOf(entry.path)) {
          if (made.has(folder)) continue;
          await at(stagedPath(folder), (full) => inner.mkdir(full, 0o700));
          made.add(folder);
        }
        if (entry.type === 'symlink') {
          await at(stagedPath(entry.path), (full) => inner.symlink(entry.linkTarget ?? '', full));
          continue;
        }
        // Copied in chunks into the marked staging folder, hashed as read: a copy that is not the one
        // kept stops the restore before anything of the destination's own is touched.
        let copied: string | undefined;
        await pinnedBackup.at(entry.path, (from) =>
          at(stagedPath(entry.path), async (full) => {
            copied = await hashRegularFile(from, entry.size, { path: full, fs: inner });
          }),
        );
        if (copied === undefined || copied !== entry.sha256)
          throw new RestoreFailure('backup_changed', `the backup copy of "${entry.path}" no longer has the bytes it was kept with`);
      }
    }

    // ── the apply's state first: from here on no state claims anything until the old one is back ──
    const stateRemove = plan.removes.find((entry) => entry.path === STATE_FILE_NAME);
    if (stateRemove) {
      await at(STATE_FILE_NAME, (full) => inner.unlink(full));
      await fsyncDir('');
      result.removed.push(STATE_FILE_NAME);
    }
    for (const name of plan.removeStaging) {
      await at(name, (full) => inner.removeTree(full));
      result.removed.push(name);
    }
    for (const entry of plan.removes) {
      if (entry === stateRemove) continue;
      await at(entry.path, (full) => (entry.type === 'directory' ? inner.rmdir(full) : inner.unlink(full)));
      result.removed.push(entry.path);
    }

    // ── the kept entries back, each never over an existing path; the old state last ──
    const made = new Set<string>();
    const touched = new Set<string>(['']);
    const putBack = async (entry: RestorePlan['puts'][number]) => {
      await ensureFolders(entry.path, made);
      const there = await lstatEntry(destReal, entry.path);
      if (entry.type === 'directory' && plan.method === 'copy') {
        if (there.type === 'missing') await at(entry.path, (full) => inner.mkdir(full, entry.mode));
        made.add(entry.path);
      } else {
        if (there.type !== 'missing')
          throw new RestoreFailure(
            'target_exists',
            `"${entry.path}" appeared in the destination during the restore; it is not overwritten`,
          );
        if (plan.method === 'rename')
          // From the name inside the backup's pinned folder: never through a link planted in the backup.
          await pinnedBackup.at(entry.path, (from) => at(entry.path, (full) => inner.rename(from, full)));
        else {
          const staged = stagedPath(entry.path);
          const folder = await pinRelative(pin, parentOf(staged));
          try {
            await at(entry.path, (full) => inner.rename(childPath(folder, path.posix.basename(staged)), full));
          } finally {
            await folder.close();
          }
        }
      }
      touched.add(parentOf(entry.path));
      for (const folder of ancestorsOf(entry.path)) touched.add(folder);
      result.restored.push(entry.path);
    };
    const statePut = plan.puts.find((entry) => entry.path === STATE_FILE_NAME);
    for (const entry of plan.puts) if (entry !== statePut) await putBack(entry);
    for (const folder of [...touched].sort().reverse()) await fsyncDir(folder);
    if (statePut) {
      await putBack(statePut);
      await fsyncDir('');
      result.stateRestored = true;
    } else {
      result.stateRestored = plan.alreadyInPlace.includes(STATE_FILE_NAME);
    }
    if (staging !== undefined) await at(staging, (full) => inner.removeTree(full));
    result.ok = true;
    return result;
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
    result.error =
      cause instanceof RestoreFailure
        ? { code: cause.code, message: cause.message }
        : {
            code: 'io_error',
            message: `${errno ?? 'error'} while restoring: ${(cause as Error)?.message ?? String(cause)}${
              result.changed ? '; restore again (or force a replace) to finish' : '; nothing was changed'
            }`,
            details: errno ? { errno } : {},
          };
    return result;
  } finally {
    await backup?.close();
    await destPin?.close();
    result.durationMs = Math.round(performance.now() - startedMs);
  }
}
