// Vitest's global setup. The user-level files a test may write (the CLI's own history journal in
// $XDG_STATE_HOME, anything under ~) go to a temp dir of this run, never the home of whoever runs the
// tests. Tests that pass the CLI an env of their own fall back to HOME, hence both.
// It builds the app when a source is newer than dist/ (electron/testing/builtApp.ts), before any
// worker starts, so that no test builds while another runs the build.
// It bundles the hash worker once for the run, which HashPool starts from INSPECTOR_TEST_HASH_WORKER:
// a worker of the TypeScript source loads tsx and transforms every module (1-1.5 s a worker under
// load, against 0.2-0.4 s for the bundle). And it picks the seed of the sampled matrices
// (electron/testing/testSampling.ts) when TEST_SEED is unset, and prints it, so a failure in a
// sample replays with the same TEST_SEED.
import { randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../electron/testing/builtApp';
import { bundleForNode } from '../electron/testing/nodeBundle';

export default async function setup(): Promise<() => void> {
  await ensureBuilt();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'inspector-test-state-'));
  process.env.INSPECTOR_TEST_HASH_WORKER = await bundleForNode(
    fileURLToPath(new URL('../electron/engine/hashWorker.ts', import.meta.url)),
    path.join(dir, 'hashWorker.mjs'),
  );
  process.env.XDG_STATE_HOME = path.join(dir, 'state');
  process.env.HOME = path.join(dir, 'home');
  mkdirSync(process.env.HOME);
  // Each worker's own state and home go under here (vitestWorkerSetup.ts).
  process.env.INSPECTOR_TEST_STATE_ROOT = dir;
  if (process.env.TEST_SEED === undefined || process.env.TEST_SEED === '') process.env.TEST_SEED = String(randomInt(0, 2 ** 31));
  const line =
    process.env.TEST_FULL === '1'
      ? `tests: every matrix in full (TEST_FULL=1), TEST_SEED=${process.env.TEST_SEED}`
      : `tests: matrices sampled with TEST_SEED=${process.env.TEST_SEED} (set it to replay; TEST_FULL=1 runs them whole)`;
  console.log(line);
  return () => {
    rmSync(dir, { recursive: true, force: true });
    // Again at the end, beside the failures it may replay.
    console.log(line);
  };
}
