// Runs commands as child processes and measures them: wall time, CPU time and peak memory (RSS).
// Uses GNU time (/usr/bin/time) for CPU and RSS when present; wall time always. Ours and the
// baseline run paired (alternating, after one warm-up each), so a minute of load on a shared
// machine falls on both sides. Never runs a shell unless handed one (some baselines are pipelines).

import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Run {
  wallMs: number;
  /** user + system, of the process and its children (the pipeline's, for a shell baseline). */
  cpuMs?: number;
  peakRssMb?: number;
}

/** A spread of samples: the median is what verdicts use; min and max say how noisy it was. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface Timing {
  wall: Spread;
  cpu?: Spread;
  peakRssMb?: number;
  runs: Run[];
}

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);

/** How CPU time is measured, for the report's header. */
export const cpuSource = hasGnuTime
  ? `CPU = user + system of the process and its children (GNU time: the child's rusage)`
  : `CPU not measured: ${GNU_TIME} is missing (apt-get install time); wall time only`;

export function spreadOf(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0] ?? NaN, max: sorted.at(-1) ?? NaN };
}

export function timingOf(runs: Run[]): Timing {
  const cpus = runs.flatMap((run) => (run.cpuMs === undefined ? [] : [run.cpuMs]));
  const rss = runs.flatMap((run) => (run.peakRssMb === undefined ? [] : [run.peakRssMb]));
  return {
    wall: spreadOf(runs.map((run) => run.wallMs)),
    cpu: cpus.length === runs.length && cpus.length > 0 ? spreadOf(cpus) : undefined,
    peakRssMb: rss.length > 0 ? Math.max(...rss) : undefined,
    runs,
  };
}

/** Exit codes a run may end with: by default 0 and 1 (1 means findings, such as drift). */
export type ExitCodes = readonly number[];
const FINDINGS_ALLOWED: ExitCodes = [0, 1];

/** The end of a failed run's output: enough to say why, not a 100k-line document. */
const FAILURE_TAIL_CHARS = 1500;

function tailOf(text: string): string {
  return text.length > FAILURE_TAIL_CHARS ? `…${text.slice(-FAILURE_TAIL_CHARS)}` : text;
}

export function runOnce(argv: string[], okExitCodes: ExitCodes = FINDINGS_ALLOWED): Promise<Run> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-time-'));
  const timeFile = path.join(scratch, 'time.txt');
  // stdout to a file, like `> out.json`: a run that fails says why there as often as on stderr
  // (a refused replace prints its reasons on stdout), and a pipe read here would slow the child.
  const stdoutFile = path.join(scratch, 'stdout.txt');
  const stdoutFd = openSync(stdoutFile, 'w');
  const command = hasGnuTime ? [GNU_TIME, '-f', '%e %U %S %M', '-o', timeFile, ...argv] : argv;
  const started = performance.now();
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', stdoutFd, 'pipe'] });
    closeSync(stdoutFd);
    let stderr = '';
    // stderr is the one pipe asked for above.
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      try {
        // A run that ended otherwise did not do the work being timed: fail the bench, not the verdict.
        if (code === null || !okExitCodes.includes(code)) {
          const stdout = readFileSync(stdoutFile, 'utf8');
          return reject(new Error(`${argv.join(' ')} exited with ${code}\nstdout: ${tailOf(stdout)}\nstderr: ${tailOf(stderr)}`));
        }
        const run: Run = { wallMs };
        if (hasGnuTime) {
          const [, user, system, rssKb] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
          run.cpuMs = ((user ?? 0) + (system ?? 0)) * 1000;
          run.peakRssMb = (rssKb ?? 0) / 1024;
        }
        resolve(run);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    });
  });
}

export interface PairOptions {
  runs: number;
  /** Untimed, before every run of that side (warm-up included): puts back what a run consumed. */
  prepare?: (side: Side, run: number) => Promise<void> | void;
  /** Skip the warm-up runs (the prepare step already read everything a run reads). */
  noWarmUp?: boolean;
  /** Exit codes ours may end with (default 0 and 1); the baseline must always end with 0 or 1. */
  oursExitCodes?: ExitCodes;
}

export type Side = 'ours' | 'baseline';

/**
 * The order of the measured runs: `runs` pairs, each pair once ours first and once the baseline
 * first (ours, baseline, baseline, ours, …), so neither side always runs on the cache or the load
 * the other just left.
 */
export function pairedOrder(runs: number): { side: Side; run: number }[] {
  const order: { side: Side; run: number }[] = [];
  for (let run = 0; run < runs; run += 1) {
    const [first, second]: Side[] = run % 2 === 0 ? ['ours', 'baseline'] : ['baseline', 'ours'];
    order.push({ side: first!, run }, { side: second!, run });
  }
  return order;
}

/** One warm-up run each (ours, then the baseline), then `runs` pairs in `pairedOrder`. */
export async function measurePaired(
  ours: string[] | (() => Promise<Run>),
  baseline: string[] | (() => Promise<Run>),
  options: PairOptions,
): Promise<{ ours: Timing; baseline: Timing }> {
  const once = async (side: Side, run: number) => {
    await options.prepare?.(side, run);
    const command = side === 'ours' ? ours : baseline;
    if (typeof command === 'function') return command();
    return runOnce(command, side === 'ours' ? options.oursExitCodes : undefined);
  };
  if (!options.noWarmUp) {
    await once('ours', -1);
    await once('baseline', -1);
  }
  const runs: Record<Side, Run[]> = { ours: [], baseline: [] };
  for (const { side, run } of pairedOrder(options.runs)) runs[side].push(await once(side, run));
  return { ours: timingOf(runs.ours), baseline: timingOf(runs.baseline) };
}

export const formatMs = (ms: number) =>
  ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
