// The two quadratic paths of issue 14, measured in process against what they replaced:
// - HashPool's queue of waiting jobs: taken in batches the way HashPool.takeBatch takes them, from
//   electron/engine/jobQueue.ts (a head index) and from a plain array with Array.prototype.shift
//   (the old queue, which moves every remaining job once the array is too big for V8 to trim in
//   place); and the real HashPool end to end, with its queue swapped for that old array queue.
// - applyPlan's lookup of each write's source file: a Map built once (applyPlan.ts) against
//   manifest.files.find per write, in both of its phases (verify and stage), as it was.
// `queueBench` is the row set for `npm run bench`; bench/queueScaling.ts prints the before/after
// table at 10k, 50k and 100k jobs.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import path from 'node:path';
import { HashPool } from '../electron/engine/hashPool';
import { JobQueue } from '../electron/engine/jobQueue';
import type { Bench, BenchRow } from './bench';
import { formatMs, spreadOf } from './measure';

/** As HashPool.takeBatch: at most 64 jobs a batch. */
const BATCH_MAX_FILES = 64;

/** What HashPool keeps per waiting job (its request, its index, the job). */
interface Item {
  request: { id: number };
  index: number;
  job: { kind: 'hash'; root: string; path: string; expectedSize: number };
}

/** The queue interface HashPool uses: JobQueue, or the old array behind it. */
interface Queue<T> {
  readonly length: number;
  push(item: T): void;
  peek(): T | undefined;
  shift(): T | undefined;
  unshiftAll(front: T[]): void;
  removeWhere(drop: (item: T) => boolean): void;
  toArray(): T[];
  clear(): void;
}

/** The queue as it was before JobQueue: a plain array, taken from with shift(). */
export class ShiftArrayQueue<T> implements Queue<T> {
  private items: T[] = [];
  get length(): number {
    return this.items.length;
  }
  push(item: T): void {
    this.items.push(item);
  }
  peek(): T | undefined {
    return this.items[0];
  }
  shift(): T | undefined {
    return this.items.shift();
  }
  unshiftAll(front: T[]): void {
    this.items.unshift(...front);
  }
  removeWhere(drop: (item: T) => boolean): void {
    this.items = this.items.filter((item) => !drop(item));
  }
  toArray(): T[] {
    return [...this.items];
  }
  clear(): void {
    this.items = [];
  }
}

/**
 * CPU milliseconds of this thread since `from` (process.cpuUsage): on a shared, loaded machine the
 * wall clock counts the time other processes ran, CPU time only ours.
 */
export const cpuMsSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

function itemsOf(count: number): Item[] {
  const request = { id: 1 };
  return Array.from({ length: count }, (_, index) => ({
    request,
    index,
    job: { kind: 'hash' as const, root: '/srv/www/docs', path: `page-${index}.html`, expectedSize: 4096 },
  }));
}

/** CPU milliseconds of main-thread time to push `count` jobs and take them all in batches, as HashPool does. */
export function drainMs(kind: 'jobQueue' | 'array', count: number): number {
  const items = itemsOf(count);
  const queue: Queue<Item> = kind === 'jobQueue' ? new JobQueue<Item>() : new ShiftArrayQueue<Item>();
  const started = process.cpuUsage();
  for (const item of items) queue.push(item);
  let taken = 0;
  while (queue.length > 0) {
    let batch = 0;
    while (queue.length > 0 && batch < BATCH_MAX_FILES) {
      const next = queue.peek()!;
      if (next.index !== taken) throw new Error(`the ${kind} queue gave job ${next.index} where ${taken} was next`);
      queue.shift();
      batch += 1;
      taken += 1;
    }
  }
  const elapsed = cpuMsSince(started);
  if (taken !== count) throw new Error(`the ${kind} queue gave ${taken} of ${count} jobs`);
  return elapsed;
}

/** CPU milliseconds to look up every write's source file twice (verify, then stage): the Map built once, or find per write. */
export function lookupMs(kind: 'map' | 'find', count: number): number {
  const files = Array.from({ length: count }, (_, index) => ({ path: `pages/page-${index}.md`, size: 4096, sha256: 'sha256:…' }));
  // Writes in another order than the manifest's files (outputs sorted by their own paths).
  const writes = files.map((file, index) => ({ source_path: files[(index * 7919) % count]!.path, path: `${file.path}.html` }));
  const started = process.cpuUsage();
  let found = 0;
  if (kind === 'map') {
    const byPath = new Map<string, (typeof files)[number]>();
    for (const file of files) if (!byPath.has(file.path)) byPath.set(file.path, file);
    for (let phase = 0; phase < 2; phase += 1) for (const write of writes) if (byPath.get(write.source_path)) found += 1;
  } else {
    for (let phase = 0; phase < 2; phase += 1)
      for (const write of writes) if (files.find((candidate) => candidate.path === write.source_path)) found += 1;
  }
  const elapsed = cpuMsSince(started);
  if (found !== 2 * count) throw new Error(`the ${kind} lookup found ${found} of ${2 * count}`);
  return elapsed;
}

/**
 * Wall and CPU milliseconds (the process's: main thread and workers) for the real HashPool (2 workers) to answer `count` hash jobs on small files
 * (`dir` holds them, made by filesFor), with its own JobQueue or with the old shift() array put in its place.
 */
export async function poolMs(kind: 'jobQueue' | 'array', dir: string, count: number): Promise<{ wallMs: number; cpuMs: number }> {
  const pool = new HashPool({ size: 2 });
  // The benchmark's one reach inside: the pool's private queue, swapped for the old array queue.
  if (kind === 'array') (pool as unknown as { queue: Queue<unknown> }).queue = new ShiftArrayQueue();
  try {
    // Started once before timing: worker start-up is not what is measured.
    await pool.hash([{ root: dir, path: 'f0' }]);
    const tasks = Array.from({ length: count }, (_, index) => ({ root: dir, path: `f${index % FILES}`, expectedSize: 16 }));
    const started = performance.now();
    const cpu = process.cpuUsage();
    const outcomes = await pool.hash(tasks);
    const elapsed = { wallMs: performance.now() - started, cpuMs: cpuMsSince(cpu) };
    if (outcomes.length !== count || outcomes.some((outcome) => outcome.kind !== 'file'))
      throw new Error(`the pool answered ${outcomes.length} of ${count} jobs, not all as files`);
    return elapsed;
  } finally {
    await pool.close();
  }
}

/**
 * The whole pool (its two workers included: the process's CPU) per job at `small` and `large` jobs
 * of 16-byte files, on one pool whose workers were started and warmed by a request of `small` jobs
 * first (a new pool's second worker starts, and both compile, within its first request: ~0.5 s of
 * CPU that would be counted to the smaller size). A total linear in the jobs keeps the ratio ≤ 2×.
 */
async function poolPerJobRow(log: (line: string) => void, runs: number, small: number, large: number): Promise<BenchRow> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'queue-pool-'));
  const pool = new HashPool({ size: 2 });
  try {
    filesFor(dir);
    log(`queue: the HashPool end to end, ${count(small)} and ${count(large)} hash jobs, CPU of its workers too…`);
    const tasksOf = (jobs: number) =>
      Array.from({ length: jobs }, (_, index) => ({ root: dir, path: `f${index % FILES}`, expectedSize: 16 }));
    const cpuPerJobUs = async (jobs: number) => {
      const tasks = tasksOf(jobs);
      collectGarbage();
      const started = process.cpuUsage();
      const outcomes = await pool.hash(tasks);
      const ms = cpuMsSince(started);
      if (outcomes.some((outcome) => outcome.kind !== 'file')) throw new Error('the pool answered a job otherwise than as a file');
      return (ms * 1000) / jobs;
    };
    await cpuPerJobUs(small);
    await cpuPerJobUs(large);
    const samplesSmall: number[] = [];
    const samplesLarge: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      samplesSmall.push(await cpuPerJobUs(small));
      samplesLarge.push(await cpuPerJobUs(large));
    }
    const atSmall = spreadOf(samplesSmall);
    const atLarge = spreadOf(samplesLarge);
    const growth = atLarge.median / atSmall.median;
    const text = (spread: { median: number; min: number; max: number }, jobs: number) =>
      `${spread.median.toFixed(1)} µs [${spread.min.toFixed(1)}–${spread.max.toFixed(1)}] at ${count(jobs)}`;
    return {
      name: `HashPool CPU per job, workers included, ${count(small)} → ${count(large)} jobs`,
      ours: { value: atLarge.median, min: atLarge.min, max: atLarge.max, text: text(atLarge, large) },
      baseline: { value: atSmall.median, min: atSmall.min, max: atSmall.max, text: text(atSmall, small) },
      baselineName: 'the same pool at the smaller size',
      ratio: growth,
      ratioText: `${growth.toFixed(2)}× per job`,
      target: '≤ 2× (flat: a linear total)',
      met: growth <= 2,
      notes: ['process CPU (main thread and both workers) over one request, on a pool warmed at both sizes'],
    };
  } finally {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Distinct small files the pool's jobs cycle through (the queue's length is what is measured, not the disk). */
const FILES = 1000;

export function filesFor(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (let index = 0; index < FILES; index += 1) writeFileSync(path.join(dir, `f${index}`), 'sixteen bytes..\n');
  return dir;
}

// A garbage collection before each timed run, so one run does not pay for the last one's garbage.
v8.setFlagsFromString('--expose-gc');
export const collectGarbage = vm.runInNewContext('gc') as () => void;

/** One warm-up, then `runs` timed runs, each after a collection. */
function spreadOfRuns(runs: number, measure: () => number): { median: number; min: number; max: number } {
  measure();
  return spreadOf(
    Array.from({ length: runs }, () => {
      collectGarbage();
      return measure();
    }),
  );
}

const perJobUs = (ms: number, count: number) => (ms * 1000) / count;
const count = (n: number) => n.toLocaleString('en-US');

function figure(spread: { median: number; min: number; max: number }) {
  return {
    value: spread.median,
    min: spread.min,
    max: spread.max,
    text: `CPU ${formatMs(spread.median)} [${formatMs(spread.min)}–${formatMs(spread.max)}]`,
  };
}

/** ours against the code it replaced, at the same size: the ratio is ours / old. */
function againstOld(
  name: string,
  ours: ReturnType<typeof spreadOfRuns>,
  old: ReturnType<typeof spreadOfRuns>,
  oldName: string,
  most: number,
): BenchRow {
  const ratio = ours.median / old.median;
  return {
    name,
    ours: figure(ours),
    baseline: figure(old),
    baselineName: oldName,
    ratio,
    ratioText: `${ratio.toFixed(3)}× CPU`,
    target: `≤ ${most}× the old code's CPU`,
    met: ratio <= most,
    notes: [],
  };
}

/**
 * Rows for `npm run bench` (wire it in bench/run.ts: `import { queueBench } from './queueBench'` and
 * one more entry in BENCHES). In process, CPU time of the main thread, median of the runs:
 * the queue at 100,000 jobs against the old Array.shift queue, its cost per job at 10k and 100k
 * (flat: a linear total), the whole pool's CPU per job at the same sizes (its workers included), and applyPlan's lookups at 10,000 writes against find per write (at
 * 100,000 the old way runs for a minute).
 */
export const queueBench: Bench = {
  name: 'queue',
  async run(context) {
    const runs = Math.max(context.runs, 5);
    const large = context.quick ? 50_000 : 100_000;
    const small = 10_000;
    context.log(`queue: ${count(small)} and ${count(large)} jobs taken in batches, old queue and JobQueue…`);
    const ours = spreadOfRuns(runs, () => drainMs('jobQueue', large));
    // The small queue drained as many times as it takes to pass as many jobs as the large one: one
    // drain of 10,000 is a millisecond or two, where the JIT's and the collector's moods weighed as
    // much as the queue (the per-job ratio read 0.37x and 2.73x on the same code).
    const oursSmall = spreadOfRuns(runs, () => {
      let ms = 0;
      for (let passed = 0; passed < large; passed += small) ms += drainMs('jobQueue', small);
      return ms / (large / small);
    });
    const old = spreadOfRuns(Math.min(runs, 3), () => drainMs('array', large));
    const rows: BenchRow[] = [
      againstOld(
        `HashPool queue: ${count(large)} jobs pushed and taken in batches (main thread)`,
        ours,
        old,
        'the old queue: an array and Array.prototype.shift',
        0.2,
      ),
    ];
    const flat = perJobUs(ours.median, large) / perJobUs(oursSmall.median, small);
    rows.push({
      name: `HashPool queue: CPU per job, ${count(small)} → ${count(large)} jobs`,
      ours: { value: perJobUs(ours.median, large), text: `${perJobUs(ours.median, large).toFixed(3)} µs at ${count(large)}` },
      baseline: { value: perJobUs(oursSmall.median, small), text: `${perJobUs(oursSmall.median, small).toFixed(3)} µs at ${count(small)}` },
      baselineName: 'the same queue at the smaller size',
      ratio: flat,
      ratioText: `${flat.toFixed(2)}× per job`,
      target: '≤ 2× (flat: a linear total)',
      met: flat <= 2,
      notes: [`the old queue per job at ${count(large)}: ${perJobUs(old.median, large).toFixed(3)} µs`],
    });
    rows.push(await poolPerJobRow(context.log, Math.max(3, Math.min(runs, 5)), small, large));
    context.log(`queue: applyPlan's source lookups for ${count(small)} writes, find per write and the Map…`);
    const map = spreadOfRuns(runs, () => lookupMs('map', small));
    const find = spreadOfRuns(1, () => lookupMs('find', small));
    const mapLarge = spreadOfRuns(runs, () => lookupMs('map', large));
    const lookups = againstOld(
      `applyPlan: the source file of each of ${count(small)} writes looked up, verify and stage`,
      map,
      find,
      'the old lookup: manifest.files.find per write',
      0.05,
    );
    lookups.notes.push(`the Map at ${count(large)} writes: CPU ${formatMs(mapLarge.median)}`);
    rows.push(lookups);
    return rows;
  },
};
