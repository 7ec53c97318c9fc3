// What every benchmark of `npm run bench` is: a name, and a run that returns rows comparing our
// time with a baseline's. bench/run.ts runs them in turn and prints the rows.

import type { Timing } from './measure';

export interface BenchContext {
  /** A scratch directory for this run; bench/run.ts deletes it afterwards. */
  workDir: string;
  /** The built command line (dist/cli.js): our side runs through it, startup included. */
  cli: string;
  /** Measured runs per side, after one warm-up run. */
  runs: number;
  log: (text: string) => void;
  /** Data shared between benchmarks, made once (the 10,000-destination tree). */
  shared: <T>(key: string, make: () => T) => T;
}

export interface BenchRow {
  name: string;
  ours: Timing;
  baseline: Timing;
  baselineName: string;
  /** As the target states it: a time ratio (ours / baseline) or a throughput ratio (ours / baseline). */
  ratio: number;
  ratioKind: 'time' | 'throughput';
  target: string;
  met: boolean;
  notes: string[];
}

export interface Bench {
  name: string;
  run: (context: BenchContext) => Promise<BenchRow[]>;
}
