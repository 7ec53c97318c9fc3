// A re-read workspace put in place in the Session's open workspace: the results and plans of the
// destinations that went or changed are dropped, the others kept; the hosts' destinations stay (their
// hosts say when they change). The Session's reloadWorkspace reads; this reconciles what it read.

import type { DestinationEntry } from '../../shared/api';
import type { WorkspaceReload } from '../operations/reloadWorkspace';
import type { OpenWorkspace } from './sessionContext';
import { summaryOf } from './workspaceSummary';

/** What this uses of the Session's plans. */
interface Plans {
  dropFor(ids: ReadonlySet<string>): void;
}

export function placeReload(open: OpenWorkspace, reload: Extract<WorkspaceReload, { ok: true }>, plans: Plans, hostsShown: boolean): void {
  const { changes } = reload;
  open.sources.forget(); // a Rescan reads the sources again: a bundle rebuilt in place is a new decision
  const destinations: DestinationEntry[] = reload.loaded.destinations.map((d) => ({ ...d }));
  for (const id of [...changes.removed, ...changes.changed]) {
    open.scans.delete(id);
    open.verifies.delete(id);
  }
  plans.dropFor(new Set([...changes.removed, ...changes.changed]));
  const remote = open.summary.destinations.filter((entry) => entry.host !== undefined);
  open.summary = summaryOf(reload.loaded, [...destinations, ...remote], reload.issues, reload.readAt, hostsShown);
  open.loaded = reload.loaded;
  open.byId = new Map(open.summary.destinations.map((d) => [d.id, d]));
}
