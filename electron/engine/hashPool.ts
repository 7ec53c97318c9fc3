// A pool of worker threads (one per core by default) shared by every scan and verification running
// at once: they hash files, list destinations and inspect them (poolProtocol.ts). Small jobs travel
// in batches so none pays a round trip of its own; a big file goes alone.
// On abort, the workers holding that request's files are terminated and awaited before the promise
// settles: no worker is left hashing for a cancelled job. A worker that dies (out of memory on a
// huge state file, a crash) costs only the job that killed it: its batch is run again one job at a
// time, and the job that dies alone gets an error outcome; every other job still gets its answer.
// Never reads a file itself; a caller with nothing else to do on its thread (the command line) may
// hand it `runHere` (poolInThread.ts) for the requests one worker would have run alone, and for a
// scan's inspections while every core is busy.

import { availableParallelism, loadavg } from 'node:os';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { CachedOutput } from '../../shared/verifyFreshnessCache';
import type { UnchangedExpectation } from '../../shared/verifyFreshnessCheck';
import type { HashOutcome, HashTask } from './hashTask';
import { JobQueue } from './jobQueue';
import { abortReason, BATCH_MAX_BYTES, BATCH_MAX_CHECKS, BATCH_MAX_FILES, crashMessage, fitsOneBatch, weightOf } from './poolBatches';
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

interface Item {
  request: Request;
  index: number;
  job: Job;
  /** Set after the worker running its batch died: it runs in a batch of its own, to find the culprit. */
  alone?: boolean;
}

interface Slot {
  worker: Worker;
  batch?: { id: number; items: Item[] };
  /** Set when we terminate it on purpose, so its exit is not taken for a crash. */
  stopping: boolean;
  /** Its code loaded ('ready'): from then on a death is blamed on the job it ran, not on the worker. */
  ready: boolean;
  exited: Promise<void>;
}

/** The worker's file beside this module: the built bundle in dist/, or the TypeScript source under Vitest and tsx. */
function startWorker(resourceLimits: ResourceLimits | undefined): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  if (!fromSource) return new Worker(new URL('./hashWorker.js', import.meta.url), { resourceLimits });
  // Under Vitest the global setup bundles the worker once per run (scripts/vitestGlobalSetup.ts): it
  // then starts in a quarter of the time it takes to load tsx and transform the source in each worker.
  const bundled = process.env.INSPECTOR_TEST_HASH_WORKER;
  if (bundled) return new Worker(bundled, { resourceLimits });
  // Node 20 does not apply `--import tsx` to a worker's entry module, so the worker is started
  // from a one-line bootstrap that loads the TypeScript source through tsx's API.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./hashWorker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => api.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
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
    return this.slots.filter((slot) => slot.batch !== undefined).length;
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
      /** Send the state's text back: for all, or only for the destinations at the indexes this accepts. */
      withText: boolean | ((index: number) => boolean);
      verify?: boolean;
      /** The inspection's fingerprint (state sha256, listing digest); default true. */
      digests?: boolean;
      /** False: `hasContent` left unsettled where it costs a call of its own (scanReader.ts); default true. */
      settleContent?: boolean;
      /** Verify through the stat cache: what it knows of the destination at each index ({} for nothing). */
      knownOf?: (index: number) => Record<string, CachedOutput>;
      onOutcome?: (index: number, outcome: InspectOutcome) => void;
    },
  ): Promise<InspectOutcome[]> {
    return this.run(
      paths.map((target, index) => {
        const withText = typeof options.withText === 'function' ? options.withText(index) : options.withText;
        const job: Job = {
          kind: 'inspect',
          path: target,
          withText,
          verify: options.verify === true,
          digests: options.digests !== false,
          settleContent: options.settleContent !== false,
        };
        if (options.knownOf) job.known = options.knownOf(index);
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
      ...this.slots.flatMap((slot) => slot.batch?.items.map((item) => item.request) ?? []),
    ]);
    this.queue.clear();
    await Promise.all([...this.slots].map((slot) => this.stop(slot)));
    for (const request of pending) this.settle(request, new Error('HashPool was closed'));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((candidate) => !candidate.batch && !candidate.stopping);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
      }
      const items = this.takeBatch();
      const id = this.nextBatchId++;
      slot.batch = { id, items };
      slot.worker.ref();
      slot.worker.postMessage({ type: 'batch', id, jobs: items.map((item) => item.job) } satisfies ToWorker);
    }
  }

  private takeBatch(): Item[] {
    if (this.queue.peek()!.alone) return [this.queue.shift()!];
    const items: Item[] = [];
    let bytes = 0;
    const maxJobs = this.queue.peek()!.job.kind === 'check' ? BATCH_MAX_CHECKS : BATCH_MAX_FILES;
    while (this.queue.length > 0 && items.length < maxJobs) {
      const next = this.queue.peek()!;
      if (next.alone || (next.job.kind === 'check') !== (maxJobs === BATCH_MAX_CHECKS)) break;
      const size = weightOf(next.job);
      if (items.length > 0 && bytes + size > BATCH_MAX_BYTES) break;
      items.push(this.queue.shift()!);
      bytes += size;
    }
    return items;
  }

  private spawn(): Slot {
    const worker = startWorker(this.resourceLimits);
    let markExited!: () => void;
    const slot: Slot = { worker, stopping: false, ready: false, exited: new Promise<void>((resolve) => (markExited = resolve)) };
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
    const batch = slot.batch;
    // A worker being terminated may still deliver a last message: its files were requeued or cancelled.
    if (!batch || message.id !== batch.id || slot.stopping) return;
    if (message.type === 'progress') {
      batch.items[0]?.request.options.onProgress?.({ files: 0, bytes: message.bytes });
      return;
    }
    slot.batch = undefined;
    // Idle workers must not keep the process alive: a caller that forgets close() still exits.
    slot.worker.unref();
    // The next batch goes out before this one's outcomes are handled, so the worker reads while this
    // thread parses and delivers (on a loaded machine it otherwise waited ~10 ms a batch here).
    this.dispatch();
    let bytesReported = false;
    const filesByRequest = new Map<Request, number>();
    const outcomes = JSON.parse(message.outcomesJson) as PoolJobOutcome[];
    outcomes.forEach((outcome, i) => {
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
    const items = (slot.batch?.items ?? []).filter((item) => !item.request.settled);
    slot.batch = undefined;
    if (!slot.ready) {
      // It died loading its own code (a broken bundle): every job would fail the same way.
      for (const item of items) this.settle(item.request, cause);
    } else if (items.length === 1 || items.some((item) => item.alone)) {
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
    const holding = this.slots.filter((slot) => slot.batch?.items.some((item) => item.request === request));
    // Other requests' files in those batches go back to the front of the queue.
    const others = holding.flatMap((slot) => slot.batch!.items.filter((item) => item.request !== request && !item.request.settled));
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
