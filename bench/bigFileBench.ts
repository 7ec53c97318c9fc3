// Verify of one 1 GiB output against `openssl dgst -sha256` on the same file, paired. Target: at
// least 0.95x its throughput. Our side runs the whole command line (startup, state, worker), so a
// second figure without the startup (an empty verify's time) says what the hashing itself does.

import path from 'node:path';
import type { Bench } from './bench';
import { timeFigure } from './bench';
import { writeBigDestination } from './generateTree';
import { measurePaired } from './measure';

const BYTES = 1024 ** 3;
const TARGET = 0.95;

export const bigFileBench: Bench = {
  name: 'bigFile',
  async run(context) {
    const destination = path.join(context.workDir, 'big-destination');
    context.log('generating a 1 GiB output…');
    const file = writeBigDestination(destination, BYTES);
    const emptyDestination = path.join(context.workDir, 'empty-destination');
    writeBigDestination(emptyDestination, 0);

    context.log('1 GiB: ours and openssl dgst -sha256, paired; then an empty verify beside node -e 0…');
    const pair = await measurePaired(
      ['node', context.cli, 'scan', destination, '--verify', '--json'],
      ['openssl', 'dgst', '-sha256', file],
      {
        runs: context.runs,
      },
    );
    const startup = await measurePaired(['node', context.cli, 'scan', emptyDestination, '--verify', '--json'], ['node', '-e', '0'], {
      runs: context.runs,
    });

    const gibPerSecond = (ms: number) => BYTES / 1024 ** 3 / (ms / 1000);
    const ratio = pair.baseline.wall.median / pair.ours.wall.median;
    const withoutStartupMs = Math.max(1, pair.ours.wall.median - startup.ours.wall.median);
    return [
      {
        name: 'verify one 1 GiB output (throughput)',
        ours: timeFigure(pair.ours),
        baseline: timeFigure(pair.baseline),
        baselineName: 'openssl dgst -sha256',
        ratio,
        ratioText: `${ratio.toFixed(2)}× openssl's throughput`,
        target: `≥ ${TARGET}× throughput`,
        met: ratio >= TARGET,
        notes: [
          `ours ${gibPerSecond(pair.ours.wall.median).toFixed(2)} GiB/s, openssl ${gibPerSecond(pair.baseline.wall.median).toFixed(2)} GiB/s`,
          `without our startup (${Math.round(startup.ours.wall.median)} ms, an empty verify): ${gibPerSecond(withoutStartupMs).toFixed(2)} GiB/s = ${(pair.baseline.wall.median / withoutStartupMs).toFixed(2)}× openssl`,
        ],
      },
    ];
  },
};
