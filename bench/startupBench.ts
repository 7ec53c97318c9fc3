// Cold start: `inspect` of one small managed destination through the built command line, against
// `node -e 0` (Node's own start), paired. Target: at most 1.5x.

import path from 'node:path';
import { timeRow, type Bench } from './bench';
import { writeTree } from './generateTree';
import { measurePaired } from './measure';

export const startupBench: Bench = {
  name: 'startup',
  async run(context) {
    const root = path.join(context.workDir, 'startup');
    writeTree(root, { destinations: 1, outputsPerDestination: 3, outputBytes: 1024 });
    const destination = path.join(root, 'd000000');
    context.log('startup: inspect of one destination and node -e 0, paired…');
    const pair = await measurePaired(['node', context.cli, 'inspect', destination, '--json'], ['node', '-e', '0'], {
      runs: Math.max(context.runs, 10),
    });
    return [timeRow('cold start: inspect of one destination', pair, 'node -e 0', { wall: 1.5 })];
  },
};
