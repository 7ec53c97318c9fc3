// Debounce per key: a burst of raw events is one change, reported `debounceMs` after its last event,
// and a burst that never goes quiet is still reported `maxWaitMs` after its first. `settled()` is
// the signal tests and the bench wait for instead of a fixed sleep: every burst begun has ended and
// its report has run. Timers never keep the process alive.

interface Burst {
  first: number;
  last: number;
  deadline: number;
  timer: ReturnType<typeof setTimeout>;
}

export class Bursts {
  private readonly open = new Map<string, Burst>();
  private running = 0;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly debounceMs: number,
    private readonly maxWaitMs: number,
    /** A burst ended: `firstMs` is when its first event was seen, `lastMs` its last. */
    private readonly onEnd: (key: string, firstMs: number, lastMs: number) => Promise<void> | void,
    private readonly now: () => number = Date.now,
  ) {}

  /** One raw event: starts or extends the key's burst. */
  note(key: string): void {
    const now = this.now();
    const burst = this.open.get(key);
    if (!burst) {
      this.open.set(key, { first: now, last: now, deadline: now + this.maxWaitMs, timer: this.timer(key, this.debounceMs) });
      return;
    }
    burst.last = now;
    clearTimeout(burst.timer);
    burst.timer = this.timer(key, Math.max(0, Math.min(this.debounceMs, burst.deadline - now)));
  }

  /** Forgets the key's burst, unreported (the engine writes it; it was let go). */
  cancel(key: string): void {
    const burst = this.open.get(key);
    if (burst) clearTimeout(burst.timer);
    this.open.delete(key);
    this.wakeIfSettled();
  }

  cancelAll(): void {
    for (const key of [...this.open.keys()]) this.cancel(key);
  }

  /** Resolves once no burst is open and no report is running. */
  settled(): Promise<void> {
    if (this.open.size === 0 && this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private timer(key: string, delayMs: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => void this.end(key), delayMs);
    timer.unref?.();
    return timer;
  }

  private async end(key: string): Promise<void> {
    const burst = this.open.get(key);
    if (!burst) return;
    this.open.delete(key);
    this.running += 1;
    try {
      await this.onEnd(key, burst.first, burst.last);
    } catch {
      // A failed report must not stop the others.
    } finally {
      this.running -= 1;
      this.wakeIfSettled();
    }
  }

  private wakeIfSettled(): void {
    if (this.open.size > 0 || this.running > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
