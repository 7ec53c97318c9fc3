// How long a name and a path may be on the file systems a replace writes to, so that a name the
// disk cannot hold (a 255-byte `.md` name becomes a 257-byte `.html` one) is refused when planning,
// not discovered half-way through an apply. Pure. POSIX file systems count a name in bytes of UTF-8
// (ext4, XFS, Btrfs, tmpfs, APFS: 255); NTFS counts UTF-16 units (255). Paths: Linux PATH_MAX is 4096
// bytes with the final NUL, macOS 1024. On Windows, a name the contract allows but Windows does not
// keep as written (trailing dot or space, < > : " | ? *, a device name: shared/cleanPath.ts, the
// `not_portable` warning) is refused too: it would be written under another name, or not at all.

import { portabilityProblem } from '../../shared/cleanPath';
import type { PlanRefusal } from '../../shared/plan';

export const NAME_MAX = 255;

export function pathMaxFor(platform: NodeJS.Platform): number | undefined {
  if (platform === 'linux') return 4095;
  if (platform === 'darwin') return 1023;
  return undefined;
}

/** The length of one name as the file system counts it. */
export function nameLength(segment: string, platform: NodeJS.Platform): number {
  return platform === 'win32' ? segment.length : Buffer.byteLength(segment, 'utf8');
}

/** The first segment of a "/" path longer than the limit, with its length; undefined when all fit. */
export function segmentTooLong(
  relative: string,
  platform: NodeJS.Platform,
  limit: number = NAME_MAX,
): { segment: string; length: number } | undefined {
  for (const segment of relative.split('/')) {
    const length = nameLength(segment, platform);
    if (length > limit) return { segment, length };
  }
  return undefined;
}

/**
 * On win32, the first output (or its source file) whose path carries the `not_portable` warning, as a
 * refusal naming the path and why; every such path is listed in the details. Elsewhere, nothing.
 */
export function notPortableRefusal(
  writes: readonly { path: string; source_path: string }[],
  platform: NodeJS.Platform,
): PlanRefusal | undefined {
  if (platform !== 'win32') return undefined;
  const found: { path: string; source_path: string; problem: string }[] = [];
  for (const write of writes) {
    const problem = portabilityProblem(write.source_path) ?? portabilityProblem(write.path);
    if (problem) found.push({ path: write.path, source_path: write.source_path, problem });
  }
  const [first] = found;
  if (!first) return undefined;
  const more = found.length > 1 ? ` (and ${found.length - 1} more such path${found.length === 2 ? '' : 's'}, listed in the details)` : '';
  const what = first.path === first.source_path ? `"${first.path}"` : `"${first.source_path}" (published as "${first.path}")`;
  return {
    code: 'not_portable',
    message: `source file ${what} ${first.problem}; a replace on Windows refuses such names${more}`,
    details: { paths: found },
  };
}
