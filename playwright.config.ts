// End-to-end tests: the built app against the real engine and real folders, in Debian's Chromium
// (never a downloaded browser). scripts/e2e.mjs builds first; e2e/fixtures.ts checks that it did.
import { defineConfig } from '@playwright/test';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];

// One output folder per run: Playwright empties its output folder when it starts, so two runs at once
// (several people on one machine) would delete each other's traces mid-test. The runner picks the id;
// its workers inherit it through the environment and load this file with the same one.
process.env.E2E_RUN_ID ??= `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: `test-results/${process.env.E2E_RUN_ID}`,
  // Two workers, spec files side by side: a spec spends most of its time waiting on its host and
  // the page, so two overlap on two cores. E2E_WORKERS=1 runs them one after another (a machine
  // shared with others, or a timing question to settle).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    // Kept only when a test fails: the trace shows every step, request and console line. Recorded
    // for every test, though, so without its screencast and without the DOM at each step: the frames
    // Chromium encodes and the snapshots it takes all through each test cost CPU that the tests
    // beside it wait for (docs/testing.md). E2E_TRACE_DOM=1 records the DOM too, to debug a failure.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: process.env.E2E_TRACE_DOM === '1' },
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
  },
});
