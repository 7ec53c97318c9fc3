// Runs apply in a child process that SIGKILLs itself before mutation k. The child is bundled once
// with esbuild and run with plain node, so each run costs tens of milliseconds, not a tsx start-up.
// For tests only.

import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { ApplyResult, ReplacePlan } from '../../../shared/plan';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Bundles crashChild.ts into `outDir` and returns the script's path. */
export async function buildCrashChild(outDir: string): Promise<string> {
  const outfile = path.join(outDir, 'crashChild.mjs');
  await build({
    entryPoints: [path.join(here, 'crashChild.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}

export type ChildRun = { killed: true } | { killed: false; result: ApplyResult };

export async function applyInChild(childScript: string, plan: ReplacePlan, killStep: number, workDir: string): Promise<ChildRun> {
  const planFile = path.join(workDir, 'plan.json');
  await fs.writeFile(planFile, JSON.stringify(plan));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [childScript, planFile, String(killStep)], { maxBuffer: 16 * 1024 * 1024 }, (failure, stdout, stderr) => {
      if (failure && (failure as { signal?: string }).signal === 'SIGKILL') resolve({ killed: true });
      else if (failure) reject(new Error(`crash child failed: ${failure.message}\n${stderr}`));
      else resolve({ killed: false, result: JSON.parse(stdout) as ApplyResult });
    });
  });
}
