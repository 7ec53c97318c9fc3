// A pool of worker threads (one per core by default) shared by every scan and verification running
// at once: they hash files, list destinations and inspect them (poolProtocol.ts). Small jobs travel
// in batches so none pays a round trip of its own; a big file goes alone.
// A worker running cheap jobs (plain inspections, stat checks) is handed its next batch before it
// answers the current one, so it never waits on this thread between batches; a batch that may read
// a file of any size is never queued behind another, which would hold its jobs from an idle worker.
// On abort, the workers holding that request's files are terminated and awaited before the promise
// settles: no worker is left hashing for a cancelled job. A worker that dies (out of memory on a
// huge state file, a crash) costs only the job that killed it: its batch is run again one job at a
// time, and the job that dies alone gets an error outcome; every other job still gets its answer.
// Never reads a file itself; a caller with nothing else to do on its thread (the command line) may
// hand it `runHere` (poolInThread.ts) for the requests one worker would have run alone, and for a
// scan's inspections while every core is busy.

import { availableParallelism, loadavg } from 'node:os';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { CachedOutput } from '../../shared/verifyFreshnessCache';
import type { UnchangedExpectation } from '../../shared/verifyFreshnessCheck';
import type { HashOutcome, HashTask } from './hashTask';
import { JobQueue } from './jobQueue';
import { startWorker } from './startHashWorker';
import { abortReason, crashMessage, fitsOneBatch, mayWaitBehind, takeBatch, type QueuedJob } from './poolBatches';
import type { CheckJobOutcome, FromWorker, InspectOutcome, Job, PoolJobOutcome, ListJob, ToWorker } from './poolProtocol';

export type { HashOutcome, HashTask } from './hashTask';
export type { CheckJobOutcome, InspectOutcome } from './poolProtocol';

export interface HashProgress {
  /** Files finished since the last call. */
  files: number;
  /** Bytes read since the last call. */
  bytes: number;
}

export interface HashOptions {
  signal?: AbortSignal;
  onProgress?: (delta: HashProgress) => void;
}

interface RunOptions extends HashOptions {
  /** Each outcome as soon as its batch is back, before the whole request settles. */
  onOutcome?: (index: number, outcome: PoolJobOutcome) => void;
}

/** Runs a request's jobs in the calling thread, with the progress and outcomes a worker's batch gives (poolInThread.ts). */
export type RunHere = (jobs: Job[], options: RunOptions) => Promise<PoolJobOutcome[]>;

interface Request {
  outcomes: PoolJobOutcome[];
  remaining: number;
  options: RunOptions;
  resolve: (outcomes: PoolJobOutcome[]) => void;
  reject: (reason: unknown) => void;
  settled: boolean;
  /** Removed once settled: one long-lived signal serves thousands of requests. */
  onAbort?: () => void;
}

interface Item extends QueuedJob {
  request: Request;
  index: number;
}

interface Batch {
  id: number;
  items: Item[];
}

interface Slot {
  worker: Worker;
  /** Sent and not yet answered, in the order sent: the first is running, a second waits in the worker. */
  batches: Batch[];
  /** Set when we terminate it on purpose, so its exit is not taken for a crash. */
  stopping: boolean;
  /** Its code loaded ('ready'): from then on a death is blamed on the job it ran, not on the worker. */
  ready: boolean;
  exited: Promise<void>;
}

/** A choice made for every destination of a request, or for each by its index in the request. */
export type PerIndex = boolean | ((index: number) => boolean);

/** The choice for the destination at `index`. */
export function choiceAt(choice: PerIndex, index: number): boolean {
  return typeof choice === 'function' ? choice(index) : choice;
}

export class HashPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private readonly queue = new JobQueue<Item>();
  private nextBatchId = 1;
  private closed = false;

  private readonly resourceLimits: ResourceLimits | undefined;
  private readonly runHere: RunHere | undefined;
  private readonly coresBusy: () => boolean;

  /**
   * `runHere`: a request whose jobs fit in one batch, made while no worker runs and none waits, is
   * run by it in this thread instead: one worker would have run it alone anyway, after tens of
   * milliseconds of its own start. So is a larger one of plain inspections while `coresBusy()`
   * (default: the load average at or above the cores): there a worker adds its start, its own JIT
   * and GC and the hand-off of every outcome, not speed. Only for a caller with nothing else to do.
   */
  constructor(options: { size?: number; resourceLimits?: ResourceLimits; runHere?: RunHere; coresBusy?: () => boolean } = {}) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.resourceLimits = options.resourceLimits;
    this.runHere = options.runHere;
    this.coresBusy = options.coresBusy ?? (() => loadavg()[0]! >= availableParallelism());
  }

  /** Live worker threads right now (0 before the first file and after close or a full cancel). */
  get workerCount(): number {
    return this.slots.length;
  }

  /** Workers running a batch right now. */
  get busyCount(): number {
    return this.slots.filter((slot) => slot.batches.length > 0).length;
  }

  /** Batches sent and not yet answered, over all workers. */
  get batchesInFlight(): number {
    return this.slots.reduce((sum, slot) => sum + slot.batches.length, 0);
  }

  get threadIds(): number[] {
    return this.slots.map((slot) => slot.worker.threadId);
  }

  /** Examines and hashes every task; outcomes in task order. Rejects with the signal's reason on abort. */
  hash(tasks: HashTask[], options: HashOptions = {}): Promise<HashOutcome[]> {
    return this.run(
      tasks.map((task) => ({ kind: 'hash', ...task })),
      options,
    ) as Promise<HashOutcome[]>;
  }

  /** Lists a destination (listFiles.ts) in a worker; an unreadable destination lists as empty. */
  async list(root: string, job: Omit<ListJob, 'kind' | 'root'>, options: HashOptions = {}): Promise<string[]> {
    const [outcome] = await this.run([{ kind: 'list', root, ...job }], options);
    return outcome?.kind === 'listed' ? outcome.entries : [];
  }

  /**
   * Inspects destinations (scanReader.ts) in workers, and with `verify` verifies each managed one
   * there too; each outcome also through onOutcome as it comes, bytes hashed through onProgress.
   */
  inspect(
    paths: string[],
    options: HashOptions & {
      /** Send the state back: for all, or only for the destinations at the indexes this accepts. */
      withState: PerIndex;
      verify?: boolean;
      /** The inspection's fingerprint (state sha256, listing digest): for all, or only at the indexes this accepts; default true. */
      digests?: PerIndex;
      /** False: `hasContent` left unsettled where it costs a call of its own (scanReader.ts); default true. */
      settleContent?: boolean;
      /** Verify through the stat cache: what it knows of the destination at each index ({} for nothing). */
      knownOf?: (index: number) => Record<string, CachedOutput>;
      /** Each row's fields rendered in the worker as `scan --json` prints them (poolProtocol.ts InspectJob). */
      rowText?: { verifiedAt?: string };
      /** With `verify`: an intact destination's report stays in the worker, its status alone comes back. */
      driftedReportsOnly?: boolean;
      onOutcome?: (index: number, outcome: InspectOutcome) => void;
    },
  ): Promise<InspectOutcome[]> {
    return this.run(
      paths.map((target, index) => {
        const job: Job = {
          kind: 'inspect',
          path: target,
          withState: choiceAt(options.withState, index),
          verify: options.verify === true,
          digests: choiceAt(options.digests ?? true, index),
          settleContent: options.settleContent !== false,
        };
        if (options.knownOf) job.known = options.knownOf(index);
        if (options.rowText) job.rowText = options.rowText;
        if (options.driftedReportsOnly) job.driftedReportsOnly = true;
        return job;
      }),
      { signal: options.signal, onProgress: options.onProgress, onOutcome: options.onOutcome as RunOptions['onOutcome'] },
    ) as Promise<InspectOutcome[]>;
  }

  /**
   * A re-verify's stat check (statCheck.ts) of each destination against the stat cache's expectation,
   * in workers; each outcome also through onOutcome as it comes.
   */
  check(
    destinations: { path: string; expectation: UnchangedExpectation }[],
    options: HashOptions & { digests: boolean; onOutcome?: (index: number, outcome: CheckJobOutcome) => void },
  ): Promise<CheckJobOutcome[]> {
    return this.run(
      destinations.map(({ path, expectation }) => ({ kind: 'check', path, expectation, digests: options.digests })),
      { signal: options.signal, onProgress: options.onProgress, onOutcome: options.onOutcome as RunOptions['onOutcome'] },
    ) as Promise<CheckJobOutcome[]>;
  }

  private run(jobs: Job[], options: RunOptions): Promise<PoolJobOutcome[]> {
    if (this.closed) return Promise.reject(new Error('HashPool is closed'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (jobs.length === 0) return Promise.resolve([]);
    if (this.runHere && this.slots.length === 0 && this.queue.length === 0 && (fitsOneBatch(jobs) || this.inspectsHere(jobs)))
      return this.runHere(jobs, options);
    return new Promise<PoolJobOutcome[]>((resolve, reject) => {
      const request: Request = { outcomes: new Array(jobs.length), remaining: jobs.length, options, resolve, reject, settled: false };
      jobs.forEach((job, index) => this.queue.push({ request, index, job }));
      if (signal) {
        request.onAbort = () => void this.cancel(request, abortReason(signal));
        signal.addEventListener('abort', request.onAbort, { once: true });
      }
      this.dispatch();
    });
  }

  /** Plain inspections (no verify, no hashing) while the cores are busy: a worker would not speed them up. */
  private inspectsHere(jobs: readonly Job[]): boolean {
    return jobs.every((job) => job.kind === 'inspect' && !job.verify) && this.coresBusy();
  }

  /** Terminates every worker and waits for them to exit. Pending requests are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = new Set([
      ...this.queue.toArray().map((item) => item.request),
      ...this.slots.flatMap((slot) => slot.batches.flatMap((batch) => batch.items.map((item) => item.request))),
    ]);
    this.queue.clear();
    await Promise.all([...this.slots].map((slot) => this.stop(slot)));
    for (const request of pending) this.settle(request, new Error('HashPool was closed'));
  }

  private dispatch(): void {
    // Every worker gets a batch first (starting one if the pool may grow); only then does a worker
    // running quick jobs get the one after, so the work spreads over all the workers.
    while (this.queue.length > 0) {
      let slot = this.slots.find((candidate) => candidate.batches.length === 0 && !candidate.stopping);
      if (!slot) {
        if (this.slots.length >= this.size) break;
        slot = this.spawn();
      }
      this.send(slot, takeBatch(this.queue));
    }
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.stopping || slot.batches.length !== 1 || !mayWaitBehind(slot.batches[0]!.items, this.queue.peek()!)) continue;
      this.send(slot, takeBatch(this.queue));
    }
  }

  private send(slot: Slot, items: Item[]): void {
    const id = this.nextBatchId++;
    slot.batches.push({ id, items });
    slot.worker.ref();
    slot.worker.postMessage({ type: 'batch', id, jobs: items.map((item) => item.job) } satisfies ToWorker);
  }

  private spawn(): Slot {
    const worker = startWorker(this.resourceLimits);
    let markExited!: () => void;
    const slot: Slot = {
      worker,
      batches: [],
      stopping: false,
      ready: false,
      exited: new Promise<void>((resolve) => (markExited = resolve)),
    };
    worker.on('message', (message: FromWorker) => this.receive(slot, message));
    worker.on('error', (cause) => {
      if (!slot.stopping) this.crashed(slot, cause);
    });
    worker.on('exit', (code) => {
      markExited();
      if (!slot.stopping) this.crashed(slot, new Error(`hash worker exited with code ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }

  private receive(slot: Slot, message: FromWorker): void {
    if (message.type === 'ready') {
      slot.ready = true;
      return;
    }
    // The worker answers its batches in the order they were sent: only the first is running.
    const batch = slot.batches[0];
    // A worker being terminated may still deliver a last message: its files were requeued or cancelled.
    if (!batch || message.id !== batch.id || slot.stopping) return;
    if (message.type === 'progress') {
      batch.items[0]?.request.options.onProgress?.({ files: 0, bytes: message.bytes });
      return;
    }
    slot.batches.shift();
    // Idle workers must not keep the process alive: a caller that forgets close() still exits.
    if (slot.batches.length === 0) slot.worker.unref();
    // The next batch goes out before this one's outcomes are handled, so the worker reads while this
    // thread parses and delivers (on a loaded machine it otherwise waited ~10 ms a batch here).
    this.dispatch();
    let bytesReported = false;
    const filesByRequest = new Map<Request, number>();
    const outcomes = JSON.parse(message.outcomesJson) as PoolJobOutcome[];
    const { texts } = message;
    outcomes.forEach((outcome, i) => {
      const text = texts?.[i];
      if (typeof text === 'string' && outcome.kind === 'inspected') outcome.text = text;
      const item = batch.items[i]!;
      // Aborted but not yet settled (its workers are being stopped): deliver nothing more.
      if (item.request.settled || item.request.options.signal?.aborted) return;
      item.request.outcomes[item.index] = outcome;
      item.request.remaining -= 1;
      item.request.options.onOutcome?.(item.index, outcome);
      filesByRequest.set(item.request, (filesByRequest.get(item.request) ?? 0) + 1);
    });
    for (const [request, files] of filesByRequest) {
      request.options.onProgress?.({ files, bytes: bytesReported ? 0 : message.bytes });
      bytesReported = true;
      if (request.remaining === 0) this.settle(request);
    }
  }

  private crashed(slot: Slot, cause: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const unsettled = (batch: Batch | undefined) => (batch?.items ?? []).filter((item) => !item.request.settled);
    // Only the first batch was running; the one queued behind it goes back as it was, to run again.
    const items = unsettled(slot.batches[0]);
    const waiting = unsettled(slot.batches[1]);
    slot.batches = [];
    if (!slot.ready) {
      // It died loading its own code (a broken bundle): every job would fail the same way.
      for (const item of [...items, ...waiting]) this.settle(item.request, cause);
      if (!this.closed) this.dispatch();
      return;
    }
    this.queue.unshiftAll(waiting);
    if (items.length === 1 || items.some((item) => item.alone)) {
      // Alone, it is the job that killed the worker: an error outcome, like an unreadable file.
      const [culprit] = items;
      if (culprit) this.deliver(culprit, { kind: 'error', message: crashMessage(culprit.job, cause) });
    } else if (items.length > 1) {
      this.queue.unshiftAll(items.map((item) => ({ ...item, alone: true })));
    }
    if (!this.closed) this.dispatch();
  }

  /** One outcome outside a batch's answer (a worker's death), with its progress and settling. */
  private deliver(item: Item, outcome: PoolJobOutcome): void {
    const { request } = item;
    if (request.settled || request.options.signal?.aborted) return;
    request.outcomes[item.index] = outcome;
    request.remaining -= 1;
    request.options.onOutcome?.(item.index, outcome);
    request.options.onProgress?.({ files: 1, bytes: 0 });
    if (request.remaining === 0) this.settle(request);
  }

  private async cancel(request: Request, reason: unknown): Promise<void> {
    if (request.settled) return;
    this.queue.removeWhere((item) => item.request === request);
    const holding = this.slots.filter((slot) => slot.batches.some((batch) => batch.items.some((item) => item.request === request)));
    // Other requests' files in those batches go back to the front of the queue.
    const others = holding.flatMap((slot) =>
      slot.batches.flatMap((batch) => batch.items.filter((item) => item.request !== request && !item.request.settled)),
    );
    await Promise.all(holding.map((slot) => this.stop(slot)));
    this.settle(request, reason);
    this.queue.unshiftAll(others);
    if (!this.closed) this.dispatch();
  }

  private async stop(slot: Slot): Promise<void> {
    slot.stopping = true;
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
    await slot.worker.terminate();
    await slot.exited;
  }

  private settle(request: Request, failure?: unknown): void {
    if (request.settled) return;
    request.settled = true;
    if (request.onAbort) request.options.signal?.removeEventListener('abort', request.onAbort);
    if (failure === undefined) request.resolve(request.outcomes);
    else request.reject(failure);
  }
}
