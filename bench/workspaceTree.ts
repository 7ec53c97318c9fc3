// The tree the scan and verify benchmarks share: 10,000 destinations × 10 outputs of 4 KiB.

import path from 'node:path';
import type { BenchContext } from './bench';
import { writeTree, type TreeShape } from './generateTree';

export const TREE_SHAPE: TreeShape = { destinations: 10_000, outputsPerDestination: 10, outputBytes: 4096 };

export function workspaceTree(context: BenchContext): string {
  return context.shared('workspaceTree', () => {
    const root = path.join(context.workDir, 'workspace');
    const started = performance.now();
    context.log(
      `generating ${TREE_SHAPE.destinations.toLocaleString('en-US')} destinations × ${TREE_SHAPE.outputsPerDestination} outputs of ${TREE_SHAPE.outputBytes} bytes…`,
    );
    writeTree(root, TREE_SHAPE);
    context.log(`  generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return root;
  });
}
