// Scan against a naive reader: readdir, then readFileSync + JSON.parse of every state file, no
// validation. Rows: 10,000 destinations × 10 outputs, 100,000 destinations × 1 output, and the
// cost per destination at 1,000 and at 100,000 (it must stay flat: a linear total, no quadratic path).

import { timeRow, type Bench, type BenchRow } from './bench';
import { measurePaired, type Timing } from './measure';
import { scaleTree, workspaceTree } from './workspaceTree';

// Node too, so both sides pay the same startup.
const NAIVE_SCAN = `
const { readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');
const root = process.argv[1];
let count = 0;
for (const name of readdirSync(root)) {
  JSON.parse(readFileSync(path.join(root, name, '.distributor.json'), 'utf8'));
  count += 1;
}
process.stdout.write(count + '\\n');
`;

const LARGE = 100_000;
const SMALL = 1_000;

export const scanBench: Bench = {
  name: 'scan',
  async run(context) {
    const pairOf = (root: string) =>
      measurePaired(['node', context.cli, 'scan', root, '--json'], ['node', '-e', NAIVE_SCAN, root], { runs: context.runs });
    const rows: BenchRow[] = [];

    const root = workspaceTree(context);
    context.log('scan 10k: ours and the naive reader, paired…');
    const tenK = await pairOf(root);
    rows.push(
      timeRow('scan 10,000 destinations × 10 outputs', tenK, 'node: readdir + readFileSync + JSON.parse', { wall: 1.5, cpu: 2.5 }, [
        `peak RSS of our scan: ${tenK.ours.peakRssMb?.toFixed(0) ?? '?'} MB (target < 200 MB)`,
      ]),
    );
    if (context.quick) return rows;

    const empty = scaleTree(context, 0);
    const small = scaleTree(context, SMALL);
    const large = scaleTree(context, LARGE);
    context.log('scan 0 / 1k / 100k destinations: ours and the naive reader, paired…');
    const none = await pairOf(empty);
    const oneK = await pairOf(small);
    const hundredK = await pairOf(large);
    rows.push(
      timeRow('scan 100,000 destinations × 1 output', hundredK, 'node: readdir + readFileSync + JSON.parse', { wall: 1.5, cpu: 2.5 }, [
        `peak RSS of our scan: ${hundredK.ours.peakRssMb?.toFixed(0) ?? '?'} MB`,
      ]),
    );

    // Per destination: the time above an empty scan (startup), over the count.
    const perDestinationUs = (timing: Timing, startup: Timing, count: number) =>
      ((timing.wall.median - startup.wall.median) * 1000) / count;
    const oursSmall = perDestinationUs(oneK.ours, none.ours, SMALL);
    const oursLarge = perDestinationUs(hundredK.ours, none.ours, LARGE);
    const naiveSmall = perDestinationUs(oneK.baseline, none.baseline, SMALL);
    const naiveLarge = perDestinationUs(hundredK.baseline, none.baseline, LARGE);
    const growth = oursLarge / oursSmall;
    rows.push({
      name: 'scan, cost per destination, 1,000 → 100,000 (growth)',
      ours: { value: growth, text: `${oursSmall.toFixed(0)} → ${oursLarge.toFixed(0)} µs (${growth.toFixed(2)}×)` },
      baseline: {
        value: naiveLarge / naiveSmall,
        text: `${naiveSmall.toFixed(0)} → ${naiveLarge.toFixed(0)} µs (${(naiveLarge / naiveSmall).toFixed(2)}×)`,
      },
      baselineName: 'the naive reader, the same trees',
      ratio: growth,
      ratioText: `${growth.toFixed(2)}× growth per destination from 1k to 100k`,
      target: 'flat: ≤ 1.25× growth',
      met: growth <= 1.25,
      notes: [
        `median wall above an empty scan (ours ${Math.round(none.ours.wall.median)} ms, naive ${Math.round(none.baseline.wall.median)} ms), over the count`,
      ],
    });
    return rows;
  },
};
