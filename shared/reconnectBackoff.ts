// How long a lost host waits before the app tries it again (issue 28), as VS Code's Remote-SSH counts
// down: 1 s, 2 s, 4 s … doubling, at most 60 s. Each wait is shortened by a random 0 to 20 %, so
// hosts lost together (a network blip, a restarted bastion) do not all knock at the same moment; a
// wait is never longer than its step, so the countdown shown is never exceeded. Pure.

export const RECONNECT_FIRST_MS = 1000;
export const RECONNECT_MAX_MS = 60_000;
/** The largest share of a wait taken off at random. */
export const RECONNECT_JITTER = 0.2;

/** The wait before try number `retries` (0 for the first after the loss); `random` in [0, 1). */
export function reconnectDelayMs(retries: number, random: number): number {
  const step = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** Math.min(Math.max(0, Math.floor(retries)), 16));
  const share = Math.min(Math.max(random, 0), 1) * RECONNECT_JITTER;
  return Math.round(step * (1 - share));
}
