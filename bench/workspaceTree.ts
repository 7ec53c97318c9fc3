// The trees the scan and verify benchmarks share: 10,000 destinations × 10 outputs of 4 KiB, and
// for the scaling rows trees of N destinations × 1 small output (the same shape at every size).

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './bench';
import { writeTree, type TreeShape } from './generateTree';

export const TREE_SHAPE: TreeShape = { destinations: 10_000, outputsPerDestination: 10, outputBytes: 4096 };

function makeTree(context: BenchContext, name: string, shape: TreeShape): string {
  return context.shared(name, () => {
    const root = path.join(context.workDir, name);
    const started = performance.now();
    context.log(
      `generating ${shape.destinations.toLocaleString('en-US')} destinations × ${shape.outputsPerDestination} outputs of ${shape.outputBytes} bytes…`,
    );
    if (shape.destinations === 0) mkdirSync(root, { recursive: true });
    else writeTree(root, shape);
    context.log(`  generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return root;
  });
}

export function workspaceTree(context: BenchContext): string {
  return makeTree(context, 'workspace', TREE_SHAPE);
}

/** `destinations` × 1 output of 256 bytes: small, so the per-destination cost is what it measures. */
export function scaleTree(context: BenchContext, destinations: number): string {
  return makeTree(context, `scale-${destinations}`, { destinations, outputsPerDestination: 1, outputBytes: 256 });
}
