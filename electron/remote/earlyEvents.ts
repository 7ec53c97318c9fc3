// remote/: the events an agent sent for a job whose start (its `{job}` reply) the client has not read
// yet, kept until job() claims them. The agent decides the job ids, so a broken or hostile one can
// send events for jobs nobody started: this keeps at most so many per job and so many in all (events
// and characters), and says when an agent went past them so the client drops that host
// (agent_flood). Pure, no I/O. Must never grow past its limits, whatever the agent sends.

export interface EarlyLimits {
  /** Events kept for one job id: a real job's reply comes before its first I/O, so only a few arrive first. */
  perJob: number;
  /** Events kept for every job id together. */
  events: number;
  /** Characters of those events' lines together. */
  chars: number;
}

export const EARLY_LIMITS: EarlyLimits = { perJob: 1_000, events: 10_000, chars: 16 * 1024 * 1024 };

export interface EarlyEvent {
  event: string;
  data: unknown;
}

export class EarlyEvents {
  private readonly byJob = new Map<string, { events: EarlyEvent[]; chars: number }>();
  private events = 0;
  private chars = 0;

  constructor(private readonly limits: EarlyLimits = EARLY_LIMITS) {}

  /** Keeps one event of `chars` characters; returns why the agent went past a limit instead (nothing is kept then). */
  keep(job: string, event: EarlyEvent, chars: number): string | undefined {
    const kept = this.byJob.get(job) ?? { events: [], chars: 0 };
    if (kept.events.length + 1 > this.limits.perJob)
      return `more than ${this.limits.perJob.toLocaleString('en-US')} events for job ${JSON.stringify(job.slice(0, 80))} before its start was answered`;
    if (this.events + 1 > this.limits.events)
      return `more than ${this.limits.events.toLocaleString('en-US')} events for jobs whose start was not answered (${this.byJob.size.toLocaleString('en-US')} job ids)`;
    if (this.chars + chars > this.limits.chars)
      return `more than ${Math.round(this.limits.chars / 1024 / 1024)} MiB of events for jobs whose start was not answered`;
    kept.events.push(event);
    kept.chars += chars;
    this.byJob.set(job, kept);
    this.events += 1;
    this.chars += chars;
    return undefined;
  }

  /** The events kept for `job`, in order, forgotten here. */
  take(job: string): EarlyEvent[] {
    const kept = this.byJob.get(job);
    if (!kept) return [];
    this.byJob.delete(job);
    this.events -= kept.events.length;
    this.chars -= kept.chars;
    return kept.events;
  }

  clear(): void {
    this.byJob.clear();
    this.events = 0;
    this.chars = 0;
  }

  /** What is kept now. */
  get size(): { jobs: number; events: number; chars: number } {
    return { jobs: this.byJob.size, events: this.events, chars: this.chars };
  }
}
