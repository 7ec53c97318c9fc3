// When the polled destinations are swept: one sweep at a time, a few destinations at once, the next
// `intervalMs` after one ends, and spaced further when sweeps are slow (thousands of polled trees
// once the watch limit is reached) so that polling stays a small share of a core. `nextSweep()` is
// the signal tests wait on instead of a sleep. Timers never keep the process alive.

/** A sweep costs at most this share of the time between sweeps. */
const DUTY = 0.05;
const LANES = 16;

export class PollSchedule<T> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sweeping = false;
  private stopped = false;
  private waiters: (() => void)[] = [];
  /** The time between sweeps now. */
  intervalMs: number;

  constructor(
    private readonly floorMs: number,
    private readonly work: {
      polled: () => T[];
      pollOne: (item: T) => Promise<void>;
      /** The interval changed (status words say it) or a sweep ended. */
      afterSweep: (intervalChanged: boolean) => void;
    },
  ) {
    this.intervalMs = floorMs;
  }

  /** Starts the next sweep's timer unless one is running or due. */
  schedule(): void {
    if (this.timer !== undefined || this.stopped || this.sweeping) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sweep();
    }, this.intervalMs);
    this.timer.unref?.();
  }

  /** Resolves at the end of the next complete sweep (at once when nothing is polled or it is stopped). */
  nextSweep(): Promise<void> {
    if (this.stopped || this.work.polled().length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      // A sweep already running may have passed the change: wait for the one after it.
      let skip = this.sweeping;
      const wait = () => {
        if (skip) {
          skip = false;
          this.waiters.push(wait);
        } else resolve();
      };
      this.waiters.push(wait);
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.wake();
  }

  private async sweep(): Promise<void> {
    const polled = this.work.polled();
    if (polled.length === 0 || this.stopped) {
      this.wake();
      return;
    }
    this.sweeping = true;
    const started = Date.now();
    let next = 0;
    const lane = async () => {
      while (next < polled.length && !this.stopped) await this.work.pollOne(polled[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(LANES, polled.length) }, lane));
    this.sweeping = false;
    const wanted = (Date.now() - started) / DUTY;
    const interval = wanted <= this.floorMs ? this.floorMs : Math.ceil(wanted / 1000) * 1000;
    const changed = interval !== this.intervalMs;
    this.intervalMs = interval;
    this.work.afterSweep(changed);
    this.wake();
    this.schedule();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
