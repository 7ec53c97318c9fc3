// Verify of one 1 GiB output against `openssl dgst -sha256` on the same file. Target: at least
// 0.8x its throughput. Our side runs the whole command line (startup, state, worker), so a second
// figure without the startup (an empty scan's time) says what the hashing itself does.

import path from 'node:path';
import type { Bench } from './bench';
import { writeBigDestination } from './generateTree';
import { measure } from './measure';

const BYTES = 1024 ** 3;

export const bigFileBench: Bench = {
  name: 'bigFile',
  async run(context) {
    const destination = path.join(context.workDir, 'big-destination');
    context.log('generating a 1 GiB output…');
    const file = writeBigDestination(destination, BYTES);
    const emptyDestination = path.join(context.workDir, 'empty-destination');
    writeBigDestination(emptyDestination, 0);

    context.log('1 GiB: ours…');
    const ours = await measure(['node', context.cli, 'scan', destination, '--verify', '--json'], context.runs);
    const startup = await measure(['node', context.cli, 'scan', emptyDestination, '--verify', '--json'], context.runs);
    context.log('1 GiB: openssl dgst -sha256…');
    const baseline = await measure(['openssl', 'dgst', '-sha256', file], context.runs);

    const gibPerSecond = (ms: number) => BYTES / 1024 ** 3 / (ms / 1000);
    const ratio = baseline.best.wallMs / ours.best.wallMs;
    const withoutStartupMs = Math.max(1, ours.best.wallMs - startup.best.wallMs);
    return [
      {
        name: 'verify one 1 GiB output',
        ours,
        baseline,
        baselineName: 'openssl dgst -sha256',
        ratio,
        ratioKind: 'throughput',
        target: '≥ 0.8× throughput',
        met: ratio >= 0.8,
        notes: [
          `ours ${gibPerSecond(ours.best.wallMs).toFixed(2)} GiB/s, openssl ${gibPerSecond(baseline.best.wallMs).toFixed(2)} GiB/s`,
          `without our startup (${Math.round(startup.best.wallMs)} ms, an empty verify): ${gibPerSecond(withoutStartupMs).toFixed(2)} GiB/s = ${(baseline.best.wallMs / withoutStartupMs).toFixed(2)}× openssl`,
        ],
      },
    ];
  },
};
