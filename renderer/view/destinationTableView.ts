// What the destination list shows of a DestinationTable's rows: filtered as filterRows and ordered as
// sortRows would (destinationRows.ts), working on positions over the by-name order the table keeps,
// so a sort by status or health is a counting sort and never a comparison sort. Pure: no DOM.

import { rowMatcher, statusRank, type DestinationRow, type RowFilter, type SortKey } from './destinationRows';
import { HEALTH_RANKS, healthRank } from './health';

const RANKS = 6;

/** Whether the filter lets every row through. */
export function showsEverything(filter: RowFilter): boolean {
  return (
    filter.statuses.size === 0 &&
    (filter.health?.size ?? 0) === 0 &&
    (filter.sync?.size ?? 0) === 0 &&
    filter.query.trim() === '' &&
    filter.host === undefined
  );
}

/** The rows shown, from the table's rows in workspace order and its by-name order of their positions. */
export function viewRows(rows: readonly DestinationRow[], order: Int32Array, filter: RowFilter, sort: SortKey): readonly DestinationRow[] {
  const everything = showsEverything(filter);
  if (sort === 'id') {
    const shownRows: DestinationRow[] = [];
    const matches = rowMatcher(filter);
    for (let i = 0; i < order.length; i += 1) {
      const row = rows[order[i]!]!;
      if (matches(row)) shownRows.push(row);
    }
    return shownRows;
  }
  const matches = rowMatcher(filter);
  const shown: number[] = [];
  for (let i = 0; i < order.length; i += 1) if (everything || matches(rows[order[i]!]!)) shown.push(order[i]!);
  if (sort === 'status' || sort === 'health') {
    // A counting sort by rank over the by-name order: rank, then name, as sortRows compares.
    const [rankOf, ranks] = sort === 'status' ? [statusRank, RANKS] : [healthRank, HEALTH_RANKS];
    const buckets: number[][] = Array.from({ length: ranks }, () => []);
    for (const position of shown) buckets[rankOf(rows[position]!)]!.push(position);
    const shownRows: DestinationRow[] = [];
    for (const bucket of buckets) for (const position of bucket) shownRows.push(rows[position]!);
    return shownRows;
  }
  // 'published': newest first at full precision; a stable sort over the by-name order breaks ties by name.
  const timed = shown.filter((position) => rows[position]!.publishedInstant !== undefined);
  // Exact as a double: RFC 3339 years stop at 9999, far below 2^53 seconds.
  const seconds = new Float64Array(rows.length);
  for (const position of timed) seconds[position] = Number(rows[position]!.publishedInstant!.epochSeconds);
  timed.sort((a, b) => {
    const difference = seconds[b]! - seconds[a]!;
    if (difference !== 0) return difference;
    return compareFractions(rows[b]!.publishedInstant!.fraction, rows[a]!.publishedInstant!.fraction);
  });
  const untimed = shown.filter((position) => rows[position]!.publishedInstant === undefined);
  return [...timed, ...untimed].map((position) => rows[position]!);
}

/** Fractions of a second as compareInstants compares them: digits after the point, trailing zeros dropped. */
function compareFractions(a: string, b: string): number {
  if (a === b) return 0;
  const width = Math.max(a.length, b.length);
  const fa = a.padEnd(width, '0');
  const fb = b.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}
