// The sync axis's chip counts: how many rows carry each sync kind (shared/syncStatus.ts), kept by
// DestinationTable as rows change, never by a walk over every row per render; countSync is the
// reference it is held equal to. Pure: no DOM.

import { SYNC_KINDS } from '../../shared/syncKinds';
import type { SyncKind } from '../../shared/syncStatus';
import type { DestinationRow } from './destinationRows';

export type SyncCounts = Record<SyncKind, number>;

export const emptySyncCounts = (): SyncCounts => Object.fromEntries(SYNC_KINDS.map((kind) => [kind, 0])) as SyncCounts;

/** Adds (+1) or removes (-1) one row's sync. */
export function tallySync(counts: SyncCounts, row: DestinationRow, sign: 1 | -1): void {
  if (row.sync !== undefined) counts[row.sync] += sign;
}

export function countSync(rows: readonly DestinationRow[]): SyncCounts {
  const counts = emptySyncCounts();
  for (const row of rows) tallySync(counts, row, 1);
  return counts;
}
