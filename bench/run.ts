// `npm run bench [-- NAME… | --only a,b] [--quick] [--json] [--runs N]`: generates its data in a temp dir, runs each
// benchmark (ours and a baseline paired: alternating, after one warm-up each, median of N ≥ 5 with
// min and max, CPU beside wall), prints the rows against their targets with the machine's load
// average, and deletes the data. --json prints the rows as JSON on stdout (name, ours, baseline,
// ratio, target, met, and the details), the machine's line on stderr. A benchmark, not a test: figures on a shared machine are
// noisy, so it reports and never fails the build. A benchmark that throws is a failed row with its
// reason (runBenches.ts), and the others still run: --json always prints one JSON document.
// Another benchmark is one more entry in BENCHES.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bench, BenchContext, BenchRow } from './bench';
import { bigFileBench } from './bigFileBench';
import { contentDiffBench } from './contentDiffBench';
import { cpuSource, formatMs } from './measure';
import { queueBench } from './queueBench';
import { remoteHostsBench } from './remoteHostsBench';
import { jsonRow, parseBenchOptions } from './options';
import { replaceBench } from './replaceBench';
import { runBenches } from './runBenches';
import { scanBench } from './scanBench';
import { startupBench } from './startupBench';
import { uiBench } from './uiBench';
import { verifyBench } from './verifyBench';
import { watchBench } from './watchBench';

const BENCHES: Bench[] = [
  startupBench,
  scanBench,
  verifyBench,
  bigFileBench,
  replaceBench,
  uiBench,
  contentDiffBench,
  watchBench,
  remoteHostsBench,
  queueBench,
];

const parsed = parseBenchOptions(
  process.argv.slice(2),
  BENCHES.map((bench) => bench.name),
);
if (!parsed.ok) {
  process.stderr.write(`${parsed.error}\n`);
  process.exit(2);
}
const { only, quick, runs, json } = parsed.value;

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
  runs,
  quick,
  log: (text) => process.stderr.write(`${text}\n`),
  shared: <T>(key: string, make: () => T): T => {
    if (!sharedData.has(key)) sharedData.set(key, make());
    return sharedData.get(key) as T;
  },
};

const loadText = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(' ');

function print(rows: BenchRow[], loadBefore: string, loadAfter: string): void {
  const lines = [
    `\nDistributor Inspector benchmark: ${os.cpus().length} cores, Node ${process.version}, load average ${loadBefore} at the start, ${loadAfter} at the end`,
    `Paired runs: one warm-up each, then ${runs} pairs, each side first in every other pair; medians [min–max]; ratios of medians.`,
    `${cpuSource}.${runs < 5 ? ` Only ${runs} runs${quick ? ' (--quick)' : ''}: fewer than the 5 a verdict needs, a check that the rows run.` : ''}\n`,
  ];
  for (const row of rows) {
    lines.push(row.name);
    if (row.error !== undefined) {
      lines.push(`  FAILED    ${row.error}`, '');
      continue;
    }
    lines.push(`  ours      ${row.ours.text}`);
    lines.push(`  baseline  ${row.baseline.text}  (${row.baselineName})`);
    lines.push(`  ratio     ${row.ratioText}; target ${row.target}: ${row.met ? 'met' : 'NOT met'}`);
    for (const note of row.notes) lines.push(`  note      ${note}`);
    lines.push('');
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

try {
  const started = performance.now();
  const loadBefore = loadText();
  const rows = await runBenches(
    BENCHES.filter((bench) => only.includes(bench.name)),
    context,
    (bench) => context.log(`── ${bench.name} (load average ${loadText()})`),
  );
  const loadAfter = loadText();
  if (json) {
    process.stderr.write(
      `${os.cpus().length} cores, Node ${process.version}, load average ${loadBefore} → ${loadAfter}, ${runs} paired runs; ${cpuSource}\n`,
    );
    process.stdout.write(`${JSON.stringify(rows.map(jsonRow), null, 2)}\n`);
  } else print(rows, loadBefore, loadAfter);
  process.stderr.write(`benchmark took ${formatMs(performance.now() - started)}\n`);
} finally {
  cleanUp();
}
