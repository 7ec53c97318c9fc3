// The sync axis in the session: each destination's decision against its configured source
// (shared/syncStatus.ts), carried by every row the session makes (scan, inspect, live refresh, after
// an apply). The sources are read once per bundle (engine/sourceManifests.ts) and read again after a
// Rescan, or when live refresh sees a bundle change. Reads only.

import type { DestinationEntry, ScanEntry } from '../../shared/api';
import type { DestinationInspectionData } from '../../shared/inspection';
import type { State } from '../../shared/stateSchema';
import { syncOfInspection, type SyncStatus } from '../../shared/syncStatus';
import { scanEntryOf } from '../operations/scanEntry';
import type { OpenWorkspace } from './sessionContext';

type ReadInspection = DestinationInspectionData & { state?: State };

/** The destination's sync from a read of it; undefined when its state was withheld (too large to hold). */
export async function syncFor(
  open: OpenWorkspace,
  destination: DestinationEntry,
  inspection: ReadInspection,
): Promise<SyncStatus | undefined> {
  if (inspection.status === 'managed' && !inspection.state) return undefined;
  const source = destination.source === undefined ? undefined : await open.sources.read(destination.source);
  return syncOfInspection(destination, inspection, source);
}

/** A list row of a destination just read, with its sync. */
export async function entryWithSync(open: OpenWorkspace, destination: DestinationEntry, inspection: ReadInspection): Promise<ScanEntry> {
  return scanEntryOf(destination.id, inspection, undefined, await syncFor(open, destination, inspection));
}

/** The local destinations whose configured source lies in this bundle folder. */
export function destinationsOfBundle(open: OpenWorkspace, bundleFolder: string, folderOf: (source: string) => string): DestinationEntry[] {
  return open.summary.destinations.filter(
    (destination) => destination.host === undefined && destination.source !== undefined && folderOf(destination.source) === bundleFolder,
  );
}
