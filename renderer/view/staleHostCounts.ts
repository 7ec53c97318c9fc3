// The chip counts without the rows of hosts that are not connected (issue 28): while a host is lost,
// its destinations' statuses are what they were when it was last connected, not what they are, so
// they are taken out of the status, health and sync counts and counted apart as "host lost, last
// known". Walks only those hosts' rows, never the whole list. Pure: no DOM.

import type { HostState } from '../../shared/api';
import type { DestinationRow, StatusCounts } from './destinationRows';
import { tallyHealth, type HealthCounts } from './health';
import { tallySync, type SyncCounts } from './syncCounts';

export interface CurrentCounts {
  status: StatusCounts;
  health: HealthCounts;
  sync: SyncCounts;
  /** Rows left out: their host is not connected, so their statuses are last known, not current. */
  stale: number;
}

/** The names of the hosts whose rows are last known: every host but a connected one. */
export function staleHostNames(hosts: readonly HostState[]): ReadonlySet<string> {
  return new Set(hosts.filter((host) => host.state !== 'connected').map((host) => host.name));
}

/** The table's counts, less `staleRows` (the rows of hosts that are not connected). */
export function currentCounts(
  counts: { status: Readonly<StatusCounts>; health: Readonly<HealthCounts>; sync: Readonly<SyncCounts> },
  staleRows: Iterable<DestinationRow>,
): CurrentCounts {
  const status = { ...counts.status };
  const health = { ...counts.health };
  const sync = { ...counts.sync };
  let stale = 0;
  for (const row of staleRows) {
    status[row.status ?? 'pending'] -= 1;
    tallyHealth(health, row, -1);
    tallySync(sync, row, -1);
    stale++;
  }
  return { status, health, sync, stale };
}
