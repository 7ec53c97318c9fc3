// A clock that moves only when a test says so (the reconnect backoff's tests): timers run in due
// order as `advance` passes their time, and `random` answers what the test set. For tests only.

import type { ReconnectClock } from '../service/hostReconnect';

export class FakeClock implements ReconnectClock {
  private at = Date.parse('2026-06-01T10:00:00Z');
  private nextId = 1;
  private readonly timers = new Map<number, { due: number; run: () => void }>();
  /** What `random()` answers: 0 takes no jitter off, 0.999… the most. */
  randomValue = 0;

  now(): number {
    return this.at;
  }

  random(): number {
    return this.randomValue;
  }

  setTimeout(run: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { due: this.at + ms, run });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** The waits still pending, from now, soonest first. */
  pending(): number[] {
    return [...this.timers.values()].map((timer) => timer.due - this.at).sort((a, b) => a - b);
  }

  /** Moves time on by `ms`, running each timer that falls due on the way, in order. */
  advance(ms: number): void {
    const end = this.at + ms;
    for (;;) {
      const next = [...this.timers.entries()].filter(([, timer]) => timer.due <= end).sort((a, b) => a[1].due - b[1].due)[0];
      if (!next) break;
      this.timers.delete(next[0]);
      this.at = next[1].due;
      next[1].run();
    }
    this.at = end;
  }
}
