// Scan and verify, as the user asks for them: the rows fill as results stream in, in batches
// (itemBatches.ts), each batch deriving only its own rows (DestinationTable), never the whole list.

import type { DestinationRead, ScanEntry } from '../../shared/api';
import { sameStateAndListing } from '../../shared/verifyFreshness';
import type { JobOutcome } from '../api/jobs';
import { scanEntryKeeper } from '../view/scanEntryWords';
import { cancelledVerifySentence } from '../view/verifyOutcome';
import { batcher } from './itemBatches';
import { trackedJob } from './jobActions';
import { holdUnlisted } from './listPages';
import { bumpRevisions } from './listUpdates';
import { store } from './store';

/**
 * Scans the whole workspace, or the given destinations (after a replace). `listShown`: the scan was
 * asked for before the workspace's list is shown (the start, App.tsx; an open); its rows wait for the list,
 * and on false (no workspace shown after all) the scan is dropped unseen. `onRowsIn`: called as each
 * batch of results is in the store (the start waits for the first before asking for more of the list).
 */
export async function scan(destinations?: string[], listShown?: Promise<boolean>, onRowsIn?: () => void): Promise<JobOutcome<'scan'>> {
  const items = batcher<ScanEntry>((entries) => {
    store.set((state) => {
      holdUnlisted(entries, state.destinationTable);
      return { destinationTable: state.destinationTable.withScan(entries) };
    });
    onRowsIn?.();
  }, listShown);
  const label = destinations
    ? `Rescan ${destinations.length === 1 ? destinations[0] : `${destinations.length} destinations`}`
    : 'Scan workspace';
  // The rows stay in the list as long as the page: the words they share are kept once (scanEntryWords.ts).
  const keep = scanEntryKeeper();
  const outcome = await trackedJob('scan', destinations ? { destinations } : {}, label, {
    onItem: (entry) => items.push(keep(entry)),
    ...(listShown ? { shownOnlyIf: listShown } : {}),
  });
  if (listShown && !(await listShown)) return outcome;
  await items.drain();
  if (destinations) bumpRevisions(destinations);
  // An event stream that reconnected mid-scan loses items: ask again for the rows still missing, once.
  // Every row with a result (the table counts them as they come): nothing to walk 100,000 rows for.
  if (outcome.ok && !destinations && store.get().destinationTable.statusCounts.pending > 0) {
    const table = store.get().destinationTable;
    // A host that is not connected is not read: its state says why.
    const offline = new Set(
      store
        .get()
        .hosts.filter((host) => host.state !== 'connected')
        .map((host) => host.name),
    );
    const missing = (store.get().workspace?.destinations ?? [])
      .filter((destination) => destination.host === undefined || !offline.has(destination.host))
      .map((destination) => destination.id)
      .filter((id) => table.scanEntry(id) === undefined);
    if (missing.length > 0) return scan(missing);
  }
  return outcome;
}

/**
 * Verifies the whole workspace, or the given destinations. Each item is a destination's row and its
 * verify from one read: the row goes in as a scan's does, then the result, so the list's status and
 * the verify panel always describe the same moment (a destination replaced since the last scan shows
 * its new row beside the report of it, never the old row).
 */
export async function verify(destinations?: string[]): Promise<JobOutcome<'verify'>> {
  const items = batcher<DestinationRead>((reads) => {
    // A destination the pass found changed since the row shown: its open views read it again.
    const changed: string[] = [];
    store.set((state) => {
      const entries = reads.map((read) => read.entry);
      holdUnlisted(entries, state.destinationTable);
      for (const { inspection, destination } of entries) {
        const held = state.destinationTable.scanEntry(destination)?.inspection;
        if (held && !sameStateAndListing(held, inspection)) changed.push(destination);
      }
      const verified = reads.flatMap((read) => read.verify ?? []);
      return { destinationTable: state.destinationTable.withScan(entries).withVerify(verified) };
    });
    if (changed.length > 0) bumpRevisions(changed);
  });
  const label = destinations
    ? `Verify ${destinations.length === 1 ? destinations[0] : `${destinations.length} destinations`}`
    : 'Verify all';
  // What it sets out to check: the engine verifies the managed destinations among those asked for.
  const setOutFor = destinations ? destinations.length : store.get().destinationTable.statusCounts.managed;
  let kept = 0;
  let last = { done: 0, total: 0 };
  const keep = scanEntryKeeper();
  const outcome = await trackedJob('verify', destinations ? { destinations } : {}, label, {
    onItem: (read) => {
      if (read.verify) kept += 1;
      items.push({ ...read, entry: keep(read.entry) });
    },
    onProgress: (view) => (last = { done: view.done, total: view.total }),
    ...(destinations?.length === 1 ? { destination: destinations[0] } : {}),
  });
  await items.drain();
  if (!outcome.ok && outcome.error.code === 'cancelled')
    store.set({ notice: cancelledVerifySentence({ kept, destinations: setOutFor, outputsDone: last.done, outputsTotal: last.total }) });
  return outcome;
}
