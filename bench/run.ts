// `npm run bench`: generates its data in a temp dir, runs each benchmark (ours beside a baseline,
// warm, best of 3), prints the ratios against the targets, and deletes the data. A benchmark, not
// a test: figures on a shared machine are noisy, so it reports and never fails the build.
// Another benchmark is one more entry in BENCHES.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bench, BenchContext, BenchRow } from './bench';
import { bigFileBench } from './bigFileBench';
import { formatMs } from './measure';
import { scanBench } from './scanBench';
import { uiBench } from './uiBench';
import { verifyBench } from './verifyBench';

const BENCHES: Bench[] = [scanBench, verifyBench, bigFileBench, uiBench];

const only = process.argv.slice(2);
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const workDir = mkdtempSync(path.join(os.tmpdir(), 'distributor-inspector-bench-'));
const cleanUp = () => rmSync(workDir, { recursive: true, force: true });
process.on('SIGINT', () => {
  cleanUp();
  process.exit(130);
});

const sharedData = new Map<string, unknown>();
const context: BenchContext = {
  workDir,
  cli,
  runs: 3,
  log: (text) => process.stderr.write(`${text}\n`),
  shared: <T>(key: string, make: () => T): T => {
    if (!sharedData.has(key)) sharedData.set(key, make());
    return sharedData.get(key) as T;
  },
};

function cpu(ms: number | undefined): string {
  return ms === undefined ? '' : ` (cpu ${formatMs(ms)})`;
}

function print(rows: BenchRow[]): void {
  const lines = [
    `\nDistributor Inspector benchmark: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}, Node ${process.version}`,
  ];
  lines.push('Each side: one warm-up run, then best of 3 (median in brackets).\n');
  for (const row of rows) {
    const ratioText =
      row.ratioKind === 'time' ? `${row.ratio.toFixed(2)}× the baseline's time` : `${row.ratio.toFixed(2)}× the baseline's throughput`;
    lines.push(`${row.name}`);
    lines.push(
      `  ours      ${formatMs(row.ours.best.wallMs).padStart(8)} [${formatMs(row.ours.median.wallMs)}]${cpu(row.ours.best.cpuMs)}`,
    );
    lines.push(
      `  baseline  ${formatMs(row.baseline.best.wallMs).padStart(8)} [${formatMs(row.baseline.median.wallMs)}]${cpu(row.baseline.best.cpuMs)}  ${row.baselineName}`,
    );
    lines.push(`  ratio     ${ratioText}; target ${row.target}: ${row.met ? 'met' : 'NOT met'}`);
    for (const note of row.notes) lines.push(`  note      ${note}`);
    lines.push('');
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

try {
  const started = performance.now();
  const rows: BenchRow[] = [];
  for (const bench of BENCHES) {
    if (only.length > 0 && !only.includes(bench.name)) continue;
    rows.push(...(await bench.run(context)));
  }
  print(rows);
  process.stderr.write(`benchmark took ${formatMs(performance.now() - started)}\n`);
} finally {
  cleanUp();
}
