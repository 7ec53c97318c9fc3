// The end-to-end fixture: fails fast when the app is not built, gives every test a fresh temp folder
// and a demo workspace in it, opens it in the built browser host (`distributor-inspector serve`, on port
// 0, one per worker: see WorkerHost), opens its page in Debian's Chromium, and offers the page's own API
// client to the test. Never touches a folder it did not make; every host it starts is stopped, a test's
// own after the test, the worker's after its last.

import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiResult, MethodName, RequestOf, ResponseOf } from '../shared/api';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SCREENSHOTS = path.join(ROOT, 'e2e', 'screenshots');
const CLI = path.join(ROOT, 'bin', 'distributor-inspector.js');

/** What must exist, and be newer than the sources it comes from, before any test runs. */
export function buildProblem(): string | null {
  const outputs = ['dist/cli.js', 'dist/renderer/index.html'];
  const missing = outputs.filter((file) => !existsSync(path.join(ROOT, file)));
  if (missing.length > 0)
    return `not built: ${missing.join(', ')} missing. Run \`npm run test:e2e\` (it builds) or \`npm run build\` first.`;
  return null;
}

export interface RunningHost {
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Everything the host printed, for failure messages. */
  output: () => string;
  /** The host's process, for a spec that kills it as a crash would. */
  child: ChildProcess;
}

export interface HostOptions {
  /** Default 0: any free port. */
  port?: number;
  /** More arguments for `serve` (`--token-file FILE`). */
  args?: string[];
  /** More environment for the host (another HOME, for `~`). */
  env?: NodeJS.ProcessEnv;
}

/** Starts the built CLI's `serve` and waits for the address it prints. */
async function spawnHost(workspace: string | undefined, children: ChildProcess[], options: HostOptions = {}): Promise<RunningHost> {
  const args = [CLI, 'serve', ...(workspace ? [workspace] : []), '--port', String(options.port ?? 0), ...(options.args ?? [])];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the browser host printed no address within 10 s:\n${output}`)), 10_000);
    const check = () => {
      const match = /Open: (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the browser host exited with ${code} before printing its address:\n${output}`));
    });
  });
  const parsed = new URL(url);
  return { url, origin: parsed.origin, port: Number(parsed.port), token: parsed.hash.replace('#token=', ''), output: () => output, child };
}

/** Stops a host and waits for it to go (SIGTERM: it closes its session as a user's Ctrl+C would). */
async function stopHost(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Asks a host to open a workspace, as the page's Open… does. */
async function openOn(host: RunningHost, workspace: string): Promise<ApiResult<unknown>> {
  const response = await fetch(`${host.origin}/api/openWorkspace`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-inspector-token': host.token },
    body: JSON.stringify({ path: workspace }),
  });
  return (await response.json()) as ApiResult<unknown>;
}

/**
 * The worker's one browser host behind the `host` fixture. Starting a host (a Node process, its
 * session, its HTTP server) costs 0.5-2 s on a loaded two-core machine, and most tests only need one
 * on a fresh demo: each test still gets its own demo folder, which the host opens as the page's Open…
 * would, and that open starts the workspace afresh (no scans, verifies, plans or jobs of the last one:
 * Session.open). After the test the host opens an empty workspace of its own, so it no longer watches
 * a folder about to be removed; after a failed test, when it cannot (a replace left running) or when
 * it died, the next test gets a new host. Tests that need a host of their own (killed, another port, token or
 * environment, no workspace) still call `startHost`.
 */
interface WorkerHost {
  serving(workspace: string): Promise<RunningHost>;
  /** After a test: the host opens its empty workspace, or is stopped (`stop`, or when it cannot). */
  release(stop: boolean): Promise<void>;
}

type Fixtures = {
  /** A fresh folder under the system temp dir, removed after the test. */
  tempDir: string;
  /** The demo workspace (every status, decision and drift) written into tempDir: its workspace file. */
  demoWorkspace: string;
  /** Starts another browser host on a workspace; stopped after the test. */
  startHost: (workspace?: string, options?: HostOptions) => Promise<RunningHost>;
  /** The worker's host on a workspace the test made (no options: those need `startHost`). */
  serveWorkspace: (workspace: string) => Promise<RunningHost>;
  /** A host on the demo workspace. */
  host: RunningHost;
  /** A page loaded from `host` (the token taken from the URL into sessionStorage, as in real use). */
  appPage: Page;
  /** Saves a full-page screenshot as e2e/screenshots/<name>.png. */
  saveScreenshot: (page: Page, name: string) => Promise<void>;
};

export const test = base.extend<Fixtures, { builtApp: void; workerHost: WorkerHost }>({
  builtApp: [
    async ({}, use) => {
      const problem = buildProblem();
      if (problem) throw new Error(problem);
      await use();
    },
    { scope: 'worker', auto: true },
  ],

  workerHost: [
    async ({}, use) => {
      const children: ChildProcess[] = [];
      const idleDir = await fs.mkdtemp(path.join(os.tmpdir(), 'inspector-e2e-idle-'));
      const idle = path.join(idleDir, 'idle.json');
      await fs.writeFile(idle, '{"destinations": []}\n');
      let running: RunningHost | undefined;
      const alive = (host: RunningHost | undefined): host is RunningHost =>
        host !== undefined && host.child.exitCode === null && host.child.signalCode === null;
      const drop = async () => {
        if (running) await stopHost(running.child);
        running = undefined;
      };
      await use({
        serving: async (workspace) => {
          for (let attempt = 0; attempt < 2; attempt++) {
            if (!alive(running)) running = await spawnHost(undefined, children);
            const opened = await openOn(running, workspace);
            if (opened.ok) return running;
            // Refused by what the last test left (a running replace): a new host, never its leftovers.
            if (attempt === 1)
              throw new Error(`the browser host did not open ${workspace}: ${JSON.stringify(opened)}\n${running.output()}`);
            await drop();
          }
          throw new Error('unreachable');
        },
        release: async (stop) => {
          if (!alive(running)) return;
          if (stop) return drop();
          const opened = await openOn(running, idle).catch(() => ({ ok: false }));
          if (!opened.ok) await drop();
        },
      });
      for (const child of children) await stopHost(child);
      await fs.rm(idleDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],

  tempDir: async ({}, use) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'inspector-e2e-'));
    await use(dir);
    await fs.rm(dir, { recursive: true, force: true });
  },

  demoWorkspace: async ({ tempDir }, use) => {
    const { createDemoWorkspace } = await import('../electron/demo/demo');
    const result = await createDemoWorkspace(path.join(tempDir, 'demo'));
    if (!result.ok) throw new Error(result.error);
    await use(result.value.workspaceFile);
  },

  // Hosts stop before tempDir is removed (a fixture is torn down before those it uses): a host still
  // writing in a folder being removed fails the removal (ENOTEMPTY).
  startHost: async ({ tempDir }, use) => {
    void tempDir;
    const children: ChildProcess[] = [];
    await use((workspace, options) => spawnHost(workspace, children, options));
    for (const child of children) await stopHost(child);
  },

  // As `host` does, on another workspace: opening it reads it afresh, as a new host started on it would.
  serveWorkspace: async ({ workerHost, tempDir }, use, testInfo) => {
    void tempDir;
    let served = false;
    await use((workspace) => {
      served = true;
      return workerHost.serving(workspace);
    });
    if (served) await workerHost.release(testInfo.status !== testInfo.expectedStatus);
  },

  host: async ({ workerHost, demoWorkspace }, use, testInfo) => {
    const host = await workerHost.serving(demoWorkspace);
    await use(host);
    const failed = testInfo.status !== testInfo.expectedStatus;
    // What the host printed (a crash's stack, its exit) goes with the failure: the page only says it lost the host.
    if (failed) {
      const exit = host.child.exitCode ?? host.child.signalCode;
      const ending = exit === null ? 'still running' : `exited: ${exit}`;
      await testInfo.attach('browser host output', { body: `${host.output()}\n[the host: ${ending}]\n`, contentType: 'text/plain' });
    }
    // After a failure nothing of that host is trusted: the next test starts a new one.
    await workerHost.release(failed);
  },

  appPage: async ({ page, host }, use) => {
    await page.goto(host.url);
    await use(page);
  },

  saveScreenshot: async ({}, use) => {
    await fs.mkdir(SCREENSHOTS, { recursive: true });
    await use(async (page, name) => {
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
    });
  },
});

export { expect };

// ---------------------------------------------------------------------------------------------
// The page's own client (renderer/api), bundled once and installed before the page's scripts run.

let clientBundle: Promise<string> | undefined;

/** renderer/api/client.ts and jobs.ts as one script that puts them on `globalThis.__inspectorTest`. */
export function pageClientScript(): Promise<string> {
  clientBundle ??= import('esbuild').then(async ({ build }) => {
    const result = await build({
      stdin: {
        contents:
          "import { createClient } from './renderer/api/client'; import { runJob } from './renderer/api/jobs'; globalThis.__inspectorTest = { createClient, runJob };",
        resolveDir: ROOT,
        loader: 'ts',
      },
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      write: false,
      logLevel: 'silent',
    });
    return result.outputFiles[0]!.text;
  });
  return clientBundle;
}

/** Loads `url` with the test client installed: `invoke` and `runJob` then run inside the page. */
export async function openWithClient(page: Page, url: string): Promise<PageClient> {
  await page.addInitScript({ content: await pageClientScript() });
  await page.goto(url);
  return new PageClient(page);
}

export interface PageJobRun<T> {
  job: string | undefined;
  outcome: ApiResult<T>;
  progress: { done: number; total: number; bytes: number }[];
  itemCount: number;
}

export interface PageJobOptions {
  /** Cancels the job (cancelJob, from the page) once a progress event reports bytes hashed. */
  cancelOnceBytes?: boolean;
}

type PageGlobals = {
  __inspectorTest: {
    createClient(): PageSideClient;
    runJob(
      c: PageSideClient,
      m: string,
      r: unknown,
      h: { onStart(job: string): void; onProgress(p: { done: number; total: number; bytes: number }): void; onItem(): void },
    ): Promise<unknown>;
  };
  __client?: PageSideClient;
};
type PageSideClient = { invoke(m: string, r: unknown): Promise<unknown> };

/** Calls made by the real client code in the real page, over the real transport. */
export class PageClient {
  constructor(readonly page: Page) {}

  invoke<M extends MethodName>(method: M, request: RequestOf<M>): Promise<ApiResult<ResponseOf<M>>> {
    return this.page.evaluate(
      ([m, r]) => {
        const g = globalThis as unknown as PageGlobals;
        g.__client ??= g.__inspectorTest.createClient();
        return g.__client.invoke(m, r);
      },
      [method, request] as const,
    ) as Promise<ApiResult<ResponseOf<M>>>;
  }

  /** Runs a job with the page's runJob, collecting its progress; optionally cancels it mid-way. */
  runJob<T = unknown>(method: 'scan' | 'verify' | 'applyPlan', request: unknown, options: PageJobOptions = {}): Promise<PageJobRun<T>> {
    return this.page.evaluate(
      async ([m, r, o]) => {
        const g = globalThis as unknown as PageGlobals;
        g.__client ??= g.__inspectorTest.createClient();
        const client = g.__client;
        const progress: { done: number; total: number; bytes: number }[] = [];
        let job: string | undefined;
        let itemCount = 0;
        let cancelled = false;
        const outcome = await g.__inspectorTest.runJob(client, m, r, {
          onStart: (id) => (job = id),
          onItem: () => void itemCount++,
          onProgress: (p) => {
            progress.push({ done: p.done, total: p.total, bytes: p.bytes });
            if (o.cancelOnceBytes && !cancelled && p.bytes > 0 && job) {
              cancelled = true;
              void client.invoke('cancelJob', { job });
            }
          },
        });
        return { job, outcome, progress, itemCount };
      },
      [method, request, options] as const,
    ) as Promise<PageJobRun<T>>;
  }
}
