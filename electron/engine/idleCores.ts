// Whether a core stands free right now, for a caller deciding between its own thread and workers
// (the command line's plain scan): measured from the machine's idle time between two samples of
// /proc/stat, not from the load average, which trails the last minute on a shared machine and
// counts tasks waiting on the disk as load. This process's own CPU time (/proc/self/stat) counts
// as free beside its busy thread: V8's compiler and GC threads are not another program's load, and
// counted as one they made an idle 2-core machine look busy at startup (0.67 of a core idle).
// Off Linux, or over too short a window to tell, it falls back to the load average. Reads two
// system files; never blocks, never waits for a window to pass.

import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/** The machine's CPU time in clock ticks, all cores together (/proc/stat's first line), and this process's share of it. */
export interface CpuSample {
  idleTicks: number;
  totalTicks: number;
  /** This process's user and system time, all its threads, in the same ticks (/proc/self/stat), when it could be read. */
  ownTicks?: number;
}

/** Fewer ticks than this per core between the samples (10 ms each at the usual 100 Hz) cannot tell one idle core from noise. */
const MIN_TICKS_PER_CORE = 3;
/** A core counts as free when this share of one stood free over the window. */
const IDLE_CORE_SHARE = 0.75;

/** The aggregate `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal (guest time is within user). */
export function parseCpuSample(procStat: string): CpuSample | undefined {
  const line = /^cpu +([0-9 ]+)/.exec(procStat)?.[1];
  if (!line) return undefined;
  const ticks = line.trim().split(/ +/).slice(0, 8).map(Number);
  if (ticks.length < 5 || ticks.some((value) => !Number.isSafeInteger(value))) return undefined;
  // A core waiting on the disk (iowait) is free for a thread that computes.
  return { idleTicks: ticks[3]! + ticks[4]!, totalTicks: ticks.reduce((sum, value) => sum + value, 0) };
}

/**
 * utime + stime of /proc/self/stat (fields 14 and 15), counted after the command name's closing
 * parenthesis, since the name itself may hold spaces and parentheses.
 */
export function parseOwnTicks(procSelfStat: string): number | undefined {
  const fields = procSelfStat.slice(procSelfStat.lastIndexOf(')') + 2).split(' ');
  const [user, system] = [Number(fields[11]), Number(fields[12])];
  return Number.isSafeInteger(user) && Number.isSafeInteger(system) ? user + system : undefined;
}

export function readCpuSample(): CpuSample | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const machine = parseCpuSample(readFileSync('/proc/stat', 'latin1'));
    const ownTicks = parseOwnTicks(readFileSync('/proc/self/stat', 'latin1'));
    return machine && (ownTicks === undefined ? machine : { ...machine, ownTicks });
  } catch {
    return undefined;
  }
}

/**
 * Cores free on average between the two samples beside the caller's one busy thread: the idle ones,
 * plus what this process's threads used beyond that one thread. Undefined when the window is too
 * short to tell.
 */
export function spareCoresBetween(before: CpuSample, after: CpuSample, cores: number): number | undefined {
  const total = after.totalTicks - before.totalTicks;
  if (total < MIN_TICKS_PER_CORE * cores) return undefined;
  const idle = ((after.idleTicks - before.idleTicks) / total) * cores;
  // Without this process's time, its thread's core is simply not idle: the idle cores are the spare ones.
  if (before.ownTicks === undefined || after.ownTicks === undefined) return idle;
  const own = ((after.ownTicks - before.ownTicks) / total) * cores;
  return idle + Math.max(0, own - 1);
}

export interface CoresBusyOptions {
  cores?: number;
  sample?: () => CpuSample | undefined;
  loadAverage?: () => number;
}

/**
 * A `coresBusy` for HashPool: busy unless at least one core stood free since `before` beside the
 * caller's own thread (spareCoresBetween). Without a usable window, the load average at or above
 * the cores.
 */
export function coresBusySince(before: CpuSample | undefined, options: CoresBusyOptions = {}): () => boolean {
  const cores = options.cores ?? availableParallelism();
  const sample = options.sample ?? readCpuSample;
  const loadAverage = options.loadAverage ?? (() => loadavg()[0]!);
  return () => {
    const after = before ? sample() : undefined;
    const spare = before && after ? spareCoresBetween(before, after, cores) : undefined;
    if (spare === undefined) return loadAverage() >= cores;
    return spare < IDLE_CORE_SHARE;
  };
}
