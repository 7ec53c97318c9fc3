// `npm run test:full`: the test files whose matrices `npm test` samples, run again with every point
// (TEST_FULL=1). They are the files that call a sampling helper of electron/testing/testSampling.ts,
// directly or through the shared crash and fault loops, so a new matrix built on them joins without a
// list to keep (`--list` prints them). `npm test` and then this script together run every test in full; .ci/run runs both.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SAMPLED = /\b(killBeforeEveryMutation|failAtEveryMutation|samplePoints|propertyRuns)\(/;
const TEST_FILE = /\.test\.tsx?$/;

function* testFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(full);
    else if (TEST_FILE.test(entry.name)) yield full;
  }
}

const files = ['shared', 'electron', 'renderer', 'scripts', 'bench']
  .flatMap((dir) => [...testFiles(path.join(root, dir))])
  .filter((file) => SAMPLED.test(readFileSync(file, 'utf8')))
  .map((file) => path.relative(root, file))
  .sort();
if (files.length === 0) {
  console.error('test:full: no test file calls a sampling helper; nothing to run in full.');
  process.exit(1);
}
if (process.argv.includes('--list')) {
  console.log(files.join('\n'));
  process.exit(0);
}
console.log(`test:full: ${files.length} files with sampled matrices, every point (TEST_FULL=1):\n  ${files.join('\n  ')}`);
const run = spawnSync(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_FULL: '1' },
});
process.exit(run.status ?? 1);
