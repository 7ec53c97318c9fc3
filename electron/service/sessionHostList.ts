// The open workspace's list as its hosts come and go: a host dropped takes its destinations (and
// their results and plans) with it; a host (re)connected replaces the destinations it had. A local
// destination keeps its id: a host's entry named the same is left out.

import type { HostStateEvent } from '../../shared/hostState';
import type { SessionState } from './sessionContext';

/** What these functions use of the Session's plans made on hosts. */
interface HostPlans {
  dropHost(name: string): void;
}

export function dropHostDestinations(state: SessionState, hostPlans: HostPlans, name: string): void {
  const open = state.workspace;
  hostPlans.dropHost(name);
  if (!open) return;
  const gone = open.summary.destinations.filter((entry) => entry.host === name);
  if (gone.length === 0) return;
  open.summary = { ...open.summary, destinations: open.summary.destinations.filter((entry) => entry.host !== name) };
  for (const entry of gone) {
    open.byId.delete(entry.id);
    open.scans.delete(entry.id);
    open.verifies.delete(entry.id);
  }
}

/** A host's new state: on (re)connect, its destinations replace the ones it had; answers the event to send. */
export function hostStateArrived(state: SessionState, hostPlans: HostPlans, event: HostStateEvent): HostStateEvent {
  const open = state.workspace;
  const name = event.host.name;
  if (event.host.state === 'connecting') hostPlans.dropHost(name);
  if (open && event.destinations) {
    const before = new Set(open.summary.destinations.filter((entry) => entry.host === name).map((entry) => entry.id));
    const now = new Set(event.destinations.map((entry) => entry.id));
    for (const id of before)
      if (!now.has(id)) {
        open.byId.delete(id);
        open.scans.delete(id);
        open.verifies.delete(id);
      }
    // A local destination keeps its id: a host's entry named the same (never from the loader) is left out.
    const added = event.destinations.filter((entry) => (open.byId.get(entry.id)?.host === undefined ? !open.byId.has(entry.id) : true));
    for (const entry of added) open.byId.set(entry.id, entry);
    open.summary = {
      ...open.summary,
      destinations: [...open.summary.destinations.filter((entry) => entry.host !== name), ...added],
    };
    return { ...event, destinations: added };
  }
  return event;
}
