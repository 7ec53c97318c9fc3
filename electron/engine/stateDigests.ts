// The digests of a destination that inspectDestination.ts hands on for its fingerprint: the state
// file's sha256 and the listing digest (listingDigest.ts). A module of their own so that node:crypto
// is loaded only by a reader that wants them: the CLI's inspect prints neither.

import { createHash } from 'node:crypto';

export { listingDigest } from './listingDigest';

/** The one content digest of the app: `sha256:` and the hex digest, as the contract writes it. */
export function sha256Of(bytes: Uint8Array | string): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
