// `npm run test:e2e`: builds what is stale, then runs Playwright against Debian's Chromium. Says up
// front what it cannot run here (the Electron specs without an Electron binary), and fails, rather
// than passing silently, when there is no Chromium to run the rest in. Never downloads a browser.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findElectronBinary, hasDisplay } from './electronBinary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

const specs = existsSync(`${root}/e2e`) ? readdirSync(`${root}/e2e`).filter((name) => name.endsWith('.spec.ts')) : [];
if (specs.length === 0) {
  console.log('e2e: skipped: no end-to-end specs in e2e/');
  process.exit(0);
}
if (!existsSync(CHROMIUM)) {
  console.error(`e2e: cannot run: no Chromium at ${CHROMIUM}. Install Debian's (apt-get install -y chromium); .ci/run does.`);
  process.exit(1);
}
const electron = findElectronBinary(root);
if (!electron.ok) console.log(`e2e: the Electron specs will be skipped: ${electron.reason}`);
else if (!hasDisplay()) console.log('e2e: the Electron specs will be skipped: no display (DISPLAY and WAYLAND_DISPLAY are unset)');

// Builds the parts whose sources are newer than dist/, by the rule the unit tests' global setup
// follows (electron/testing/builtApp.ts): under `npm test` that setup has just built, and building
// again took 3-4 s of nothing new.
try {
  const { tsImport } = await import('tsx/esm/api');
  const { ensureBuilt } = await tsImport('../electron/testing/builtApp.ts', import.meta.url);
  await ensureBuilt();
} catch (cause) {
  console.error(`e2e: the build failed; no end-to-end test ran.\n${cause.stderr ?? cause.message}`);
  process.exit(1);
}
const status =
  spawnSync(process.execPath, [`${root}/node_modules/@playwright/test/cli.js`, 'test', ...process.argv.slice(2)], {
    stdio: 'inherit',
    cwd: root,
  }).status ?? 1;
process.exit(status);
