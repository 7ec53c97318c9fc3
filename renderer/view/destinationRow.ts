// One destination row's shape, as the list, its health marks and its counts read it. Its own module so
// that destinationRows.ts (which builds rows) and health.ts (which ranks them) both read it without
// importing each other.

import type { DestinationStatus } from '../../shared/inspection';
import type { Instant } from '../../shared/rfc3339';
import type { SyncKind } from '../../shared/syncStatus';
import type { VerifyFreshness } from '../../shared/verifyFreshness';

/** stale: a verify result that no longer describes the disk (shared/verifyFreshness.ts). */
export type VerifyMark = 'intact' | 'drifted' | 'unverified' | 'stale';

/** Of a verify result: what it found, when it was taken and whether it still describes the disk. */
export interface VerifiedFacts {
  status: 'intact' | 'drifted';
  verifiedAt: string;
  freshness: VerifyFreshness;
}

export interface DestinationRow {
  id: string;
  name: string;
  relativePath: string;
  pipelineId?: string;
  /** undefined while the scan has not reached it. */
  status?: DestinationStatus;
  verify: VerifyMark;
  /** The verify result behind `verify`: what it found, when, and whether it still describes the disk. */
  verified?: VerifiedFacts;
  publishedAt?: string;
  interrupted: boolean;
  errorCount: number;
  warningCount: number;
  /** Lower-cased id, pipeline id and path, for search. */
  searchText: string;
  /** The workspace host it is on; absent for this machine's. */
  host?: string;
  publishedInstant?: Instant;
  /** The sync axis: Compare's decision against the configured source (shared/syncStatus.ts); absent until scanned. */
  sync?: SyncKind;
  /** The decision as Compare titles it ("Conflict: digest mismatch"), for the badge's tooltip. */
  syncTitle?: string;
}

export type StatusCounts = Record<DestinationStatus | 'pending', number>;
