// Starts one HashPool worker thread (hashWorker.ts) from wherever this code runs: the built bundle,
// or the TypeScript source under Vitest and tsx. Starts it only; the pool decides what it runs.

import { Worker, type ResourceLimits } from 'node:worker_threads';

/** The worker's file beside this module: the built bundle in dist/, or the TypeScript source under Vitest and tsx. */
export function startWorker(resourceLimits: ResourceLimits | undefined): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  if (!fromSource) return new Worker(new URL('./hashWorker.js', import.meta.url), { resourceLimits });
  // Under Vitest the global setup bundles the worker once per run (scripts/vitestGlobalSetup.ts): it
  // then starts in a quarter of the time it takes to load tsx and transform the source in each worker.
  const bundled = process.env.INSPECTOR_TEST_HASH_WORKER;
  if (bundled) return new Worker(bundled, { resourceLimits });
  // Node 20 does not apply `--import tsx` to a worker's entry module, so the worker is started
  // from a one-line bootstrap that loads the TypeScript source through tsx's API.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./hashWorker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => api.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}
