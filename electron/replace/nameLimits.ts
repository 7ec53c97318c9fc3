// How long a name and a path may be on the file systems a replace writes to, so that a name the
// disk cannot hold (a 255-byte `.md` name becomes a 257-byte `.html` one) is refused when planning,
// not discovered half-way through an apply. Pure. POSIX file systems count a name in bytes of UTF-8
// (ext4, XFS, Btrfs, tmpfs, APFS: 255); NTFS counts UTF-16 units (255). Paths: Linux PATH_MAX is 4096
// bytes with the final NUL, macOS 1024.

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
