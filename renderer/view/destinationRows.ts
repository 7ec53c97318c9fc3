// The destination list as the sidebar shows it: one row per workspace destination, joined with its
// scan and verify results, then filtered (status chips OR'ed, health chips OR'ed, the two groups and
// the search AND'ed) and sorted. Pure: no DOM.
// Never drops a destination that is still being scanned; it shows as pending until its result arrives.

import type { DestinationEntry, ScanEntry, VerifyEntry } from '../../shared/api';
import type { DestinationStatus } from '../../shared/inspection';
import { parseRfc3339, compareInstants } from '../../shared/rfc3339';
import { FRESH, verifyHealth, type VerifyFreshness } from '../../shared/verifyFreshness';
import type { SyncKind } from '../../shared/syncStatus';
import type { DestinationRow, StatusCounts, VerifiedFacts } from './destinationRow';
import { healthRank, matchesHealth, type HealthMark } from './health';

export type { DestinationRow, StatusCounts, VerifiedFacts, VerifyMark } from './destinationRow';

export type SortKey = 'status' | 'health' | 'id' | 'published';

export const STATUSES: readonly DestinationStatus[] = ['managed', 'unmanaged', 'empty', 'invalid'];

/** A held verify result as its facts (for the marks' words); undefined when there is none. */
export function verifiedFactsOf(verified: VerifyEntry | undefined, freshness: VerifyFreshness = FRESH): VerifiedFacts | undefined {
  return verified && { status: verified.report.status, verifiedAt: verified.stamp.verifiedAt, freshness };
}

/** An interrupted replace is reported as an issue (a leftover staging folder); its code names it. */
export function isInterruptedIssue(issue: { code: string }): boolean {
  return issue.code.includes('interrupted') || issue.code.includes('staging');
}

/** The destination's path as the operator reads it: relative to the workspace root when inside it. */
export function relativeToRoot(root: string, path: string): string {
  return makeRelativeToRoot(root)(path);
}

/** relativeToRoot with the root normalised once, for a whole workspace of paths; no regex unless a path has a backslash. */
export function makeRelativeToRoot(root: string): (path: string) => string {
  const base = root.endsWith('/') || root.endsWith('\\') ? root : `${root}/`;
  const normalisedBase = base.includes('\\') ? base.replace(/\\/g, '/') : base;
  return (path) => {
    const normalised = path.includes('\\') ? path.replace(/\\/g, '/') : path;
    return normalised.startsWith(normalisedBase) ? normalised.slice(normalisedBase.length) || '.' : path;
  };
}

/** One destination's row from what is known of it: derived once per result, never per render. */
export function deriveRow(
  destination: DestinationEntry,
  relativePath: string,
  entry: ScanEntry | undefined,
  verified: VerifyEntry | undefined,
  /** Of `verified`: fresh unless a re-read since found the disk changed (shared/verifyFreshness.ts). */
  freshness: VerifyFreshness = FRESH,
): DestinationRow {
  const summary = entry?.summary;
  const pipelineId = summary?.pipeline_id ?? destination.pipelineId;
  const parsed = summary?.published_at ? parseRfc3339(summary.published_at) : undefined;
  const row: DestinationRow = {
    id: destination.id,
    name: destination.id,
    relativePath,
    verify: verifyHealth(verified && { status: verified.report.status, freshness }),
    interrupted: entry?.inspection.issues.some(isInterruptedIssue) ?? false,
    errorCount: summary?.errorCount ?? 0,
    warningCount: summary?.warningCount ?? 0,
    searchText: [destination.id, summary?.destination_id, pipelineId, relativePath].filter(Boolean).join('\n').toLowerCase(),
  };
  const facts = verifiedFactsOf(verified, freshness);
  if (facts) row.verified = facts;
  if (destination.host !== undefined) row.host = destination.host;
  if (pipelineId !== undefined) row.pipelineId = pipelineId;
  if (summary) row.status = summary.status;
  if (summary?.published_at !== undefined) row.publishedAt = summary.published_at;
  if (parsed?.ok) row.publishedInstant = parsed.value;
  if (entry?.sync) {
    row.sync = entry.sync.kind;
    row.syncTitle = entry.sync.title;
  }
  return row;
}

/** Every row rebuilt from scratch: the reference the incremental DestinationTable is held equal to. */
export function buildRows(
  root: string,
  destinations: readonly DestinationEntry[],
  scan: ReadonlyMap<string, ScanEntry>,
  verify: ReadonlyMap<string, VerifyEntry>,
  /** How fresh each verify result is now; an id without one is fresh. */
  freshness: ReadonlyMap<string, VerifyFreshness> = new Map(),
): DestinationRow[] {
  const relative = makeRelativeToRoot(root);
  return destinations.map((destination) =>
    deriveRow(destination, relative(destination.path), scan.get(destination.id), verify.get(destination.id), freshness.get(destination.id)),
  );
}

export interface RowFilter {
  /** Chips that are on; none on means every status (and pending rows). */
  statuses: ReadonlySet<DestinationStatus>;
  /** Health chips that are on (health.ts); none on, or absent, means every row. */
  health?: ReadonlySet<HealthMark>;
  /** Sync chips that are on (shared/syncStatus.ts); none on, or absent, means every row. */
  sync?: ReadonlySet<SyncKind>;
  query: string;
  /** Only the destinations of this host (`''`: this machine's); absent: every machine's. */
  host?: string;
}

/** Whether a row passes the filter: chips OR'ed within their group (status, health), the groups and the search terms AND'ed. */
export function rowMatcher(filter: RowFilter): (row: DestinationRow) => boolean {
  const terms = filter.query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const byStatus = filter.statuses.size > 0;
  const health = filter.health;
  const sync = filter.sync !== undefined && filter.sync.size > 0 ? filter.sync : undefined;
  const host = filter.host;
  return (row) => {
    if (host !== undefined && (row.host ?? '') !== host) return false;
    if (byStatus && (row.status === undefined || !filter.statuses.has(row.status))) return false;
    if (health && !matchesHealth(row, health)) return false;
    if (sync && (row.sync === undefined || !sync.has(row.sync))) return false;
    // Every term must appear (in any of id, pipeline id, path): "eu handbook" narrows, like most search boxes.
    for (const term of terms) if (!row.searchText.includes(term)) return false;
    return true;
  };
}

export function filterRows(rows: readonly DestinationRow[], filter: RowFilter): DestinationRow[] {
  return rows.filter(rowMatcher(filter));
}

/** Needs attention first: invalid, then unmanaged, drifted managed, empty, healthy managed; pending last. */
export function statusRank(row: DestinationRow): number {
  switch (row.status) {
    case 'invalid':
      return 0;
    case 'unmanaged':
      return 1;
    case 'managed':
      return row.verify === 'drifted' || row.interrupted ? 2 : 4;
    case 'empty':
      return 3;
    default:
      return 5;
  }
}

export const byName = (a: DestinationRow, b: DestinationRow) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export function sortRows(rows: DestinationRow[], key: SortKey): DestinationRow[] {
  const sorted = [...rows];
  if (key === 'id') return sorted.sort(byName);
  if (key === 'status') return sorted.sort((a, b) => statusRank(a) - statusRank(b) || byName(a, b));
  if (key === 'health') return sorted.sort((a, b) => healthRank(a) - healthRank(b) || byName(a, b));
  // Newest first, compared as instants at full precision; rows without a time go last.
  return sorted.sort((a, b) => {
    if (a.publishedInstant && b.publishedInstant) return compareInstants(b.publishedInstant, a.publishedInstant) || byName(a, b);
    if (a.publishedInstant) return -1;
    if (b.publishedInstant) return 1;
    return byName(a, b);
  });
}

export function countStatuses(rows: readonly DestinationRow[]): StatusCounts {
  const counts: StatusCounts = { managed: 0, unmanaged: 0, empty: 0, invalid: 0, pending: 0 };
  for (const row of rows) counts[row.status ?? 'pending']++;
  return counts;
}
