// The counts DestinationTable keeps as rows change (by status, by health mark, by sync kind), so the
// filter chips never walk every row per render: the counts of a fresh, all-pending table, and one
// row's move from its old counts to its new ones. Pure: no DOM.

import type { DestinationRow, StatusCounts } from './destinationRows';
import { emptyHealthCounts, tallyHealth, type HealthCounts } from './health';
import { emptySyncCounts, tallySync, type SyncCounts } from './syncCounts';

export interface RowCounts {
  status: StatusCounts;
  health: HealthCounts;
  sync: SyncCounts;
}

/** The counts of rows that are all pending, as a table has them the moment a workspace opens. */
export function pendingRowCounts(rows: readonly DestinationRow[]): RowCounts {
  const status: StatusCounts = { managed: 0, unmanaged: 0, empty: 0, invalid: 0, pending: rows.length };
  const health = emptyHealthCounts();
  // Every pending row carries the same marks: count one, not each.
  if (rows.length > 0) {
    tallyHealth(health, rows[0]!, 1);
    for (const mark of Object.keys(health) as (keyof HealthCounts)[]) health[mark] *= rows.length;
  }
  return { status, health, sync: emptySyncCounts() };
}

/** Moves one row, derived again, from the counts of what it was to those of what it is. */
export function recountRow(counts: RowCounts, before: DestinationRow, after: DestinationRow): void {
  counts.status[before.status ?? 'pending'] -= 1;
  counts.status[after.status ?? 'pending'] += 1;
  tallyHealth(counts.health, before, -1);
  tallyHealth(counts.health, after, 1);
  tallySync(counts.sync, before, -1);
  tallySync(counts.sync, after, 1);
}
