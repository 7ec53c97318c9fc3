// `npx tsx bench/queueScaling.ts [--pool] [--find-max N]`: the before/after table of issue 14's two
// quadratic paths at 10,000, 50,000 and 100,000 jobs (bench/queueBench.ts measures them): the
// HashPool queue taken in batches (old Array.shift queue against JobQueue, main thread), with
// --pool the real HashPool end to end (2 workers, the old queue swapped in), and applyPlan's
// source-file lookups (find per write against the Map built once; find only up to --find-max,
// default 50,000: at 100,000 it runs for a minute). Prints the machine's load beside the figures.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { collectGarbage, drainMs, filesFor, lookupMs, poolMs } from './queueBench';
import { formatMs, spreadOf } from './measure';

const { values } = parseArgs({ options: { pool: { type: 'boolean' }, 'find-max': { type: 'string' }, runs: { type: 'string' } } });
const runs = Number(values.runs ?? 5);
const findMax = Number(values['find-max'] ?? 50_000);
const SIZES = [10_000, 50_000, 100_000];
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

const spreadText = (samples: number[]) => {
  const spread = spreadOf(samples);
  return `${formatMs(spread.median)} [${formatMs(spread.min)}–${formatMs(spread.max)}]`;
};

/** Median of `times` runs after one warm-up, as "median [min–max]". */
function measured(times: number, once: () => number): string {
  once();
  return spreadText(
    Array.from({ length: times }, () => {
      collectGarbage();
      return once();
    }),
  );
}

/** The pool's runs: wall time, then the process's CPU time (main thread and workers). */
async function measuredPool(times: number, once: () => Promise<{ wallMs: number; cpuMs: number }>): Promise<string> {
  await once();
  const samples: { wallMs: number; cpuMs: number }[] = [];
  for (let i = 0; i < times; i += 1) {
    collectGarbage();
    samples.push(await once());
  }
  return `${spreadText(samples.map((s) => s.wallMs))}, CPU ${formatMs(spreadOf(samples.map((s) => s.cpuMs)).median)}`;
}

const lines: string[] = [`${os.cpus().length} cores, Node ${process.version}, load average ${load()} at the start`];
const row = (...cells: string[]) => lines.push(cells.map((cell, i) => (i === 0 ? cell.padEnd(46) : cell.padEnd(42))).join(''));
row('jobs', ...SIZES.map((size) => size.toLocaleString('en-US')));
row('queue, old: Array.shift (CPU, main thread)', ...SIZES.map((size) => measured(Math.min(runs, 3), () => drainMs('array', size))));
row('queue, new: JobQueue (CPU, main thread)', ...SIZES.map((size) => measured(runs, () => drainMs('jobQueue', size))));
const finds: string[] = [];
for (const size of SIZES) finds.push(size <= findMax ? measured(1, () => lookupMs('find', size)) : 'not run');
row('apply lookups, old: find per write ×2 (CPU)', ...finds);
row('apply lookups, new: Map built once (CPU)', ...SIZES.map((size) => measured(runs, () => lookupMs('map', size))));
if (values.pool) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'queue-scaling-'));
  try {
    filesFor(dir);
    for (const kind of ['array', 'jobQueue'] as const) {
      const cells: string[] = [];
      for (const size of SIZES) cells.push(await measuredPool(Math.min(runs, 3), () => poolMs(kind, dir, size)));
      row(`pool end to end (wall, CPU), ${kind === 'array' ? 'old' : 'new'}`, ...cells);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
lines.push(`load average ${load()} at the end`);
process.stdout.write(`${lines.join('\n')}\n`);
