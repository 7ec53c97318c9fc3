// Folders moved whole into a backup made by rename (docs/replace.md, "Folders moved whole"): a folder
// the plan found holding only recorded outputs it deletes (plan.wholeFolders) goes by one rename, as
// `mv` would move it, instead of one rename per file. The plan's list is only a hint. Right before
// the move each folder is proven again from its pinned self (the planned inode and device, a listing
// of exactly the planned names, no mount point at or below it); after the move the folder is checked
// again where it landed, and one that is not exactly the planned folder holding exactly the planned
// names (something added or swapped in the instant between) is moved back to where it stood. A folder
// that fails either proof goes per file, as before. Never moves a folder the plan did not name, the
// destination itself, or anything through a link.

import { lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { FingerprintEntry, PlanDelete } from '../../shared/plan';
import type { ApplyRun } from './applyRun';
import { joinRelative, lstatEntry } from './fingerprint';
import { readMountPointsSync } from './mountPoints';
import { ancestorsOf, parentOf } from './planPaths';
import { pinDirectory, pinRelative } from './pinnedDir';

const isBelow = (relative: string, folder: string) => relative === folder || relative.startsWith(`${folder}/`);
const sameNames = (names: readonly string[], expected: ReadonlySet<string>) =>
  names.length === expected.size && names.every((name) => expected.has(name));

/** Each folder of the plan's list and the names it must hold: the file deletes in it and the listed folders in it. */
function expectedNames(folders: readonly string[], deletes: readonly PlanDelete[]): Map<string, Set<string>> {
  const expected = new Map(folders.map((folder) => [folder, new Set<string>()]));
  for (const entry of deletes) if (entry.type === 'file') expected.get(parentOf(entry.path))?.add(path.posix.basename(entry.path));
  for (const folder of folders) expected.get(parentOf(folder))?.add(path.posix.basename(folder));
  return expected;
}

/**
 * Whether the staged folder that will take this one's place (if the new outputs need one there) has
 * its permission bits and owners: a folder of another mode (0750, setgid) or owner stays, per file.
 */
function replacedAlike(old: Stats, stagedPath: string): boolean {
  const staged = lstatSync(stagedPath, { throwIfNoEntry: false });
  if (staged === undefined) return true;
  return staged.isDirectory() && staged.mode === old.mode && staged.uid === old.uid && staged.gid === old.gid;
}

/** Whether the folder at `full` (pinned without following a link) is the planned one and lists exactly `names`. */
async function holdsExactly(full: string, planned: FingerprintEntry, names: ReadonlySet<string>): Promise<boolean> {
  const pin = await pinDirectory(full).catch(() => undefined);
  if (!pin) return false;
  try {
    return pin.ino.toString() === planned.ino && pin.dev.toString() === planned.dev && sameNames(readdirSync(pin.path), names);
  } catch {
    return false;
  } finally {
    await pin.close();
  }
}

/**
 * Moves the folders that still qualify into the backup, one rename each (the outermost of them), and
 * returns the deletes those renames did (every file and folder below). The rest go per file: their
 * folders in the backup are made here, as the backup writer left them to a possible rename.
 */
export async function moveWholeFolders(run: ApplyRun, deletes: readonly PlanDelete[]): Promise<Set<string>> {
  const done = new Set<string>();
  const backup = run.backupTaken;
  const listed = run.plan.wholeFolders ?? [];
  if (!backup?.moves || listed.length === 0 || !run.destPin) return done;
  const destPin = run.destPin;
  const planned = new Map(run.plan.fingerprint.entries.map((entry) => [entry.path, entry]));
  const expected = expectedNames(listed, deletes);
  const mounts = [...readMountPointsSync()];
  const mountedAtOrBelow = (folder: string) => {
    const real = path.join(run.destReal, ...folder.split('/'));
    return mounts.some((point) => point === real || point.startsWith(`${real}/`));
  };

  // ── proven again, deepest first: a folder qualifies only when every listed folder in it does ──
  const qualifies = new Set<string>();
  for (const folder of [...listed].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1))) {
    const entry = planned.get(folder);
    const names = expected.get(folder)!;
    if (entry?.type !== 'directory' || mountedAtOrBelow(folder)) continue;
    if (![...names].every((name) => !expected.has(`${folder}/${name}`) || qualifies.has(`${folder}/${name}`))) continue;
    const pin = await pinRelative(destPin, folder).catch(() => undefined);
    if (!pin) continue;
    try {
      if (pin.ino.toString() !== entry.ino || pin.dev.toString() !== entry.dev || !sameNames(readdirSync(pin.path), names)) continue;
      if (!replacedAlike(statSync(pin.path), joinRelative(run.destReal, run.stagedFile(folder)))) continue;
    } catch {
      continue;
    } finally {
      await pin.close();
    }
    qualifies.add(folder);
  }
  const tops = [...qualifies].filter((folder) => !ancestorsOf(folder).some((above) => qualifies.has(above))).sort();
  await makeBackupFolders(run, tops, listed);

  for (const top of tops) {
    const target = backup.targetOf(top);
    await run.ops.moveOut(top, target);
    const inside = [...qualifies].filter((folder) => isBelow(folder, top));
    let asPlanned = true;
    for (const folder of inside)
      asPlanned &&= await holdsExactly(path.join(target, path.relative(top, folder)), planned.get(folder)!, expected.get(folder)!);
    if (!asPlanned) {
      // Something was added or swapped in between the proof and the rename: all of it goes back where it stood.
      await run.ops.moveBack(target, top);
      continue;
    }
    for (const entry of deletes) if (isBelow(entry.path, top)) done.add(entry.path);
    const count = deletes.filter((entry) => isBelow(entry.path, top)).length;
    run.done += count;
    run.stepDone += count;
    run.progress(top);
  }
  const perFile = deletes.filter((entry) => !done.has(entry.path) && run.kind.keptInBackup(entry)).map((entry) => entry.path);
  await makeBackupFolders(run, perFile, listed);
  return done;
}

/** The backup's folders on the way to `paths` that the writer left unmade (at or below a listed folder), outermost first. */
async function makeBackupFolders(run: ApplyRun, paths: readonly string[], listed: readonly string[]): Promise<void> {
  const backup = run.backupTaken!;
  const folders = new Set(paths.flatMap(ancestorsOf).filter((folder) => listed.some((whole) => isBelow(folder, whole))));
  for (const folder of [...folders].sort()) {
    const at = backup.targetOf(folder);
    if ((await lstatEntry(at, '')).type === 'missing') await run.backupFs.mkdir(at, 0o700);
  }
}
