// How the engine watches the open workspace, as the API carries it (a zod schema): shared/liveRefresh.ts
// holds its words and re-exports its types, apart from zod so that the page's first screen (the
// status bar) does not evaluate it. Pure: no Node, no DOM.

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
