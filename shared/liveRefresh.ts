// Live refresh as the API carries it: how the engine watches the open workspace (each destination
// watched natively or polled, and why), the words the status bar says about it. The events
// themselves are declared in shared/api.ts beside the job events. Pure: no Node, no DOM.

import { z } from 'zod';

export const watchModeSchema = z.enum(['watching', 'polling']);
export type WatchMode = z.infer<typeof watchModeSchema>;

export const liveRefreshStatusSchema = z.object({
  /** False when nothing is watched: no workspace open, or live refresh off (the ssh agent). */
  active: z.boolean(),
  /** Destinations with a native watch on their folder. */
  watching: z.number().int().nonnegative(),
  /** Destinations polled instead (every entry of their tree stat'ed every pollIntervalMs). */
  polling: z.number().int().nonnegative(),
  /** Why destinations are polled, each reason with how many; most first. */
  pollingReasons: z.array(z.object({ reason: z.string(), count: z.number().int().positive() })),
  /** The workspace file (or folder) whose change re-reads the list. */
  workspace: z.object({ path: z.string(), mode: watchModeSchema, reason: z.string().optional() }).optional(),
  /** The time between two checks of a polled destination now (longer than asked when many are polled). */
  pollIntervalMs: z.number().int().positive(),
  /**
   * The workspace hosts' destinations (docs/live-refresh.md, "On a workspace host"): watched by their
   * agent, or not watched now (the host not connected, or its watch failed or incomplete). Absent without hosts.
   */
  hosts: z.object({ watched: z.number().int().nonnegative(), unwatched: z.number().int().nonnegative() }).optional(),
});
export type LiveRefreshStatus = z.infer<typeof liveRefreshStatusSchema>;

export const LIVE_REFRESH_OFF: LiveRefreshStatus = Object.freeze({
  active: false,
  watching: 0,
  polling: 0,
  pollingReasons: [],
  pollIntervalMs: 2000,
}) as LiveRefreshStatus;

const count = (n: number) => n.toLocaleString('en-US');
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
