// Verify of the 100,000 outputs of the shared tree (4 KiB each) against
// `find … -type f -print0 | xargs -0 -P2 openssl dgst -sha256`. Target: at most 1.5x its time.
// Our side is `scan --verify`: it reads and validates every state too, which the baseline does not.

import type { Bench } from './bench';
import { measure } from './measure';
import { TREE_SHAPE, workspaceTree } from './workspaceTree';

export const verifyBench: Bench = {
  name: 'verify',
  async run(context) {
    const root = workspaceTree(context);
    context.log('verify: ours…');
    const ours = await measure(['node', context.cli, 'scan', root, '--verify', '--json'], context.runs);
    context.log('verify: find | xargs -P2 openssl…');
    const baseline = await measure(
      ['sh', '-c', 'find "$1" -type f -print0 | xargs -0 -P2 openssl dgst -sha256 > /dev/null', 'sh', root],
      context.runs,
    );
    const ratio = ours.best.wallMs / baseline.best.wallMs;
    const outputs = TREE_SHAPE.destinations * TREE_SHAPE.outputsPerDestination;
    const peakRssMb = Math.max(...ours.runs.map((run) => run.peakRssMb ?? 0));
    return [
      {
        name: `verify ${outputs.toLocaleString('en-US')} outputs of 4 KiB`,
        ours,
        baseline,
        baselineName: 'find | xargs -0 -P2 openssl dgst -sha256',
        ratio,
        ratioKind: 'time',
        target: '≤ 1.5× time',
        met: ratio <= 1.5,
        notes: [
          `${Math.round(outputs / (ours.best.wallMs / 1000)).toLocaleString('en-US')} outputs/s; peak RSS ${peakRssMb.toFixed(0)} MB`,
        ],
      },
    ];
  },
};
