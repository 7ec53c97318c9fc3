// Verify health at a glance: the marks a row can carry beside its status (drifted, intact, not
// verified, stale, an interrupted replace, warnings), their counts, the health sort and the status
// bar's summary. Pure: no DOM. Counts are kept by DestinationTable as rows change, never by a walk
// over every row per render; countHealth here is the reference it is held equal to.

import type { DestinationStatus } from '../../shared/inspection';
import { groupDigits } from '../../shared/issueCap';
import type { DestinationRow, StatusCounts } from './destinationRow';

/** `unverified` is shown as "not verified"; `warnings` as "has warnings". */
export type HealthMark = 'drifted' | 'intact' | 'unverified' | 'stale' | 'interrupted' | 'warnings';

export const HEALTH_MARKS: readonly HealthMark[] = ['drifted', 'intact', 'unverified', 'stale', 'interrupted', 'warnings'];

/** The chips the sidebar offers, in this order. */
export const HEALTH_CHIPS: readonly HealthMark[] = HEALTH_MARKS;

export type HealthCounts = Record<HealthMark, number>;

export const emptyHealthCounts = (): HealthCounts => ({ drifted: 0, intact: 0, unverified: 0, stale: 0, interrupted: 0, warnings: 0 });

/**
 * Whether a row carries a mark. The verify marks (drifted, intact, not verified, stale) belong to
 * managed rows only: an unmanaged, empty or invalid destination has no valid state to verify
 * against, so it is "not verifiable", never "not verified". Interrupted and warnings apply to any row.
 */
export function hasHealth(row: DestinationRow, mark: HealthMark): boolean {
  switch (mark) {
    case 'interrupted':
      return row.interrupted;
    case 'warnings':
      return row.warningCount > 0;
    default:
      return row.status === 'managed' && row.verify === mark;
  }
}

export function countHealth(rows: readonly DestinationRow[]): HealthCounts {
  const counts = emptyHealthCounts();
  for (const row of rows) for (const mark of HEALTH_MARKS) if (hasHealth(row, mark)) counts[mark] += 1;
  return counts;
}

/** Adds (+1) or removes (-1) one row's marks: how the table keeps its counts per changed row. */
export function tallyHealth(counts: HealthCounts, row: DestinationRow, sign: 1 | -1): void {
  for (const mark of HEALTH_MARKS) if (hasHealth(row, mark)) counts[mark] += sign;
}

/** Health chips that are on: a row passes when it carries any of them (none on: every row passes). */
export function matchesHealth(row: DestinationRow, chips: ReadonlySet<HealthMark>): boolean {
  if (chips.size === 0) return true;
  for (const mark of chips) if (hasHealth(row, mark)) return true;
  return false;
}

export const HEALTH_RANKS = 10;

/**
 * The health sort, serious first, both axes: invalid, an interrupted replace, a sync conflict (or a
 * source that cannot be read), drifted, stale, a publish waiting, not verified, intact; then what
 * nothing can be verified on (unmanaged, empty), then rows still scanning.
 */
export function healthRank(row: DestinationRow): number {
  if (row.status === undefined) return 9;
  if (row.status === 'invalid') return 0;
  if (row.interrupted) return 1;
  if (row.sync === 'conflict' || row.sync === 'source_unreadable') return 2;
  if (row.status === 'managed' && row.verify === 'drifted') return 3;
  if (row.status === 'managed' && row.verify === 'stale') return 4;
  if (row.sync === 'publish_waiting') return 5;
  if (row.status !== 'managed') return 8;
  if (row.verify === 'unverified') return 6;
  return 7;
}

const NOT_VERIFIABLE: readonly DestinationStatus[] = ['unmanaged', 'empty', 'invalid'];

/**
 * The status bar's line once anything was verified: "6 intact, 3 drifted, 7 not verifiable" (each
 * part only when not zero); undefined before any verify result, when "Ready" says all there is.
 */
export function healthSummary(statusCounts: Readonly<StatusCounts>, health: Readonly<HealthCounts>): string | undefined {
  if (health.intact + health.drifted + health.stale === 0) return undefined;
  const notVerifiable = NOT_VERIFIABLE.reduce((sum, status) => sum + statusCounts[status], 0);
  const parts: [number, string][] = [
    [health.intact, 'intact'],
    [health.drifted, 'drifted'],
    [health.stale, 'stale'],
    [health.unverified, 'not verified'],
    [notVerifiable, 'not verifiable'],
    [statusCounts.pending, 'still scanning'],
  ];
  return parts
    .filter(([count]) => count > 0)
    .map(([count, words]) => `${groupDigits(count)} ${words}`)
    .join(', ');
}
