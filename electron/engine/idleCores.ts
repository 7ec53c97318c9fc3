// Whether a core stands idle right now, for a caller deciding between its own thread and workers
// (the command line's plain scan): measured from the machine's idle time between two samples of
// /proc/stat, not from the load average, which trails the last minute on a shared machine and
// counts tasks waiting on the disk as load. Off Linux, or over too short a window to tell, it falls
// back to the load average. Reads one system file; never blocks, never waits for a window to pass.

import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/** The machine's CPU time in clock ticks, all cores together: /proc/stat's first line. */
export interface CpuSample {
  idleTicks: number;
  totalTicks: number;
}

/** Fewer ticks than this per core between the samples (10 ms each at the usual 100 Hz) cannot tell one idle core from noise. */
const MIN_TICKS_PER_CORE = 3;
/** A core counts as idle when this share of one stood idle over the window. */
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

export function readCpuSample(): CpuSample | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return parseCpuSample(readFileSync('/proc/stat', 'latin1'));
  } catch {
    return undefined;
  }
}

/** Cores idle on average between the two samples, or undefined when the window is too short to tell. */
export function idleCoresBetween(before: CpuSample, after: CpuSample, cores: number): number | undefined {
  const total = after.totalTicks - before.totalTicks;
  if (total < MIN_TICKS_PER_CORE * cores) return undefined;
  return ((after.idleTicks - before.idleTicks) / total) * cores;
}

export interface CoresBusyOptions {
  cores?: number;
  sample?: () => CpuSample | undefined;
  loadAverage?: () => number;
}

/**
 * A `coresBusy` for HashPool: busy unless at least one core stood idle since `before` (the caller's
 * own thread, busy meanwhile, is not idle, so this asks for a core beside it). Without a usable
 * window, the load average at or above the cores.
 */
export function coresBusySince(before: CpuSample | undefined, options: CoresBusyOptions = {}): () => boolean {
  const cores = options.cores ?? availableParallelism();
  const sample = options.sample ?? readCpuSample;
  const loadAverage = options.loadAverage ?? (() => loadavg()[0]!);
  return () => {
    const after = before ? sample() : undefined;
    const idle = before && after ? idleCoresBetween(before, after, cores) : undefined;
    if (idle === undefined) return loadAverage() >= cores;
    return idle < IDLE_CORE_SHARE;
  };
}
