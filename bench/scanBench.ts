// Scan of 10,000 destinations against a naive reader: readdir, then readFileSync + JSON.parse of
// every state file, no validation. Target: at most 2x its time, and under 200 MB peak memory.

import type { Bench } from './bench';
import { measure } from './measure';
import { workspaceTree } from './workspaceTree';

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

export const scanBench: Bench = {
  name: 'scan',
  async run(context) {
    const root = workspaceTree(context);
    context.log('scan: ours…');
    const ours = await measure(['node', context.cli, 'scan', root, '--json'], context.runs);
    context.log('scan: naive readdir + JSON.parse…');
    const baseline = await measure(['node', '-e', NAIVE_SCAN, root], context.runs);
    const ratio = ours.best.wallMs / baseline.best.wallMs;
    const peakRssMb = Math.max(...ours.runs.map((run) => run.peakRssMb ?? 0));
    return [
      {
        name: 'scan 10,000 destinations',
        ours,
        baseline,
        baselineName: 'node: readdir + readFileSync + JSON.parse',
        ratio,
        ratioKind: 'time',
        target: '≤ 2× time, < 200 MB',
        met: ratio <= 2 && peakRssMb > 0 && peakRssMb < 200,
        notes: [`peak RSS of our scan: ${peakRssMb.toFixed(0)} MB`],
      },
    ];
  },
};
