// The renderer at scale: opens the 100,000-destination demo in Debian's Chromium through the browser
// host, paired with a CLI scan of the same workspace, and measures from navigation: the first scanned
// row on screen, every row listed (against the CLI scan: ≤ 1.2×), the longest task on the page's main
// thread meanwhile (≤ 100 ms), then how long the list takes to answer a search keystroke and a filter
// chip (≤ 100 ms each). Rows print the sample their verdict uses. Generates its own data in a temp
// dir and removes it; never touches anything else.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createDemoWorkspace } from '../electron/demo/demo';
import { budgetRow, timeRow, type Bench } from './bench';
import { runOnce, timingOf, type Run } from './measure';
import { cpuBetween, readTreeCpu } from './processCpu';

const root = fileURLToPath(new URL('..', import.meta.url));
const rendererDir = path.join(root, 'dist', 'renderer');
const cliPath = path.join(root, 'dist', 'cli.js');

/** Stops a host startServeProcess started, and waits for it to exit (at once when it already has). */
export async function stopServeProcess(host: { child: ChildProcess }): Promise<void> {
  if (host.child.exitCode !== null || host.child.signalCode !== null) return;
  const exited = new Promise((resolve) => host.child.once('exit', resolve));
  host.child.kill('SIGTERM');
  await exited;
}

/**
 * The browser host as its own process through the built CLI, as an operator starts it: the bench's
 * own event loop (polling, Playwright) must not share a thread with the host it measures.
 */
export async function startServeProcess(workspaceFile: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [cliPath, 'serve', workspaceFile, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // Opening 100,000 destinations takes the host tens of seconds on a loaded 2-core machine.
    const timer = setTimeout(() => reject(new Error(`serve printed no address within 2 min: ${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/#token=\S+/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${output}`));
    });
  });
  return { url, child };
}
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];

export interface PageLoad {
  /** From navigation start (the page's time origin). */
  firstRowMs: number;
  allListedMs: number;
  longestTaskMs: number;
  longTasks: number;
  /** CPU from navigation to all listed (/proc; absent elsewhere): the browser host's process, and Chromium's processes. */
  hostCpuMs?: number;
  chromiumCpuMs?: number;
}

export interface UiBenchFigures {
  destinations: number;
  loads: PageLoad[];
  cliScans: Run[];
  searchResponseMs: number[];
  chipResponseMs: number[];
}

/** What LOAD_PROBE leaves in `window.__bench`: each long task as [start, duration] in ms. */
export interface LoadProbe {
  longTasks: [number, number][];
  firstRowMs: number;
  allListedMs: number;
}

// In-page scripts are strings: they run in Chromium, not Node (no DOM types here, no bundler helpers there).

/**
 * Installed before the page's own scripts: records every long task, and when the first scanned row is
 * on screen and when no row is pending any more. Checked at the next animation frame after the page's
 * DOM changed, as a user would see it, never by a poll each frame: that poll made Chromium draw ~60
 * frames a second for the whole load (~65 ms of its CPU a second with nothing else on the page), on the
 * cores the page and the host share, which the CLI scan it is compared with never pays.
 */
export const LOAD_PROBE = `(() => {
  const bench = (window.__bench = { longTasks: [], firstRowMs: undefined, allListedMs: undefined });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
  }).observe({ type: 'longtask', buffered: true });
  let due = false;
  const check = () => {
    due = false;
    if (bench.firstRowMs === undefined && document.querySelector('[role="option"]:not([data-status="pending"])'))
      bench.firstRowMs = performance.now();
    const count = document.querySelector('[data-testid="list-count"]');
    if (bench.firstRowMs !== undefined && count && !/scanning/.test(count.textContent || '')) {
      bench.allListedMs = performance.now();
      changes.disconnect();
    }
  };
  const changes = new MutationObserver(() => {
    if (due) return;
    due = true;
    requestAnimationFrame(check);
  });
  changes.observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-status'] });
})()`;

/** Changes the search box (or clicks a chip) and resolves with the ms until the list re-rendered and painted. */
const INTERACTION_SCRIPT = `(async ({ kind, value }) => new Promise((resolve) => {
  const count = document.querySelector('[data-testid="list-count"]');
  const before = count && count.textContent;
  const started = performance.now();
  if (kind === 'search') {
    const input = document.getElementById('destination-search');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  } else {
    const chip = [...document.querySelectorAll('.chip')].find((candidate) => (candidate.textContent || '').startsWith(value));
    chip.click();
  }
  const check = () => {
    if ((count && count.textContent) !== before) requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
    // A query that leaves the count as it was measures nothing: say so rather than wait forever.
    else if (performance.now() - started > 5000) resolve(-1);
    else requestAnimationFrame(check);
  };
  check();
}))`;

async function timeInteraction(page: Page, kind: 'search' | 'chip', value: string): Promise<number> {
  const ms = (await page.evaluate(`(${INTERACTION_SCRIPT})(${JSON.stringify({ kind, value })})`)) as number;
  if (ms < 0) throw new Error(`the ${kind} "${value}" did not change the list's count within 5 s; pick one that does`);
  return ms;
}

async function loadPage(
  browser: Browser,
  url: string,
  log: (line: string) => void,
  hostPid?: number,
): Promise<{ load: PageLoad; page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(LOAD_PROBE);
  const page = await context.newPage();
  // Chromium's processes are this process's descendants besides the host's.
  const readCpu = () => ({
    host: hostPid ? readTreeCpu(hostPid) : new Map<number, number>(),
    chromium: readTreeCpu(process.pid, { belowOnly: true, exclude: hostPid ? [hostPid] : [] }),
  });
  const cpuBefore = readCpu();
  // Not waiting for `load`: the probe times from navigation start, and a loaded machine (2 cores
  // shared) can hold the host's first answers past goto's 30 s default.
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
  // Polled from here, not awaited in the page, so a busy page cannot hide how far the list got.
  const deadline = Date.now() + 240_000;
  for (let lastLog = Date.now(); ;) {
    const done = (await page.evaluate('window.__bench && window.__bench.allListedMs !== undefined')) as boolean;
    if (done) break;
    if (Date.now() > deadline) throw new Error('the list still shows destinations as scanning 4 minutes after navigation');
    if (Date.now() - lastLog > 10_000) {
      log(`ui: …${(await page.getByTestId('list-count').textContent()) ?? ''}`);
      lastLog = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const cpuAfter = readCpu();
  const probe = (await page.evaluate('window.__bench')) as LoadProbe;
  const durations = probe.longTasks.map(([, duration]) => duration);
  const chromiumCpuMs = cpuBetween(cpuBefore.chromium, cpuAfter.chromium);
  return {
    load: {
      firstRowMs: probe.firstRowMs,
      allListedMs: probe.allListedMs,
      longestTaskMs: Math.max(0, ...durations),
      longTasks: probe.longTasks.length,
      ...(cpuAfter.host.size > 0 ? { hostCpuMs: cpuBetween(cpuBefore.host, cpuAfter.host) } : {}),
      ...(cpuAfter.chromium.size > 0 ? { chromiumCpuMs } : {}),
    },
    page,
    close: () => context.close(),
  };
}

export async function runUiBench(
  options: { destinations?: number; loads?: number; log?: (line: string) => void } = {},
): Promise<UiBenchFigures> {
  const log = options.log ?? console.log;
  const loads = options.loads ?? 3;
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`the UI bench needs Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  // Always built: `npm run bench` builds the Node bundles only, and a page left in dist/ by older code
  // speaks another wire than the host built now (a page that cannot read the rows lists none).
  const built = spawnSync('node', ['scripts/build.mjs', 'renderer'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the renderer failed');
  if (!existsSync(path.join(rendererDir, 'index.html')) || !existsSync(cliPath))
    throw new Error(`the UI bench needs ${cliPath} and the page in ${rendererDir}: run node scripts/build.mjs`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ui-bench-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  let host: { url: string; child: ChildProcess } | undefined;
  try {
    const count = options.destinations ?? 100_000;
    log(`ui: generating the demo with ${count.toLocaleString('en-US')} destinations…`);
    const made = await createDemoWorkspace(dir, { large: true, largeDestinationCount: count });
    if (!made.ok) throw new Error(made.error);
    host = await startServeProcess(made.value.workspaceFile);
    const scanArgv = [process.execPath, cliPath, 'scan', made.value.workspaceFile, '--json'];
    // Warm both sides once (page cache, the host's first scan), then alternate: page load, CLI scan.
    log('ui: warm-up page load and CLI scan…');
    await (await loadPage(browser, host.url, log)).close();
    await runOnce(scanArgv);
    const measured: PageLoad[] = [];
    const cliScans: Run[] = [];
    let last: Awaited<ReturnType<typeof loadPage>> | undefined;
    for (let i = 0; i < loads; i += 1) {
      await last?.close();
      last = await loadPage(browser, host.url, log, host.child.pid);
      measured.push(last.load);
      const cpu =
        last.load.hostCpuMs === undefined
          ? ''
          : `, CPU host ${Math.round(last.load.hostCpuMs)} ms + Chromium ${Math.round(last.load.chromiumCpuMs ?? 0)} ms`;
      log(
        `ui: load ${i + 1}: first row ${Math.round(last.load.firstRowMs)} ms, all listed ${Math.round(last.load.allListedMs)} ms, longest task ${Math.round(last.load.longestTaskMs)} ms (${last.load.longTasks} long tasks)${cpu}`,
      );
      cliScans.push(await runOnce(scanArgv));
    }
    const page = last!.page;
    const search: number[] = [];
    for (const query of ['site-0', 'site-01', 'site-012', 'site-0123', 'status', '', 'docs', ''])
      search.push(await timeInteraction(page, 'search', query));
    const chips: number[] = [];
    for (const chip of ['invalid', 'unmanaged', 'invalid', 'unmanaged', 'empty', 'empty'])
      chips.push(await timeInteraction(page, 'chip', chip));
    await last!.close();
    return { destinations: made.value.destinationCount, loads: measured, cliScans, searchResponseMs: search, chipResponseMs: chips };
  } finally {
    await browser.close();
    if (host) await stopServeProcess(host);
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export const uiBench: Bench = {
  name: 'ui',
  async run(context) {
    const figures = await runUiBench({
      destinations: context.quick ? 10_000 : 100_000,
      // The median of at least 5 page loads, as every paired row; --quick: one, a check that it runs.
      loads: context.quick ? 1 : Math.max(5, context.runs),
      log: context.log,
    });
    const n = figures.destinations.toLocaleString('en-US');
    const listed = timingOf(
      figures.loads.map((load) => ({
        wallMs: load.allListedMs,
        ...(load.hostCpuMs !== undefined ? { cpuMs: load.hostCpuMs + (load.chromiumCpuMs ?? 0) } : {}),
      })),
    );
    const cpuOf = (pick: (load: PageLoad) => number | undefined) => {
      const samples = figures.loads.flatMap((load) => (pick(load) === undefined ? [] : [pick(load)!]));
      return samples.length === 0
        ? 'not measured'
        : `median ${Math.round(samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!)} ms`;
    };
    return [
      timeRow(
        `UI: ${n} destinations all listed, from navigation`,
        { ours: listed, baseline: timingOf(figures.cliScans) },
        `CLI scan of the same workspace`,
        {
          wall: 1.2,
        },
        [
          `${figures.loads.length} page load(s) alternated with ${figures.cliScans.length} CLI scan(s), after one warm-up each; from navigation start (the page's time origin)`,
          `our CPU is the host's and Chromium's from navigation to all listed: host ${cpuOf((load) => load.hostCpuMs)}, Chromium ${cpuOf((load) => load.chromiumCpuMs)}`,
        ],
      ),
      budgetRow(
        `UI: longest task on the page while ${n} destinations stream in`,
        figures.loads.map((load) => load.longestTaskMs),
        100,
        [`long tasks (> 50 ms) per load: ${figures.loads.map((load) => load.longTasks).join(', ')}`],
      ),
      budgetRow(
        `UI: first scanned row on screen, from navigation (${n} destinations)`,
        figures.loads.map((load) => load.firstRowMs),
        1000,
        [],
      ),
      budgetRow('UI: search keystroke to repainted list', figures.searchResponseMs, 100, []),
      budgetRow('UI: filter chip click to repainted list', figures.chipResponseMs, 100, []),
    ];
  },
};

// Run alone: `npx tsx bench/uiBench.ts [destinations]`.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  runUiBench({ destinations: Number(process.argv[2] ?? 100_000), loads: 1 })
    .then((figures) => console.log(JSON.stringify(figures, null, 2)))
    .catch((cause) => {
      console.error(`ui bench failed: ${(cause as Error).message}`);
      process.exitCode = 1;
    });
}
