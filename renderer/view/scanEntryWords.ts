// Scan rows as the list keeps them: a scan of 100,000 destinations leaves 100,000 rows alive in the
// page, and each parsed row carries its own copy of words most rows share (the sync decision with
// its title and sentence, the status, the pipeline id, the publish time, an empty issues list). Kept
// once per scan instead, the rows hold about half the heap, and every major GC marks half as much.
// Pure: the row kept is equal to the row given, field for field; nothing is dropped.

import type { ScanEntry } from '../../shared/api';
import type { SyncStatus } from '../../shared/syncStatus';

type Issues = ScanEntry['inspection']['issues'];

/** The one empty issues list every row without issues shares; frozen, so no holder can change the others'. */
const NO_ISSUES = Object.freeze([]) as unknown as Issues;

/** Past this many distinct words (a field unique to each row) new ones are kept as they came. */
const MAX_WORDS = 4_096;

function syncKey(sync: SyncStatus): string {
  return `${sync.kind}\u0000${sync.decision ?? ''}\u0000${sync.reason ?? ''}\u0000${sync.title}\u0000${sync.sentence}`;
}

/** A keeper for one scan's rows: returns each row with the words earlier rows had shared with it. */
export function scanEntryKeeper(): (entry: ScanEntry) => ScanEntry {
  const words = new Map<string, string>();
  const syncs = new Map<string, SyncStatus>();
  const word = (value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    const known = words.get(value);
    if (known !== undefined) return known;
    if (words.size < MAX_WORDS) words.set(value, value);
    return value;
  };
  const sharedSync = (sync: SyncStatus): SyncStatus => {
    const key = syncKey(sync);
    const known = syncs.get(key);
    if (known) return known;
    if (syncs.size < MAX_WORDS) syncs.set(key, sync);
    return sync;
  };
  return (entry) => {
    const { inspection, summary } = entry;
    const kept: ScanEntry = {
      destination: entry.destination,
      inspection: {
        ...inspection,
        status: word(inspection.status) as typeof inspection.status,
        issues: inspection.issues.length === 0 ? NO_ISSUES : inspection.issues,
      },
      summary: { ...summary, status: word(summary.status) as typeof summary.status },
    };
    if (summary.pipeline_id !== undefined) kept.summary.pipeline_id = word(summary.pipeline_id)!;
    if (summary.published_at !== undefined) kept.summary.published_at = word(summary.published_at)!;
    if (entry.sync) kept.sync = sharedSync(entry.sync);
    return kept;
  };
}
