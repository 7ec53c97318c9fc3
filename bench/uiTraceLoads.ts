// What the UI bench's long tasks are, load by load, in the bench's own order: one warm-up page load
// and CLI scan, then N page loads alternated with CLI scans, each load traced (TRACE=0: not traced),
// PROF=1 also with the page's CPU profile. Prints each load's probe (first row, all listed, every
// long task as [start from navigation, ms]), the page's main thread's CPU and run-queue wait
// (/proc schedstat: a task stretched by the machine's other work waits there), each traced task over
// MIN ms of wall (default 50) with what it spent itself in (uiTraceTasks.ts), and the tasks over
// 25 ms of the thread's own CPU: what a loaded machine cannot stretch.
// `npx tsx bench/uiTraceLoads.ts [destinations] [out-dir] [loads]`; the workspace is generated once
// into out-dir and kept for the next run, so two builds can be compared on the same data.
// A tool, not a benchmark: the bench's verdicts come from uiBench.ts. Writes only into out-dir.

import { existsSync, promises as fs, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createDemoWorkspace } from '../electron/demo/demo';
import { runOnce } from './measure';
import { CHROMIUM_ARGS, CHROMIUM_PATH, LOAD_PROBE, startServeProcess, stopServeProcess, type LoadProbe } from './uiBench';
import { longTasksOf, type CpuProfile } from './uiTraceTasks';

const cliPath = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** Of each Chromium renderer process: its main thread's [CPU ns, run-queue wait ns, time slices]. */
function rendererSchedstat(): Map<number, number[]> {
  const found = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      found.set(Number(entry), readFileSync(`/proc/${entry}/schedstat`, 'utf8').trim().split(' ').map(Number));
    } catch {
      // A process that ended meanwhile.
    }
  }
  return found;
}

async function workspaceIn(dataDir: string, count: number): Promise<string> {
  const madeMarker = path.join(dataDir, 'workspace-file.txt');
  if (!existsSync(madeMarker)) {
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.mkdir(dataDir, { recursive: true });
    const made = await createDemoWorkspace(dataDir, { large: true, largeDestinationCount: count });
    if (!made.ok) throw new Error(made.error);
    await fs.writeFile(madeMarker, made.value.workspaceFile);
  }
  return (await fs.readFile(madeMarker, 'utf8')).trim();
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 100_000);
  const outDir = process.argv[3] ?? path.join(os.tmpdir(), 'ui-trace-loads');
  const loads = Number(process.argv[4] ?? 5);
  const traced = process.env.TRACE !== '0';
  const minMs = Number(process.env.MIN ?? 50);
  await fs.mkdir(outDir, { recursive: true });
  const workspaceFile = await workspaceIn(path.join(outDir, `workspace-${count}`), count);
  const host = await startServeProcess(workspaceFile);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const scanArgv = [process.execPath, cliPath, 'scan', workspaceFile, '--json'];
  try {
    for (let load = 0; load <= loads; load += 1) {
      const measured = load > 0;
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      await context.addInitScript(LOAD_PROBE);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const traceFile = path.join(outDir, `load-${load}.trace.json`);
      if (traced && measured)
        await browser.startTracing(page, {
          path: traceFile,
          categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8'],
        });
      const profiling = measured && process.env.PROF === '1';
      if (profiling) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      const schedBefore = rendererSchedstat();
      await page.goto(host.url, { waitUntil: 'commit', timeout: 120_000 });
      while (!(await page.evaluate('window.__bench && window.__bench.allListedMs !== undefined')))
        await new Promise((resolve) => setTimeout(resolve, 100));
      const probe = (await page.evaluate('window.__bench')) as LoadProbe;
      const longest = Math.max(0, ...probe.longTasks.map(([, duration]) => duration));
      console.log(
        `load ${load}: first row ${Math.round(probe.firstRowMs)} ms, all listed ${Math.round(probe.allListedMs)} ms, longest task ${longest} ms; long tasks ${JSON.stringify(probe.longTasks)}`,
      );
      for (const [pid, after] of rendererSchedstat()) {
        const before = schedBefore.get(pid) ?? [0, 0, 0];
        const cpuMs = (after[0]! - before[0]!) / 1e6;
        if (cpuMs > 500)
          console.log(
            `  the page's main thread: CPU ${Math.round(cpuMs)} ms, waiting to run ${Math.round((after[1]! - before[1]!) / 1e6)} ms`,
          );
      }
      const profile = profiling ? (await cdp.send('Profiler.stop')).profile : undefined;
      if (profile) await fs.writeFile(path.join(outDir, `load-${load}.cpuprofile`), JSON.stringify(profile));
      if (traced && measured) {
        await browser.stopTracing();
        const trace = JSON.parse(await fs.readFile(traceFile, 'utf8')) as Parameters<typeof longTasksOf>[0];
        const print = (line: string) => console.log(`  ${line}`);
        longTasksOf(trace, { minMs, ...(profile ? { profile: profile as CpuProfile } : {}), print });
        const byCpu = longTasksOf(trace, { minMs: 25, byCpu: true, print: (line) => print(`over 25 ms CPU: ${line}`) });
        console.log(
          `  load ${load}: ${byCpu.longTasks} task(s) over 25 ms of CPU (${byCpu.longCpuMs} ms); the page's main thread ${byCpu.allCpuMs} ms CPU`,
        );
      }
      await context.close();
      await runOnce(scanArgv);
    }
  } finally {
    await browser.close();
    await stopServeProcess(host);
  }
}

main().catch((cause: unknown) => {
  console.error(`ui trace failed: ${(cause as Error).message}`);
  process.exitCode = 1;
});
