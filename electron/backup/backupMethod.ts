// Whether a backup can be made by rename: the backup folder on the destination's file system and in
// the same mount (a bind mount keeps the device id, yet rename(2) across it fails with EXDEV, so the
// mount table decides too). Otherwise a copy, verified by sha256. Read-only.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { BackupMethod } from '../../shared/backupSchema';
import { isInsideOrEqual } from '../engine/pathInside';
import { readMountPoints } from '../replace/mountPoints';

/** The nearest folder of `target` (itself or an ancestor) that exists, with its real path and device. */
export async function nearestExisting(target: string): Promise<{ path: string; realPath: string; dev: bigint }> {
  let at = path.resolve(target);
  for (;;) {
    const stat = await fs.stat(at, { bigint: true }).catch(() => undefined);
    if (stat?.isDirectory()) return { path: at, realPath: await fs.realpath(at), dev: stat.dev };
    const parent = path.dirname(at);
    if (parent === at) throw new Error(`no folder of ${target} exists`);
    at = parent;
  }
}

/** The mount point a real path lies in: the longest listed mount point above it ('' where no table exists). */
function mountOf(realPath: string, mounts: ReadonlySet<string>): string {
  let best = '';
  for (const point of mounts) if (isInsideOrEqual(realPath, point) && point.length > best.length) best = point;
  return best;
}

export async function backupMethodFor(destRealPath: string, backupFolder: string): Promise<BackupMethod> {
  const dest = await fs.stat(destRealPath, { bigint: true }).catch(() => undefined);
  const target = await nearestExisting(backupFolder);
  if (!dest || dest.dev !== target.dev) return 'copy';
  const mounts = await readMountPoints();
  return mountOf(destRealPath, mounts) === mountOf(target.realPath, mounts) ? 'rename' : 'copy';
}
