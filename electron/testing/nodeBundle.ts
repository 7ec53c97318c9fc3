// One minified ES module for plain node from a TypeScript entry, the way scripts/build.mjs builds the
// app's own (so a test starts it without tsx's start-up): the crash harness's child and the hash
// worker of a Vitest run. For tests only.

import { build } from 'esbuild';

/** Bundles `entry` into `outfile` and returns `outfile`. */
export async function bundleForNode(entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    // Less to parse at every start: a test may start many.
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}
