// The list grouped by pipeline or by host: the rows the view shows, regrouped so each group's rows
// are together (in the view's order within it), groups by name with the rows that have none last,
// and where each group starts. One pass to bucket, one to lay out; nothing when grouping is off.
// The virtualized list places a header before each group by index arithmetic (headerIndex,
// itemAt), so no per-row item is ever built.

import type { DestinationRow } from './destinationRows';
import type { GroupBy } from './viewSettings';

export interface RowGroup {
  /** What the header says. */
  label: string;
  /** Index of its first row in the grouped rows. */
  start: number;
  count: number;
}

export interface GroupedRows {
  rows: readonly DestinationRow[];
  /** Empty when grouping is off: the rows as the view gave them. */
  groups: readonly RowGroup[];
}

export const NO_PIPELINE = 'no pipeline id';
export const THIS_MACHINE = 'this machine';

function keyOf(row: DestinationRow, by: Exclude<GroupBy, 'none'>): string | undefined {
  return by === 'pipeline' ? row.pipelineId : row.host;
}

export function groupRows(rows: readonly DestinationRow[], by: GroupBy): GroupedRows {
  if (by === 'none') return { rows, groups: [] };
  const buckets = new Map<string | undefined, DestinationRow[]>();
  for (const row of rows) {
    const key = keyOf(row, by);
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = []));
    bucket.push(row);
  }
  const keys = [...buckets.keys()].sort((a, b) => (a === b ? 0 : a === undefined ? 1 : b === undefined ? -1 : a < b ? -1 : 1));
  const grouped: DestinationRow[] = [];
  const groups: RowGroup[] = [];
  for (const key of keys) {
    const bucket = buckets.get(key)!;
    groups.push({ label: key ?? (by === 'pipeline' ? NO_PIPELINE : THIS_MACHINE), start: grouped.length, count: bucket.length });
    for (const row of bucket) grouped.push(row);
  }
  return { rows: grouped, groups };
}

/** The group a row index falls in (binary search over the starts); -1 with no groups. */
export function groupOfRow(groups: readonly RowGroup[], rowIndex: number): number {
  let low = 0;
  let high = groups.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (groups[middle]!.start <= rowIndex) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Where a row sits in the list of headers and rows: each group's header comes before its rows. */
export function itemIndexOfRow(groups: readonly RowGroup[], rowIndex: number): number {
  return rowIndex + groupOfRow(groups, rowIndex) + 1;
}

/** What the list shows at an item index: a group's header, or a row by its index in the rows. */
export function itemAt(groups: readonly RowGroup[], itemIndex: number): { header: number } | { row: number } {
  if (groups.length === 0) return { row: itemIndex };
  // The last group whose header sits at or before this item.
  let low = 0;
  let high = groups.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (groups[middle]!.start + middle <= itemIndex) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  const header = groups[found]!.start + found;
  return itemIndex === header ? { header: found } : { row: itemIndex - found - 1 };
}
