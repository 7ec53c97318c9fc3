// The destination list kept incrementally while a scan streams in: each row is derived once, when
// its result arrives (relative path at open, parsed time, search text), not rebuilt for every row on
// every batch; filter and sort work on positions, with the by-name order computed once per workspace.
// Immutable: withScan/withVerify return a new table sharing what did not change (the rows, results and
// the by-name order are chunked lists: a batch copies only the chunks it touches, never every
// pointer), so React sees a new value and old snapshots stay valid. The unfiltered by-name view (what
// the list shows while a scan streams in) is kept as rows change, not filtered and sorted per batch.
// Pure: no DOM. Held equal to buildRows/filterRows/sortRows (destinationRows.ts) by a property test.
// The view's filter and sort are in destinationTableView.ts, the counts' bookkeeping in destinationTableCounts.ts.

import type { DestinationEntry, ScanEntry, VerifyEntry } from '../../shared/api';
import {
  byName,
  deriveRow,
  makeRelativeToRoot,
  type DestinationRow,
  type RowFilter,
  type SortKey,
  type StatusCounts,
} from './destinationRows';
import { ChunkedList } from './chunkedList';
import { pendingRowCounts, recountRow } from './destinationTableCounts';
import { showsEverything, viewRows } from './destinationTableView';
import type { HealthCounts } from './health';
import { emptySyncCounts, type SyncCounts } from './syncCounts';
import { FRESH, fingerprintOf, nextVerifyFreshness, type VerifyFreshness, type WatchStaleReason } from '../../shared/verifyFreshness';

/** Rows derived per slice of ofInSlices: 8,192 took 20–50 ms in the page under load; half of that. */
const SLICE_ROWS = 4096;

interface Shared {
  destinations: readonly DestinationEntry[];
  relativePaths: readonly string[];
  /** The first position of each id. */
  firstPositionById: ReadonlyMap<string, number>;
  /** The positions of an id the workspace lists more than once (rare): its result shows on every row, as buildRows does. */
  repeatedPositions: ReadonlyMap<string, readonly number[]>;
  /** Positions in by-name order (the 'id' sort), computed once: names never change. */
  nameOrder: Int32Array;
  /** Of each position: where it stands in nameOrder. */
  nameIndex: Int32Array;
}

type Slot<T> = T | undefined;

export class DestinationTable {
  private constructor(
    private readonly shared: Shared,
    private readonly rowList: ChunkedList<DestinationRow>,
    /** The rows in by-name order: the unfiltered 'id' view, kept as rows change. */
    private readonly nameRows: ChunkedList<DestinationRow>,
    private readonly scanned: ChunkedList<Slot<ScanEntry>>,
    private readonly verified: ChunkedList<Slot<VerifyEntry>>,
    /** Of each verify result: whether the reads since it was taken left it describing the disk. */
    private readonly freshness: ChunkedList<Slot<VerifyFreshness>>,
    /** How many destinations have a scan result. */
    readonly scannedCount: number,
    private readonly counts: Readonly<StatusCounts>,
    private readonly health: Readonly<HealthCounts>,
    private readonly syncs: Readonly<SyncCounts> = emptySyncCounts(),
  ) {}

  static empty(): DestinationTable {
    return DestinationTable.of('', []);
  }

  /** Every destination pending: what the list shows the moment a workspace opens. */
  static of(root: string, destinations: readonly DestinationEntry[]): DestinationTable {
    const steps = DestinationTable.building(root, destinations);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * The same table as `of`, its work cut into slices with `pause()` awaited between them: at 100,000
   * destinations `of` is one task of 0.15–0.4 s, and the page must not freeze that long.
   */
  static async ofInSlices(root: string, destinations: readonly DestinationEntry[], pause: () => Promise<void>): Promise<DestinationTable> {
    const steps = DestinationTable.building(root, destinations);
    for (;;) {
      // Paused first too: the caller's own task (parsing the answer that brought the list) ends before the first slice.
      await pause();
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /** `of`'s work, yielding after each slice of rows and between its phases (one code for both). */
  private static *building(root: string, destinations: readonly DestinationEntry[]): Generator<void, DestinationTable> {
    const relativeToRoot = makeRelativeToRoot(root);
    const relativePaths: string[] = new Array<string>(destinations.length);
    const firstPositionById = new Map<string, number>();
    const repeatedPositions = new Map<string, number[]>();
    const rows: DestinationRow[] = new Array<DestinationRow>(destinations.length);
    for (let start = 0; start < destinations.length; start += SLICE_ROWS) {
      if (start > 0) yield;
      const end = Math.min(destinations.length, start + SLICE_ROWS);
      for (let position = start; position < end; position += 1) {
        const destination = destinations[position]!;
        relativePaths[position] = relativeToRoot(destination.path);
        const first = firstPositionById.get(destination.id);
        if (first === undefined) firstPositionById.set(destination.id, position);
        else {
          const positions = repeatedPositions.get(destination.id);
          if (positions) positions.push(position);
          else repeatedPositions.set(destination.id, [first, position]);
        }
        rows[position] = deriveRow(destination, relativePaths[position]!, undefined, undefined);
      }
    }
    if (rows.length > SLICE_ROWS) yield;
    // An array, not a typed one, is sorted: its TimSort takes a list already near by-name order in one pass.
    const positions = Array.from(rows.keys());
    if (!isSortedByName(rows)) positions.sort((a, b) => byName(rows[a]!, rows[b]!));
    const nameOrder = Int32Array.from(positions);
    const nameIndex = new Int32Array(rows.length);
    for (let i = 0; i < nameOrder.length; i += 1) nameIndex[nameOrder[i]!] = i;
    if (rows.length > SLICE_ROWS) yield;
    const shared: Shared = { destinations, relativePaths, firstPositionById, repeatedPositions, nameOrder, nameIndex };
    const { status: counts, health } = pendingRowCounts(rows);
    return new DestinationTable(
      shared,
      ChunkedList.from(rows),
      ChunkedList.from(positions.map((position) => rows[position]!)),
      ChunkedList.filled<Slot<ScanEntry>>(rows.length, undefined),
      ChunkedList.filled<Slot<VerifyEntry>>(rows.length, undefined),
      ChunkedList.filled<Slot<VerifyFreshness>>(rows.length, undefined),
      0,
      counts,
      health,
      emptySyncCounts(),
    );
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
    if (verifies.length > 0) table = table.placeVerifies(verifies.map((held) => ({ destination: held.entry.destination, ...held })));
    return table;
  }

  get destinationCount(): number {
    return this.rowList.length;
  }

  /** Every row, in workspace order (made once per table). */
  get rows(): readonly DestinationRow[] {
    return this.rowList.toArray();
  }

  get statusCounts(): Readonly<StatusCounts> {
    return this.counts;
  }

  /** How many rows carry each health mark (health.ts), kept as rows change. */
  get healthCounts(): Readonly<HealthCounts> {
    return this.health;
  }

  /** How many rows carry each sync kind (syncCounts.ts), kept as rows change. */
  get syncCounts(): Readonly<SyncCounts> {
    return this.syncs;
  }

  /** The row of `id` (its first, when the workspace lists the id twice); undefined when it lists none. */
  row(id: string): DestinationRow | undefined {
    const position = this.shared.firstPositionById.get(id);
    return position === undefined ? undefined : this.rowList.get(position);
  }

  scanEntry(id: string): ScanEntry | undefined {
    const position = this.shared.firstPositionById.get(id);
    return position === undefined ? undefined : this.scanned.get(position);
  }

  /** Every scan result the table holds (an id listed twice: once a position). */
  scanResults(): ScanEntry[] {
    return this.scanned.toArray().filter((entry): entry is ScanEntry => entry !== undefined);
  }

  verifyEntry(id: string): VerifyEntry | undefined {
    const position = this.shared.firstPositionById.get(id);
    return position === undefined ? undefined : this.verified.get(position);
  }

  /** Whether the verify result held for `id` still describes the disk; undefined when there is none. */
  verifyFreshness(id: string): VerifyFreshness | undefined {
    const position = this.shared.firstPositionById.get(id);
    if (position === undefined || this.verified.get(position) === undefined) return undefined;
    return this.freshness.get(position) ?? FRESH;
  }

  /**
   * A table with these scan results in; results for ids the workspace does not list are ignored. Each
   * is a re-read of its destination: a verify result held for it turns stale when the read's
   * fingerprint differs from the one it was taken with (shared/verifyFreshness.ts), `at` that moment.
   */
  withScan(entries: readonly ScanEntry[], at: string = new Date().toISOString()): DestinationTable {
    let touched = new Set<number>();
    let freshness = this.freshness;
    const scanned = this.scanned.edited((setScan) => {
      freshness = this.freshness.edited((setFreshness, freshnessAt) => {
        touched = this.place(entries, (position, entry) => {
          setScan(position, entry);
          const verified = this.verified.get(position);
          if (!verified) return;
          const before = freshnessAt(position) ?? FRESH;
          const after = nextVerifyFreshness(verified.stamp, before, { kind: 'reread', fingerprint: fingerprintOf(entry.inspection), at });
          if (after !== before) setFreshness(position, after);
        });
      });
    });
    return this.rederive(touched, scanned, this.verified, freshness, true);
  }

  /**
   * Destinations the engine saw change on disk (live refresh), each read again: a verify result held
   * for one turns stale at once, at `changedAt` (changed_on_disk: the read's fingerprint may not tell,
   * an output edited in place) unless its verify began reading after the change's last event was
   * seen, then the read is kept as withScan keeps it.
   */
  withChangedOnDisk(
    changes: readonly { entry: ScanEntry; changedAt: string; reason?: WatchStaleReason; lastEventAt?: string }[],
  ): DestinationTable {
    const freshness = this.freshness.edited((setFreshness, freshnessAt) => {
      this.place(
        changes.map(({ entry, ...seen }) => ({ destination: entry.destination, ...seen })),
        (position, { changedAt, reason, lastEventAt }) => {
          const verified = this.verified.get(position);
          if (!verified) return;
          const before = freshnessAt(position) ?? FRESH;
          const after = nextVerifyFreshness(verified.stamp, before, { kind: 'changed_on_disk', at: changedAt, reason, lastEventAt });
          if (after !== before) setFreshness(position, after);
        },
      );
    });
    // Rows and counts still agree with each other here; withScan derives the touched rows again from the new freshness.
    const marked =
      freshness !== this.freshness
        ? new DestinationTable(
            this.shared,
            this.rowList,
            this.nameRows,
            this.scanned,
            this.verified,
            freshness,
            this.scannedCount,
            this.counts,
            this.health,
            this.syncs,
          )
        : this;
    return marked.withScan(changes.map((change) => change.entry));
  }

  /** Verify results just taken: fresh. */
  withVerify(entries: readonly VerifyEntry[]): DestinationTable {
    return this.placeVerifies(entries.map((entry) => ({ destination: entry.destination, entry, freshness: FRESH })));
  }

  /** A table that no longer holds a verify result for these ids (it described outputs that are gone). */
  withoutVerify(ids: readonly string[]): DestinationTable {
    return this.placeVerifies(ids.map((destination) => ({ destination, entry: undefined, freshness: undefined })));
  }

  private placeVerifies(
    entries: readonly { destination: string; entry: VerifyEntry | undefined; freshness: VerifyFreshness | undefined }[],
  ): DestinationTable {
    let touched = new Set<number>();
    let freshness = this.freshness;
    const verified = this.verified.edited((setVerified) => {
      freshness = this.freshness.edited((setFreshness) => {
        touched = this.place(entries, (position, held) => {
          setVerified(position, held.entry);
          setFreshness(position, held.freshness);
        });
      });
    });
    return this.rederive(touched, this.scanned, verified, freshness, false);
  }

  /** The rows the list shows: filtered as filterRows, ordered as sortRows would. */
  view(filter: RowFilter, sort: SortKey): readonly DestinationRow[] {
    // What the list shows while a scan streams in: kept as rows change, nothing to filter or sort.
    if (sort === 'id' && showsEverything(filter)) return this.nameRows.toArray();
    return viewRows(this.rowList.toArray(), this.shared.nameOrder, filter, sort);
  }

  private place<T extends { destination: string }>(entries: readonly T[], put: (position: number, entry: T) => void): Set<number> {
    const touched = new Set<number>();
    const { firstPositionById, repeatedPositions } = this.shared;
    for (const entry of entries) {
      const first = firstPositionById.get(entry.destination);
      if (first === undefined) continue;
      const repeated = repeatedPositions.get(entry.destination);
      if (repeated === undefined) {
        put(first, entry);
        touched.add(first);
      } else
        for (const position of repeated) {
          put(position, entry);
          touched.add(position);
        }
    }
    return touched;
  }

  private rederive(
    touched: ReadonlySet<number>,
    scanned: ChunkedList<Slot<ScanEntry>>,
    verified: ChunkedList<Slot<VerifyEntry>>,
    freshness: ChunkedList<Slot<VerifyFreshness>>,
    scanChanged: boolean,
  ): DestinationTable {
    if (touched.size === 0) return this;
    const tally = { status: { ...this.counts }, health: { ...this.health }, sync: { ...this.syncs } };
    let scannedCount = this.scannedCount;
    const derived: [number, DestinationRow][] = [];
    for (const position of touched) {
      const before = this.rowList.get(position);
      const after = deriveRow(
        this.shared.destinations[position]!,
        this.shared.relativePaths[position]!,
        scanned.get(position),
        verified.get(position),
        freshness.get(position),
      );
      recountRow(tally, before, after);
      if (scanChanged && this.scanned.get(position) === undefined) scannedCount += 1;
      derived.push([position, after]);
    }
    const rows = this.rowList.edited((set) => {
      for (const [position, row] of derived) set(position, row);
    });
    const { nameIndex } = this.shared;
    const nameRows = this.nameRows.edited((set) => {
      for (const [position, row] of derived) set(nameIndex[position]!, row);
    });
    return new DestinationTable(
      this.shared,
      rows,
      nameRows,
      scanned,
      verified,
      freshness,
      scannedCount,
      tally.status,
      tally.health,
      tally.sync,
    );
  }
}

function isSortedByName(rows: readonly DestinationRow[]): boolean {
  for (let i = 1; i < rows.length; i += 1) if (byName(rows[i - 1]!, rows[i]!) > 0) return false;
  return true;
}
