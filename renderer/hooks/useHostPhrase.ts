// How a destructive action's confirmation names the workspace host a destination is on: "web-1
// (ssh://web-1/srv/www)" (view/hostWords.ts), with the URL the engine last said for it; undefined for
// this machine's destinations.

import { useAppState } from '../state/store';
import { hostPhrase } from '../view/hostWords';

/** The phrase for the host of the destination `id` (by its entry in the open workspace). */
export function useHostPhrase(id: string): string | undefined {
  const name = useAppState((state) => state.workspace?.destinations.find((entry) => entry.id === id)?.host);
  const url = useAppState((state) => (name === undefined ? undefined : state.hosts.find((host) => host.name === name)?.url));
  return name === undefined ? undefined : hostPhrase({ name, url });
}
