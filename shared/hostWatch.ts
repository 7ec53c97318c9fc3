// Watching a workspace host's destinations (issue 24): its agent watches them with the same tree
// watcher as this machine, once its client subscribes (`watchDestinations`), and pushes which changed
// as `destinationChanges` events over the same connection. The rules both ends keep, so that a
// working agent is never taken for a flooding one: the agent coalesces changes per destination and
// sends at most one event per CHANGES_INTERVAL_MS, naming at most MAX_CHANGES_PER_EVENT destinations;
// a client drops an agent that sends more than FLOOD_EVENTS in FLOOD_WINDOW_MS (many times that rate).
// Pure: no Node, no DOM.

import { z } from 'zod';

/** The agent sends at most one `destinationChanges` per this interval: whatever changed meanwhile, in one event. */
export const CHANGES_INTERVAL_MS = 250;

/** Destinations named in one event; more changes wait for the next (4,096 ids of 200 characters: under 1 MiB). */
export const MAX_CHANGES_PER_EVENT = 4096;

/** A client drops the host as agent_flood past this many events in FLOOD_WINDOW_MS: 25 times what the interval allows. */
export const FLOOD_EVENTS = 1000;
export const FLOOD_WINDOW_MS = 10_000;

/** How the agent watches its destinations: `complete` when every one is watched or polled, so no change can go unseen. */
export const hostWatchSchema = z.object({
  complete: z.boolean(),
  watching: z.number().int().nonnegative(),
  polling: z.number().int().nonnegative(),
  /** Why the watch is not complete, in the operator's words. */
  reason: z.string().max(1000).optional(),
});
export type HostWatch = z.infer<typeof hostWatchSchema>;

/** The `destinationChanges` event: the agent's own ids of destinations that changed on its disk, and whether its watch is complete now. */
export const destinationChangesSchema = z.object({
  destinations: z.array(z.string().min(1).max(200)).max(MAX_CHANGES_PER_EVENT),
  /** When the earliest of these changes was seen (the agent's clock, RFC 3339). */
  at: z.string().max(64),
  /**
   * When the latest event of any of them was seen (the same clock): a verify the agent began reading
   * after it already read them all (shared/verifyFreshness.ts). Absent from an agent before it.
   */
  lastEventAt: z.string().max(64).optional(),
  complete: z.boolean(),
  reason: z.string().max(1000).optional(),
});
export type DestinationChanges = z.infer<typeof destinationChangesSchema>;

/**
 * Counts a host's change events on the client's clock and says when they go past FLOOD_EVENTS in
 * FLOOD_WINDOW_MS. Keeps at most FLOOD_EVENTS times, whatever arrives.
 */
export class ChangeRate {
  private readonly times: number[] = [];

  constructor(
    private readonly limit = FLOOD_EVENTS,
    private readonly windowMs = FLOOD_WINDOW_MS,
  ) {}

  /** Notes one event at `nowMs`; returns why the agent is flooding, or undefined. */
  note(nowMs: number): string | undefined {
    while (this.times.length > 0 && this.times[0]! <= nowMs - this.windowMs) this.times.shift();
    if (this.times.length >= this.limit)
      return `more than ${this.limit.toLocaleString('en-US')} change events in ${this.windowMs / 1000} s (a working agent sends at most one every ${CHANGES_INTERVAL_MS} ms)`;
    this.times.push(nowMs);
    return undefined;
  }
}
