// Rescan never keeps a verify result it cannot prove (issue 24): a re-read of a destination that holds
// a fresh verify result whose basis has the outputs part also lstats each output that verify hashed,
// and hands the digest on with the inspection (its `outputsDigest`), so the session and the renderer
// apply the same rule (shared/verifyFreshness.ts) to the same row. Only such destinations pay the
// stats; the rest of a scan is untouched.

import path from 'node:path';
import type { ScanEntry } from '../../shared/api';
import { OUTPUTS_UNKNOWN } from '../../shared/verifyFreshness';
import { currentOutputsDigest } from '../engine/outputSignatures';
import type { StatCache } from '../engine/statCache';
import type { OpenWorkspace } from './sessionContext';

/** Sets the entry's outputsDigest when its held result needs it (OUTPUTS_UNKNOWN when the cache lost the record). */
export function withOutputsDigest(open: OpenWorkspace, statCache: StatCache | undefined, entry: ScanEntry, root: string): ScanEntry {
  const held = open.verifies.get(entry.destination);
  if (!held || !held.freshness.fresh || held.stamp.basis.outputs === undefined) return entry;
  const known = statCache?.known(path.resolve(root));
  entry.inspection.outputsDigest = known ? currentOutputsDigest(root, known) : OUTPUTS_UNKNOWN;
  return entry;
}
