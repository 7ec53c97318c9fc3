// Verify of the 100,000 outputs of the shared tree (4 KiB each) against
// `find … -type f -print0 | xargs -0 -P2 openssl dgst -sha256`, paired. Target: at most 1.3x its time.
// Our side is `scan --verify`: it reads and validates every state too, which the baseline does not.

import { timeRow, type Bench } from './bench';
import { measurePaired } from './measure';
import { TREE_SHAPE, workspaceTree } from './workspaceTree';

export const verifyBench: Bench = {
  name: 'verify',
  async run(context) {
    const root = workspaceTree(context);
    context.log('verify: ours and find | xargs -P2 openssl, paired…');
    const pair = await measurePaired(
      ['node', context.cli, 'scan', root, '--verify', '--json'],
      ['sh', '-c', 'find "$1" -type f -print0 | xargs -0 -P2 openssl dgst -sha256 > /dev/null', 'sh', root],
      { runs: context.runs },
    );
    const outputs = TREE_SHAPE.destinations * TREE_SHAPE.outputsPerDestination;
    return [
      timeRow(
        `scan --verify, ${outputs.toLocaleString('en-US')} outputs of 4 KiB`,
        pair,
        'find | xargs -0 -P2 openssl dgst -sha256',
        { wall: 1.3 },
        [
          `${Math.round(outputs / (pair.ours.wall.median / 1000)).toLocaleString('en-US')} outputs/s; peak RSS ${pair.ours.peakRssMb?.toFixed(0) ?? '?'} MB`,
        ],
      ),
    ];
  },
};
