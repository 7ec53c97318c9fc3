// The destination list kept incrementally while a scan streams in: each row is derived once, when
// its result arrives (relative path at open, parsed time, search text), not rebuilt for every row on
// every batch; filter and sort work on positions, with the by-name order computed once per workspace.
// Immutable: withScan/withVerify return a new table sharing what did not change (a copy of the row
// pointers per batch, never a re-derivation), so React sees a new value and old snapshots stay valid.
// Pure: no DOM. Held equal to buildRows/filterRows/sortRows (destinationRows.ts) by a property test.

import type { DestinationEntry, ScanEntry, VerifyEntry } from '../../shared/api';
import {
  byName,
  deriveRow,
  makeRelativeToRoot,
  rowMatcher,
  statusRank,
  type DestinationRow,
  type RowFilter,
  type SortKey,
  type StatusCounts,
} from './destinationRows';
import { emptyHealthCounts, HEALTH_RANKS, healthRank, tallyHealth, type HealthCounts } from './health';
import { FRESH, fingerprintOf, nextVerifyFreshness, type VerifyFreshness } from '../../shared/verifyFreshness';

const RANKS = 6;

interface Shared {
  destinations: readonly DestinationEntry[];
  relativePaths: readonly string[];
  /** Usually one position per id; a workspace listing an id twice shows its result on both rows, as buildRows does. */
  positionsById: ReadonlyMap<string, readonly number[]>;
  /** Positions in by-name order (the 'id' sort), computed once: names never change. */
  nameOrder: Int32Array;
}

export class DestinationTable {
  private constructor(
    private readonly shared: Shared,
    private readonly rowList: readonly DestinationRow[],
    private readonly scanned: readonly (ScanEntry | undefined)[],
    private readonly verified: readonly (VerifyEntry | undefined)[],
    /** Of each verify result: whether the reads since it was taken left it describing the disk. */
    private readonly freshness: readonly (VerifyFreshness | undefined)[],
    /** How many destinations have a scan result. */
    readonly scannedCount: number,
    private readonly counts: Readonly<StatusCounts>,
    private readonly health: Readonly<HealthCounts>,
  ) {}

  static empty(): DestinationTable {
    return DestinationTable.of('', []);
  }

  /** Every destination pending: what the list shows the moment a workspace opens. */
  static of(root: string, destinations: readonly DestinationEntry[]): DestinationTable {
    const relativeToRoot = makeRelativeToRoot(root);
    const relativePaths = destinations.map((destination) => relativeToRoot(destination.path));
    const positionsById = new Map<string, number[]>();
    destinations.forEach((destination, position) => {
      const positions = positionsById.get(destination.id);
      if (positions) positions.push(position);
      else positionsById.set(destination.id, [position]);
    });
    const rows = destinations.map((destination, position) => deriveRow(destination, relativePaths[position]!, undefined, undefined));
    const order = Array.from(rows.keys());
    if (!isSortedByName(rows)) order.sort((a, b) => byName(rows[a]!, rows[b]!));
    const shared: Shared = { destinations, relativePaths, positionsById, nameOrder: Int32Array.from(order) };
    const counts: StatusCounts = { managed: 0, unmanaged: 0, empty: 0, invalid: 0, pending: rows.length };
    const health = emptyHealthCounts();
    for (const row of rows) tallyHealth(health, row, 1);
    return new DestinationTable(shared, rows, new Array(rows.length), new Array(rows.length), new Array(rows.length), 0, counts, health);
  }

  /**
   * The table of a re-read workspace: its list, with the results this table holds for the ids it keeps
   * (`dropped`: ids whose results no longer apply, e.g. a destination now configured otherwise).
   */
  reconciled(root: string, destinations: readonly DestinationEntry[], dropped: ReadonlySet<string>): DestinationTable {
    const scans: ScanEntry[] = [];
    const verifies: { entry: VerifyEntry; freshness: VerifyFreshness }[] = [];
    for (const { id } of destinations) {
      if (dropped.has(id)) continue;
      const scanned = this.scanEntry(id);
      if (scanned) scans.push(scanned);
      const verified = this.verifyEntry(id);
      if (verified) verifies.push({ entry: verified, freshness: this.verifyFreshness(id) ?? FRESH });
    }
    let table = DestinationTable.of(root, destinations);
    if (scans.length > 0) table = table.withScan(scans);
    // Kept with their freshness: a stale result stays stale across a re-read of the workspace file.
    if (verifies.length > 0) table = table.placeVerifies(verifies);
    return table;
  }

  get destinationCount(): number {
    return this.rowList.length;
  }

  /** Every row, in workspace order. */
  get rows(): readonly DestinationRow[] {
    return this.rowList;
  }

  get statusCounts(): Readonly<StatusCounts> {
    return this.counts;
  }

  /** How many rows carry each health mark (health.ts), kept as rows change. */
  get healthCounts(): Readonly<HealthCounts> {
    return this.health;
  }

  /** The row of `id` (its first, when the workspace lists the id twice); undefined when it lists none. */
  row(id: string): DestinationRow | undefined {
    const position = this.shared.positionsById.get(id)?.[0];
    return position === undefined ? undefined : this.rowList[position];
  }

  scanEntry(id: string): ScanEntry | undefined {
    const position = this.shared.positionsById.get(id)?.[0];
    return position === undefined ? undefined : this.scanned[position];
  }

  verifyEntry(id: string): VerifyEntry | undefined {
    const position = this.shared.positionsById.get(id)?.[0];
    return position === undefined ? undefined : this.verified[position];
  }

  /** Whether the verify result held for `id` still describes the disk; undefined when there is none. */
  verifyFreshness(id: string): VerifyFreshness | undefined {
    const position = this.shared.positionsById.get(id)?.[0];
    if (position === undefined || this.verified[position] === undefined) return undefined;
    return this.freshness[position] ?? FRESH;
  }

  /**
   * A table with these scan results in; results for ids the workspace does not list are ignored. Each
   * is a re-read of its destination: a verify result held for it turns stale when the read's
   * fingerprint differs from the one it was taken with (shared/verifyFreshness.ts), `at` that moment.
   */
  withScan(entries: readonly ScanEntry[], at: string = new Date().toISOString()): DestinationTable {
    // slice, not spread: a plain copy of the pointers, no iterator per element.
    const scanned = this.scanned.slice();
    let freshness: (VerifyFreshness | undefined)[] | undefined;
    const touched = this.place(entries, (position, entry) => {
      scanned[position] = entry;
      const verified = this.verified[position];
      if (!verified) return;
      const before = (freshness ?? this.freshness)[position] ?? FRESH;
      const after = nextVerifyFreshness(verified.stamp, before, { kind: 'reread', fingerprint: fingerprintOf(entry.inspection), at });
      if (after === before) return;
      freshness ??= this.freshness.slice();
      freshness[position] = after;
    });
    return this.rederive(touched, scanned, this.verified, freshness ?? this.freshness, true);
  }

  /**
   * Destinations the engine saw change on disk (live refresh), each read again: a verify result held
   * for one turns stale at once, at `changedAt` (changed_on_disk: the read's fingerprint may not tell,
   * an output edited in place), then the read is kept as withScan keeps it.
   */
  withChangedOnDisk(changes: readonly { entry: ScanEntry; changedAt: string }[]): DestinationTable {
    let freshness: (VerifyFreshness | undefined)[] | undefined;
    this.place(
      changes.map((change) => ({ destination: change.entry.destination, changedAt: change.changedAt })),
      (position, { changedAt }) => {
        const verified = this.verified[position];
        if (!verified) return;
        const before = (freshness ?? this.freshness)[position] ?? FRESH;
        const after = nextVerifyFreshness(verified.stamp, before, { kind: 'changed_on_disk', at: changedAt });
        if (after === before) return;
        freshness ??= this.freshness.slice();
        freshness[position] = after;
      },
    );
    // Rows and counts still agree with each other here; withScan derives the touched rows again from the new freshness.
    const marked = freshness
      ? new DestinationTable(this.shared, this.rowList, this.scanned, this.verified, freshness, this.scannedCount, this.counts, this.health)
      : this;
    return marked.withScan(changes.map((change) => change.entry));
  }

  /** Verify results just taken: fresh. */
  withVerify(entries: readonly VerifyEntry[]): DestinationTable {
    return this.placeVerifies(entries.map((entry) => ({ entry, freshness: FRESH })));
  }

  /** A table that no longer holds a verify result for these ids (it described outputs that are gone). */
  withoutVerify(ids: readonly string[]): DestinationTable {
    const verified = this.verified.slice();
    const freshness = this.freshness.slice();
    const touched = this.place(
      ids.map((destination) => ({ destination })),
      (position) => {
        verified[position] = undefined;
        freshness[position] = undefined;
      },
    );
    return this.rederive(touched, this.scanned, verified, freshness, false);
  }

  private placeVerifies(entries: readonly { entry: VerifyEntry; freshness: VerifyFreshness }[]): DestinationTable {
    const verified = this.verified.slice();
    const freshness = this.freshness.slice();
    const touched = this.place(
      entries.map((held) => ({ destination: held.entry.destination, held })),
      (position, { held }) => {
        verified[position] = held.entry;
        freshness[position] = held.freshness;
      },
    );
    return this.rederive(touched, this.scanned, verified, freshness, false);
  }

  /** The rows the list shows: filtered as filterRows, ordered as sortRows would. */
  view(filter: RowFilter, sort: SortKey): DestinationRow[] {
    const rows = this.rowList;
    const order = this.shared.nameOrder;
    const everything =
      filter.statuses.size === 0 && (filter.health?.size ?? 0) === 0 && filter.query.trim() === '' && filter.host === undefined;
    if (sort === 'id') {
      const shownRows: DestinationRow[] = [];
      const matches = rowMatcher(filter);
      for (let i = 0; i < order.length; i += 1) {
        const row = rows[order[i]!]!;
        if (everything || matches(row)) shownRows.push(row);
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

  private place<T extends { destination: string }>(entries: readonly T[], put: (position: number, entry: T) => void): Set<number> {
    const touched = new Set<number>();
    for (const entry of entries) {
      for (const position of this.shared.positionsById.get(entry.destination) ?? []) {
        put(position, entry);
        touched.add(position);
      }
    }
    return touched;
  }

  private rederive(
    touched: ReadonlySet<number>,
    scanned: readonly (ScanEntry | undefined)[],
    verified: readonly (VerifyEntry | undefined)[],
    freshness: readonly (VerifyFreshness | undefined)[],
    scanChanged: boolean,
  ): DestinationTable {
    if (touched.size === 0) return this;
    const rows = this.rowList.slice();
    const counts = { ...this.counts };
    const health = { ...this.health };
    let scannedCount = this.scannedCount;
    for (const position of touched) {
      const before = rows[position]!;
      const after = deriveRow(
        this.shared.destinations[position]!,
        this.shared.relativePaths[position]!,
        scanned[position],
        verified[position],
        freshness[position],
      );
      counts[before.status ?? 'pending'] -= 1;
      counts[after.status ?? 'pending'] += 1;
      tallyHealth(health, before, -1);
      tallyHealth(health, after, 1);
      if (scanChanged && this.scanned[position] === undefined) scannedCount += 1;
      rows[position] = after;
    }
    return new DestinationTable(this.shared, rows, scanned, verified, freshness, scannedCount, counts, health);
  }
}

function isSortedByName(rows: readonly DestinationRow[]): boolean {
  for (let i = 1; i < rows.length; i += 1) if (byName(rows[i - 1]!, rows[i]!) > 0) return false;
  return true;
}

/** Fractions of a second as compareInstants compares them: digits after the point, trailing zeros dropped. */
function compareFractions(a: string, b: string): number {
  if (a === b) return 0;
  const width = Math.max(a.length, b.length);
  const fa = a.padEnd(width, '0');
  const fb = b.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}
