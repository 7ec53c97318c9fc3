// Where other file systems are mounted, so that a replace never descends into one or deletes across
// it (like `rm --one-file-system`). A bind mount of the same file system keeps the device id, so the
// device comparison alone misses it: on Linux the kernel's mount table (/proc/self/mountinfo) names
// every mount point. Elsewhere the table is empty and the device comparison is the rule. Read-only.

import { promises as fs, readFileSync } from 'node:fs';

/** Undoes mountinfo's octal escapes (`\040` is a space, `\011` a tab, `\012` a newline, `\134` a backslash). */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** The mount points of a /proc/self/mountinfo text (field 5 of each line). Pure; ignores lines it cannot read. */
export function parseMountInfo(text: string): string[] {
  const points: string[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const mountPoint = fields[4];
    if (fields.length < 5 || mountPoint === undefined || !mountPoint.startsWith('/')) continue;
    points.push(unescapeMountPath(mountPoint));
  }
  return points;
}

const MOUNT_INFO = '/proc/self/mountinfo';

/** Every mount point the kernel lists (empty where there is no such table). */
export async function readMountPoints(): Promise<Set<string>> {
  if (process.platform !== 'linux') return new Set();
  const text = await fs.readFile(MOUNT_INFO, 'utf8').catch(() => '');
  return new Set(parseMountInfo(text));
}

export function readMountPointsSync(): Set<string> {
  if (process.platform !== 'linux') return new Set();
  try {
    return new Set(parseMountInfo(readFileSync(MOUNT_INFO, 'utf8')));
  } catch {
    return new Set();
  }
}

/** The mount points strictly below `root` (a real path), outermost first. */
export function mountPointsBelow(root: string, points: Iterable<string>): string[] {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return [...points].filter((point) => point.startsWith(prefix)).sort();
}
