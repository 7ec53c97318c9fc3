// The `listing` part of a destination's fingerprint (shared/verifyFreshness.ts): a digest of the
// folder's own entry names and its modification time, from the one lstat and readdir every reader of a
// destination does anyway. Both readers (inspectDestination.ts, scanReader.ts) call this, so a scan
// and an inspect of the same folder agree. Never reads below the folder.

import { hash } from 'node:crypto';

/** sha256 over the sorted names (NUL-separated: a name never holds NUL) and the folder's mtime. */
export function listingDigest(names: readonly string[], mtimeMs: number): string {
  const sorted = [...names].sort();
  return `sha256:${hash('sha256', `${mtimeMs}\0${sorted.join('\0')}`, 'hex')}`;
}
