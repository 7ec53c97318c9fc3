// Opaque handles (plan ids): random, so that a stale or forged id never resolves. Never derived from
// a path or a counter the renderer could guess.

import { randomBytes } from 'node:crypto';

/** A short random id, unguessable enough that a stale or forged id never resolves. */
export function opaqueId(prefix: string): string {
  return `${prefix}-${randomBytes(9).toString('base64url')}`;
}
