import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Bench, BenchContext, BenchRow } from './bench';
import { jsonRow } from './options';
import { runBenches } from './runBenches';

const here = path.dirname(fileURLToPath(import.meta.url));

const row = (name: string, value: number): BenchRow => ({
  name,
  ours: { value, text: `${value} ms` },
  baseline: { value: 100, text: '100 ms' },
  baselineName: 'baseline',
  ratio: value / 100,
  ratioText: `${(value / 100).toFixed(2)}× wall`,
  target: '≤ 1.5× wall',
  met: value <= 150,
  notes: [],
});

const logged: string[] = [];
const context: BenchContext = {
  workDir: os.tmpdir(),
  cli: 'dist/cli.js',
  runs: 1,
  quick: true,
  log: (text) => logged.push(text),
  shared: <T>(_key: string, make: () => T) => make(),
};

describe('runBenches', () => {
  it('reports a benchmark that throws as a failed row with its reason, and still runs and reports every other one', async () => {
    const started: string[] = [];
    const benches: Bench[] = [
      { name: 'scan', run: async () => [row('scan 10,000', 120)] },
      {
        name: 'remote-hosts',
        run: async () => {
          throw new Error('host-12 failed: auth_failed Permission denied (publickey)');
        },
      },
      { name: 'queue', run: async () => [row('queue a', 90), row('queue b', 200)] },
    ];
    const rows = await runBenches(benches, context, (bench) => started.push(bench.name));
    expect(started).toEqual(['scan', 'remote-hosts', 'queue']);
    // What --json prints, read back as a script would.
    const json = JSON.parse(JSON.stringify(rows.map(jsonRow))) as Record<string, unknown>[];
    expect(json.map((entry) => [entry.name, entry.ours, entry.met, entry.error])).toEqual([
      ['scan 10,000', 120, true, undefined],
      ['remote-hosts', null, false, 'host-12 failed: auth_failed Permission denied (publickey)'],
      ['queue a', 90, true, undefined],
      ['queue b', 200, false, undefined],
    ]);
    expect(json[1]).toMatchObject({ baseline: null, ratio: null, target: 'the benchmark runs to its end' });
    expect(logged.some((line) => line.startsWith('remote-hosts failed: Error: host-12 failed'))).toBe(true);
  });

  it('fails the benchmark an escaped error came from, without ending the process', async () => {
    // In a process of its own: the test runner counts an unhandled rejection in its own process as a failure.
    const script = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'run-benches-')), 'stray.mts');
    await fs.writeFile(
      script,
      [
        `import { runBenches } from ${JSON.stringify(path.join(here, 'runBenches.ts'))};`,
        `const row = (name: string) => ({ name, ours: { value: 1, text: '' }, baseline: { value: 1, text: '' }, baselineName: '', ratio: 1, ratioText: '', target: '', met: true, notes: [] });`,
        `const context = { workDir: '', cli: '', runs: 1, quick: true, log: () => {}, shared: (_: string, make: () => unknown) => make() } as never;`,
        `const rows = await runBenches([`,
        `  { name: 'leaky', run: async () => { void Promise.reject(new Error('nobody awaited this')); await new Promise((r) => setTimeout(r, 50)); return [row('leaky row')]; } },`,
        `  { name: 'after', run: async () => [row('after row')] },`,
        `], context);`,
        `console.log(JSON.stringify(rows.map((r) => [r.name, r.met, r.error])));`,
      ].join('\n'),
    );
    try {
      const { stdout } = await promisify(execFile)(path.join(here, '..', 'node_modules', '.bin', 'tsx'), [script], { timeout: 60_000 });
      expect(JSON.parse(stdout)).toEqual([
        ['leaky row', true, null],
        ['leaky', false, 'nobody awaited this'],
        ['after row', true, null],
      ]);
    } finally {
      await fs.rm(path.dirname(script), { recursive: true, force: true });
    }
  }, 60_000);
});
