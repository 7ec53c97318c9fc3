// Long work as jobs: an opaque id, an AbortController each, throttled progress events, items, and
// exactly one ending event (a result, or an error — `cancelled` when stopped). Transport-free.
// Items go out batched, one `items` event per turn of the event loop: a scan of 100,000 destinations
// as one event each cost every transport a frame, a JSON.parse and a dispatch per row. Events keep
// the order they were made in: pending items go out before any progress or ending.
// Must never let a job's failure escape as a throw: every ending becomes an event.

import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { checkOutgoing, jobSchemas, type ApiEvent, type JobItemOf, type JobMethod, type JobResultOf } from '../../shared/api';
import { ApiFailure, errorOf, fail, type ApiError } from '../../shared/apiError';
import type { ApplyStep } from '../../shared/plan';

export interface JobContext<M extends JobMethod> {
  signal: AbortSignal;
  progress(done: number, total: number, bytes: number, step?: ApplyStep): void;
  item(item: JobItemOf<M>): void;
}

export interface JobRegistryOptions {
  /** At most one progress event per job in this interval; the last one before the end is always sent. */
  progressIntervalMs?: number;
  /** False: items and results go to a client in this process as they are (SessionOptions.checkAnswers). */
  checkAnswers?: boolean | undefined;
}

/**
 * At most this many items in one event: a scan's rows come a worker's answer at a time, and one
 * event must stay a short parse for the page (1,000 scan rows: ~0.7 MB of JSON, a few ms).
 */
const ITEMS_PER_EVENT = 1000;

interface RunningJob {
  method: JobMethod;
  controller: AbortController;
  finished: Promise<void>;
}

export class JobRegistry {
  private readonly jobs = new Map<string, RunningJob>();
  private readonly prefix = randomBytes(4).toString('hex');
  private counter = 0;
  private readonly progressIntervalMs: number;
  private readonly checkAnswers: boolean;

  constructor(
    private readonly emit: (event: ApiEvent) => void,
    options: JobRegistryOptions = {},
  ) {
    this.progressIntervalMs = options.progressIntervalMs ?? 50;
    this.checkAnswers = options.checkAnswers !== false;
  }

  /** Starts `run` on a later tick, so the caller has the id before the first event. */
  start<M extends JobMethod>(method: M, run: (context: JobContext<M>) => Promise<JobResultOf<M>>): string {
    const job = `job-${this.prefix}-${++this.counter}`;
    const controller = new AbortController();
    // Every pool request of the job listens to this one signal until it settles; a verify of many
    // destinations has dozens at once. Node's leak warning at 11 would be noise on stderr (the agent's
    // stderr is the operator's log), not a leak.
    setMaxListeners(0, controller.signal);
    let lastSentAt = 0;
    let sentPhase: string | undefined;
    let pending: { done: number; total: number; bytes: number; step?: ApplyStep } | undefined;
    const schemas = jobSchemas(method);
    const check = this.checkAnswers ? checkOutgoing : <T>(_schema: unknown, value: unknown) => ({ ok: true as const, value: value as T });
    let malformed: ApiError | undefined;
    let items: JobItemOf<M>[] = [];
    let itemsDue: NodeJS.Immediate | undefined;
    const sendItems = () => {
      if (itemsDue) clearImmediate(itemsDue);
      itemsDue = undefined;
      if (items.length === 0) return;
      const batch = items;
      items = [];
      this.emit({ event: 'items', data: { job, method, items: batch } as never });
    };
    const flush = () => {
      sendItems();
      if (pending) {
        this.emit({ event: 'progress', data: { job, method, ...pending } });
        sentPhase = pending.step?.phase;
      }
      pending = undefined;
      lastSentAt = Date.now();
    };
    const context: JobContext<M> = {
      signal: controller.signal,
      progress: (done, total, bytes, step) => {
        if (controller.signal.aborted) return;
        // A new phase is sent at once: "moving into place" must not wait behind the throttle.
        const newPhase = step !== undefined && step.phase !== sentPhase;
        pending = step ? { done, total, bytes, step } : { done, total, bytes };
        if (newPhase || Date.now() - lastSentAt >= this.progressIntervalMs) flush();
      },
      item: (item) => {
        if ((controller.signal.aborted && !schemas.resultTellsCancel) || malformed) return;
        // Items are checked like responses: a malformed one is not sent, and the job ends with its error.
        const checked = schemas.item ? check(schemas.item, item, `${method}: the engine's item`) : undefined;
        if (checked && !checked.ok) return void (malformed = checked.error);
        items.push((checked?.value ?? item) as JobItemOf<M>);
        if (items.length >= ITEMS_PER_EVENT) sendItems();
        else itemsDue ??= setImmediate(sendItems);
      },
    };
    const finished = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        controller.signal.throwIfAborted();
        return run(context);
      })
      .then((result) => {
        // A job that finishes after a cancel still reports cancelled: the operator asked it to stop. Not
        // an apply: its result says whether the cancel stopped it, and one that had passed the point of
        // no return changed the disk, which `cancelled` ("did not run") would hide.
        if (controller.signal.aborted && !schemas.resultTellsCancel) throw controller.signal.reason;
        if (malformed) throw new ApiFailure(malformed);
        const checked = check(schemas.result, result, `${method}: the engine's result`);
        if (!checked.ok) throw new ApiFailure(checked.error);
        flush();
        this.emit({ event: 'result', data: { job, method, result: checked.value } as never });
      })
      .catch((cause: unknown) => {
        sendItems();
        this.emit({ event: 'error', data: { job, method, error: errorOf(cause, controller.signal) } });
      })
      .finally(() => this.jobs.delete(job));
    this.jobs.set(job, { method, controller, finished });
    return job;
  }

  /** Whether a running job was asked to stop; false for an unknown or finished job. */
  cancel(job: string): boolean {
    const running = this.jobs.get(job);
    if (!running || running.controller.signal.aborted) return false;
    running.controller.abort(fail('cancelled', 'cancelled'));
    return true;
  }

  get runningCount(): number {
    return this.jobs.size;
  }

  /** Whether a job of this method is running. */
  isRunning(method: JobMethod): boolean {
    for (const job of this.jobs.values()) if (job.method === method) return true;
    return false;
  }

  /** Cancels every job and waits until each has sent its ending event. */
  async close(): Promise<void> {
    const running = [...this.jobs.values()];
    for (const job of running) job.controller.abort(fail('cancelled', 'cancelled'));
    await Promise.all(running.map((job) => job.finished));
  }
}
