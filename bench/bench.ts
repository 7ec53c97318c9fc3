// What every benchmark of `npm run bench` is: a name, and a run that returns rows comparing our
// figure with a baseline's. bench/run.ts runs them in turn and prints the rows (or, with --json,
// writes them as JSON). Also the helpers that turn paired timings into rows.

import { formatMs, spreadOf, type Spread, type Timing } from './measure';

export interface BenchContext {
  /** A scratch directory for this run; bench/run.ts deletes it afterwards. */
  workDir: string;
  /** The built command line (dist/cli.js): our side runs through it, startup included. */
  cli: string;
  /** Measured pairs per row, after one warm-up run of each side. */
  runs: number;
  /** --quick: fewer runs and the smaller data sets only. */
  quick: boolean;
  log: (text: string) => void;
  /** Data shared between benchmarks, made once (the 10,000-destination tree). */
  shared: <T>(key: string, make: () => T) => T;
}

/** One side of a row: the value the verdict uses, and how the samples spread around it. */
export interface Figure {
  value: number;
  min?: number;
  max?: number;
  cpu?: Spread;
  /** How the value reads in the table ("1.07 s", "129 µs"). */
  text: string;
}

export interface BenchRow {
  name: string;
  ours: Figure;
  baseline: Figure;
  baselineName: string;
  /** As the target states it (ours / baseline for time, baseline / ours for throughput…). */
  ratio: number;
  /** The ratio in words, with the CPU ratio beside it where there is one. */
  ratioText: string;
  target: string;
  met: boolean;
  notes: string[];
  /** Why the benchmark could not give its figures (it threw): the row is then not met, its figures not numbers. */
  error?: string;
}

export interface Bench {
  name: string;
  run: (context: BenchContext) => Promise<BenchRow[]>;
}

/** The one row of a benchmark that threw, in place of its rows: named, not met, with the reason. */
export function failedRow(name: string, cause: unknown): BenchRow {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const none: Figure = { value: Number.NaN, text: 'none: the benchmark failed' };
  return {
    name,
    ours: none,
    baseline: none,
    baselineName: 'none',
    ratio: Number.NaN,
    ratioText: 'none',
    target: 'the benchmark runs to its end',
    met: false,
    notes: [],
    error: reason,
  };
}

export function timeFigure(timing: Timing): Figure {
  return {
    value: timing.wall.median,
    min: timing.wall.min,
    max: timing.wall.max,
    cpu: timing.cpu,
    text: `${formatMs(timing.wall.median)} [${formatMs(timing.wall.min)}–${formatMs(timing.wall.max)}]${
      timing.cpu ? `, CPU ${formatMs(timing.cpu.median)}` : ''
    }`,
  };
}

/** A side whose slowest run took this many times its fastest: the machine moved under the row. */
const UNSTEADY_SPREAD = 2;

/**
 * Says so when a side's runs spread by UNSTEADY_SPREAD or more: the load or the disk's own work (a
 * copy's creates and unlinks) changed between pairs, and the ratio of medians is then a poor verdict.
 */
export function unsteadyNotes(pair: { ours: Timing; baseline: Timing }, baselineName: string): string[] {
  const notes: string[] = [];
  for (const [side, timing] of [
    ['ours', pair.ours],
    [baselineName, pair.baseline],
  ] as const) {
    const { min, max } = timing.wall;
    if (min > 0 && max / min >= UNSTEADY_SPREAD)
      notes.push(
        `unsteady: ${side} ran ${formatMs(min)}–${formatMs(max)} (${(max / min).toFixed(1)}×) between pairs; the machine moved under this row, read its ratio beside the load`,
      );
  }
  return notes;
}

/** A row of paired timings: median against median, wall time (and CPU time when a target is given for it). */
export function timeRow(
  name: string,
  pair: { ours: Timing; baseline: Timing },
  baselineName: string,
  targets: { wall: number; cpu?: number },
  notes: string[] = [],
): BenchRow {
  const ratio = pair.ours.wall.median / pair.baseline.wall.median;
  const cpuRatio = pair.ours.cpu && pair.baseline.cpu ? pair.ours.cpu.median / pair.baseline.cpu.median : undefined;
  const cpuMet = targets.cpu === undefined || (cpuRatio !== undefined && cpuRatio <= targets.cpu);
  return {
    name,
    ours: timeFigure(pair.ours),
    baseline: timeFigure(pair.baseline),
    baselineName,
    ratio,
    ratioText: `${ratio.toFixed(2)}× wall${cpuRatio === undefined ? '' : `, ${cpuRatio.toFixed(2)}× CPU`}`,
    target: `≤ ${targets.wall}× wall${targets.cpu === undefined ? '' : `, ≤ ${targets.cpu}× CPU`}`,
    met: ratio <= targets.wall && cpuMet,
    notes: [...notes, ...unsteadyNotes(pair, baselineName)],
  };
}

/**
 * A row whose verdict is every sample against a budget (a UI response): what it prints as ours is
 * the worst sample, the one the verdict uses, with the median and the best beside it.
 */
export function budgetRow(name: string, samples: number[], budgetMs: number, notes: string[] = [], comparison: '<' | '≤' = '≤'): BenchRow {
  if (samples.length === 0) throw new Error(`bench row "${name}": no samples`);
  const spread = spreadOf(samples);
  const ratio = spread.max / budgetMs;
  return {
    name,
    ours: {
      value: spread.max,
      min: spread.min,
      max: spread.max,
      text: `worst ${formatMs(spread.max)} (median ${formatMs(spread.median)}, best ${formatMs(spread.min)}, ${samples.length} sample${samples.length === 1 ? '' : 's'})`,
    },
    baseline: { value: budgetMs, text: `${budgetMs} ms` },
    baselineName: "the target's budget",
    ratio,
    ratioText: `worst sample ${ratio.toFixed(2)}× the budget`,
    target: `every sample ${comparison} ${budgetMs} ms`,
    met: comparison === '<' ? spread.max < budgetMs : spread.max <= budgetMs,
    notes,
  };
}
