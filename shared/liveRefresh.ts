// Live refresh as the API carries it: how the engine watches the open workspace (each destination
// watched natively or polled, and why), the words the status bar says about it. The events
// themselves are declared in shared/api.ts beside the job events. Pure: no Node, no DOM.

// The status's zod schema is liveRefreshSchema.ts: this module is read by the page's first screen.
import { groupDigits } from './issueCap';
import type { LiveRefreshStatus } from './liveRefreshSchema';

export type { LiveRefreshStatus, WatchMode } from './liveRefreshSchema';

export const LIVE_REFRESH_OFF: LiveRefreshStatus = Object.freeze({
  active: false,
  watching: 0,
  polling: 0,
  pollingReasons: [],
  pollIntervalMs: 2000,
}) as LiveRefreshStatus;

// Not toLocaleString: the status bar says this while the first rows stream in, and a page's first
// Intl call loads the locale's data (~10 ms of the page's thread).
const count = groupDigits;
const plural = (n: number, one: string) => `${count(n)} ${one}${n === 1 ? '' : 's'}`;
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * The status bar's words: "watching 12 destinations", or "watching 10 destinations; 2 checked every
 * 2 s instead, because the folder is on a network file system (nfs)". Says how often a destination
 * that cannot be watched is looked at, and why, in an operator's words. Undefined when live refresh is off.
 */
export function liveRefreshSentence(status: LiveRefreshStatus): string | undefined {
  if (!status.active) return undefined;
  const hosts = status.hosts && status.hosts.watched + status.hosts.unwatched > 0 ? status.hosts : undefined;
  if (!hosts) return localSentence(status);
  const onHosts = [
    hosts.watched > 0 ? `${plural(hosts.watched, 'destination')} on hosts, by their agents` : '',
    hosts.unwatched > 0 ? `${plural(hosts.unwatched, 'destination')} on hosts not watched now (not connected, or their watch failed)` : '',
  ]
    .filter(Boolean)
    .join('; ');
  if (status.watching > 0 || status.polling > 0) return `${localSentence(status)}; ${onHosts}`;
  return hosts.watched > 0 ? `watching ${onHosts}` : onHosts;
}

/** This machine's part: its destinations watched and polled, and why. */
function localSentence(status: LiveRefreshStatus): string {
  if (status.watching === 0 && status.polling === 0) return 'watching no destinations';
  const watched = `watching ${plural(status.watching, 'destination')}`;
  if (status.polling === 0) return watched;
  const [only] = status.pollingReasons;
  const why =
    status.pollingReasons.length === 1 && only
      ? `, because ${only.reason}`
      : ` (${status.pollingReasons.map((entry) => `${count(entry.count)}: ${entry.reason}`).join('; ')})`;
  const every = `every ${seconds(status.pollIntervalMs)}`;
  if (status.watching === 0) return `${plural(status.polling, 'destination')} checked ${every}${why}`;
  return `${watched}; ${count(status.polling)} checked ${every} instead${why}`;
}
