// Profiles the UI bench's page in Chromium, for finding what the bench's figures are made of:
// `npx tsx bench/uiProfile.ts [destinations] [out-dir]` opens the large demo (generated once into
// out-dir and kept for the next run) through `serve`, loads the page twice (a warm-up, then the one
// measured) and prints each load's first row, all listed and long tasks (start, duration); the
// measured load's CPU profile (CDP Profiler) is written as page-N.cpuprofile (open it in the
// performance panel). TRACE=1 also writes a Chrome trace (bench/uiTraceTasks.ts says what its long
// tasks are made of and what CPU they took); SERVE_PROF=1 runs the host under
// --cpu-prof (its profile lands in out-dir when it exits); NOPROF=1 profiles nothing. A tool, not
// a benchmark: the bench's verdicts come from uiBench.ts. Never touches anything outside out-dir.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createDemoWorkspace } from '../electron/demo/demo';
import { CHROMIUM_ARGS, CHROMIUM_PATH, LOAD_PROBE, startServeProcess, stopServeProcess, type LoadProbe } from './uiBench';

const cliPath = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** `serve` as uiBench starts it, or under --cpu-prof writing into `profileDir`. */
async function startHost(workspaceFile: string, profileDir: string | undefined): Promise<{ url: string; child: ChildProcess }> {
  if (!profileDir) return startServeProcess(workspaceFile);
  const argv = ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, cliPath, 'serve', workspaceFile, '--port', '0'];
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/#token=\S+/.exec(output);
      if (match) resolve(match[0]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  return { url, child };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 10_000);
  const outDir = process.argv[3] ?? path.join(os.tmpdir(), 'ui-profile');
  const dataDir = path.join(outDir, `workspace-${count}`);
  const madeMarker = path.join(dataDir, 'workspace-file.txt');
  if (!existsSync(madeMarker)) {
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.mkdir(dataDir, { recursive: true });
    const made = await createDemoWorkspace(dataDir, { large: true, largeDestinationCount: count });
    if (!made.ok) throw new Error(made.error);
    await fs.writeFile(madeMarker, made.value.workspaceFile);
  }
  const workspaceFile = (await fs.readFile(madeMarker, 'utf8')).trim();
  const host = await startHost(workspaceFile, process.env.SERVE_PROF ? outDir : undefined);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const profileFile = path.join(outDir, `page-${count}.cpuprofile`);
  try {
    for (const load of [0, 1]) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      await context.addInitScript(LOAD_PROBE);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const profiling = load === 1 && !process.env.NOPROF;
      if (profiling && process.env.TRACE)
        await browser.startTracing(page, {
          path: profileFile.replace(/\.cpuprofile$/, '.trace.json'),
          categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute'],
        });
      if (profiling) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      await page.goto(host.url, { waitUntil: 'commit', timeout: 120_000 });
      while (!(await page.evaluate('window.__bench && window.__bench.allListedMs !== undefined')))
        await new Promise((resolve) => setTimeout(resolve, 100));
      const probe = (await page.evaluate('window.__bench')) as LoadProbe;
      const durations = probe.longTasks.map(([, duration]) => duration);
      console.log(
        JSON.stringify({
          load,
          firstRowMs: Math.round(probe.firstRowMs),
          allListedMs: Math.round(probe.allListedMs),
          longestTaskMs: Math.max(0, ...durations),
          longTasks: durations.length,
          tasks: probe.longTasks,
        }),
      );
      if (profiling) {
        const { profile } = await cdp.send('Profiler.stop');
        await fs.writeFile(profileFile, JSON.stringify(profile));
        if (process.env.TRACE) await browser.stopTracing();
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await stopServeProcess(host);
  }
}

main().catch((cause: unknown) => {
  console.error(`ui profile failed: ${(cause as Error).message}`);
  process.exitCode = 1;
});
