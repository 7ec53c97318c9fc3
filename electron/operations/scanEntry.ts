// operations/: may be imported by service/ and cli/. The list row of one destination from a fresh
// inspection, made one way wherever an inspection is read again (inspect, verify, apply, a scan row).
// Pure; never reads the disk.

import type { ScanEntry } from '../../shared/api';
import type { DestinationInspectionData } from '../../shared/inspection';
import type { SyncStatus } from '../../shared/syncStatus';
import type { ScanSummary } from '../../shared/verifyReport';
import { summarizeInspection } from '../engine/scan';

/** What a scan row carries of an inspection: never the raw text, never the engine's parsed state. */
export function scanEntryOf(
  destination: string,
  inspection: DestinationInspectionData & { state?: unknown },
  /** The worker's summary of a scan row (its state may not have travelled); otherwise made from the inspection. */
  summary?: ScanSummary,
  /** The destination's sync against its configured source, when decided (shared/syncStatus.ts). */
  sync?: SyncStatus,
): ScanEntry {
  const { state: _state, stateText: _text, ...data } = inspection;
  const entry: ScanEntry = { destination, inspection: data, summary: summary ?? summarizeInspection(data, data.stateJson) };
  if (sync) entry.sync = sync;
  return entry;
}
