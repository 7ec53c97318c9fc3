// Scan against a naive reader: readdir, then readFileSync + JSON.parse of every state file, no
// validation. Rows: 10,000 destinations × 10 outputs, 100,000 destinations × 1 output, and the
// cost per destination at 1,000 and at 100,000 above a small scan that starts every worker (it
// must stay flat: a linear total, no quadratic path).

import { availableParallelism } from 'node:os';
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
/**
 * The scan subtracted as fixed cost, so the 1k figure does not carry the start that an empty scan
 * never pays. Below 2,000 destinations the command line reads in its own thread; a pool would start
 * a worker per batch, up to one per core.
 */
const BASE = Math.min(SMALL / 2, 64 * availableParallelism());

interface Sized {
  count: number;
  ours: Timing;
  baseline: Timing;
}

/** µs per destination above the base scan: (median at `count` − median at base) / (count − base count). */
export function perDestinationUs(at: { count: number; medianMs: number }, base: { count: number; medianMs: number }): number {
  if (at.count <= base.count) throw new Error(`per-destination cost: ${at.count} destinations is not above the base of ${base.count}`);
  return ((at.medianMs - base.medianMs) * 1000) / (at.count - base.count);
}

/** The growth of the cost per destination from the small tree to the large one: flat means a linear total. */
export function perDestinationRow(sizes: { base: Sized; small: Sized; large: Sized }): BenchRow {
  const cost = (side: 'ours' | 'baseline', sized: Sized) =>
    perDestinationUs(
      { count: sized.count, medianMs: sized[side].wall.median },
      { count: sizes.base.count, medianMs: sizes.base[side].wall.median },
    );
  const [oursSmall, oursLarge] = [cost('ours', sizes.small), cost('ours', sizes.large)];
  const [naiveSmall, naiveLarge] = [cost('baseline', sizes.small), cost('baseline', sizes.large)];
  const growth = oursLarge / oursSmall;
  const n = (count: number) => count.toLocaleString('en-US');
  return {
    name: `scan, cost per destination, ${n(sizes.small.count)} → ${n(sizes.large.count)} (growth)`,
    ours: { value: growth, text: `${oursSmall.toFixed(0)} → ${oursLarge.toFixed(0)} µs (${growth.toFixed(2)}×)` },
    baseline: {
      value: naiveLarge / naiveSmall,
      text: `${naiveSmall.toFixed(0)} → ${naiveLarge.toFixed(0)} µs (${(naiveLarge / naiveSmall).toFixed(2)}×)`,
    },
    baselineName: 'the naive reader, the same trees',
    ratio: growth,
    ratioText: `${growth.toFixed(2)}× growth per destination from ${n(sizes.small.count)} to ${n(sizes.large.count)}`,
    target: 'flat: ≤ 1.25× growth',
    met: growth <= 1.25,
    notes: [
      `median wall above a scan of ${n(sizes.base.count)} destinations (ours ${Math.round(sizes.base.ours.wall.median)} ms, naive ${Math.round(sizes.base.baseline.wall.median)} ms: startup and every worker started), over the destinations beyond it`,
    ],
  };
}

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

    const base = scaleTree(context, BASE);
    const small = scaleTree(context, SMALL);
    const large = scaleTree(context, LARGE);
    context.log(`scan ${BASE} / 1k / 100k destinations: ours and the naive reader, paired…`);
    const basePair = await pairOf(base);
    const oneK = await pairOf(small);
    const hundredK = await pairOf(large);
    rows.push(
      timeRow('scan 100,000 destinations × 1 output', hundredK, 'node: readdir + readFileSync + JSON.parse', { wall: 1.5, cpu: 2.5 }, [
        `peak RSS of our scan: ${hundredK.ours.peakRssMb?.toFixed(0) ?? '?'} MB`,
      ]),
    );
    rows.push(
      perDestinationRow({ base: { count: BASE, ...basePair }, small: { count: SMALL, ...oneK }, large: { count: LARGE, ...hundredK } }),
    );
    return rows;
  },
};
