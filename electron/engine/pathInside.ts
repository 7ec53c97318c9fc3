// Whether one absolute path is another or lies below it: by their text (normalized, absolute paths:
// resolve or realpath them first), or on the disk by real path and by device and inode (a bind mount
// shows a folder under another path, a link another way in). For the containment checks of replace/
// and the rule that the history journal and the backups are never inside a destination. Read-only.

import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Whether `inner` is `outer` or lies below it (both absolute and normalized). */
export function isInsideOrEqual(inner: string, outer: string): boolean {
  if (inner === outer) return true;
  const prefix = outer.endsWith(path.sep) ? outer : outer + path.sep;
  return inner.startsWith(prefix);
}

/** The real path of a path that may not exist yet: the real path of its nearest existing ancestor, plus the rest. */
export async function realPathOf(target: string): Promise<string> {
  const resolved = path.resolve(target);
  const real = await fs.realpath(resolved).catch(() => undefined);
  if (real !== undefined) return real;
  const parent = path.dirname(resolved);
  if (parent === resolved) return resolved;
  return path.join(await realPathOf(parent), path.basename(resolved));
}

export interface Identity {
  dev: bigint;
  ino: bigint;
}

/** The device and inode a path reaches (following links), or undefined when nothing is there. */
export async function identityOf(target: string): Promise<Identity | undefined> {
  const stat = await fs.stat(target, { bigint: true }).catch(() => undefined);
  return stat ? { dev: stat.dev, ino: stat.ino } : undefined;
}

export const sameIdentity = (a: Identity | undefined, b: Identity | undefined) =>
  a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;

/**
 * Whether `inner` is `outer` or lies below it, by path or by inode: some folder on the way up from
 * inner's real path is outer itself (the same device and inode), also when reached through a bind mount.
 */
export async function containsByIdentity(outer: string, inner: string): Promise<boolean> {
  const outerReal = await realPathOf(outer);
  let current = await realPathOf(inner);
  if (isInsideOrEqual(current, outerReal)) return true;
  const outerId = await identityOf(outerReal);
  if (!outerId) return false;
  for (;;) {
    if (sameIdentity(await identityOf(current), outerId)) return true;
    const parent = path.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

/**
 * The folder among `folders` that holds `file` (or is it): by their text, or on the disk, where some
 * folder on the way up from the file's real path is that folder itself (the same device and inode),
 * so a link or a bind mount leading into a destination is seen too. One stat per folder.
 */
export async function folderHolding<T extends { path: string }>(file: string, folders: readonly T[]): Promise<T | undefined> {
  const lexical = folders.find((folder) => isInsideOrEqual(path.resolve(file), path.resolve(folder.path)));
  if (lexical) return lexical;
  const onTheWay = new Set<string>();
  for (let current = await realPathOf(file); ; current = path.dirname(current)) {
    const id = await identityOf(current);
    if (id) onTheWay.add(`${id.dev}:${id.ino}`);
    if (path.dirname(current) === current) break;
  }
  for (const folder of folders) {
    const id = await identityOf(folder.path);
    if (id && onTheWay.has(`${id.dev}:${id.ino}`)) return folder;
  }
  return undefined;
}
