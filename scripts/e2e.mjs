// Runs the end-to-end tests (Playwright against Debian's Chromium), after a build.
// Prints why when there is nothing it can run, rather than passing silently.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const specs = existsSync('e2e') ? readdirSync('e2e').filter((name) => name.endsWith('.spec.ts')) : [];
if (specs.length === 0) {
  console.log('e2e: no end-to-end specs in e2e/ yet');
  process.exit(0);
}
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit' }).status ?? 1;
let status = run('node', ['scripts/build.mjs']);
if (status === 0) status = run('npx', ['playwright', 'test', ...process.argv.slice(2)]);
process.exit(status);
