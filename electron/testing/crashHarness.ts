// Runs apply in a child process that SIGKILLs itself before mutation k. The child is bundled once
// with esbuild and run with plain node (no tsx start-up), and started ahead of its plan, so its
// start-up overlaps the test's checks of the previous run.
// For tests only.

import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from './nodeBundle';
import type { RestorePlan, RestoreResult } from '../../shared/backupSchema';
import type { ApplyResult, ReplacePlan } from '../../shared/plan';
import { fullMatrices, samplePoints, withReplayHint } from './testSampling';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Bundles crashChild.ts into `outDir` and returns the script's path; the hash worker beside it, where
 * the bundled HashPool starts it (an apply hashes old outputs a plan applied at once left to it).
 */
export async function buildCrashChild(outDir: string): Promise<string> {
  await fs.writeFile(path.join(outDir, 'package.json'), '{"type": "module"}\n');
  await bundleForNode(path.join(here, '../engine/hashWorker.ts'), path.join(outDir, 'hashWorker.js'));
  return bundleForNode(path.join(here, 'crashChild.ts'), path.join(outDir, 'crashChild.mjs'));
}

export type ChildRun<R = ApplyResult> = { killed: true } | { killed: false; result: R };

export interface CrashChild {
  /** Applies the plan in the child, which kills itself before mutation `killStep`. Once per child. */
  run(plan: ReplacePlan, killStep: number, options?: { backupsFolder?: string }): Promise<ChildRun>;
  /** Applies a restore plan in the child, killed before mutation `killStep`. Once per child. */
  runRestore(plan: RestorePlan, killStep: number): Promise<ChildRun<RestoreResult>>;
  /** Kills the child if it never got a plan. */
  dispose(): void;
}

/** Starts a child now (it loads its modules, then waits for a plan on stdin). */
export function startCrashChild(childScript: string, workDir: string): CrashChild {
  const child = spawn(process.execPath, [childScript], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  async function runLine<R>(plan: unknown, line: Record<string, unknown>): Promise<ChildRun<R>> {
    const planFile = path.join(workDir, `plan-${child.pid}.json`);
    await fs.writeFile(planFile, JSON.stringify(plan));
    child.stdin.end(`${JSON.stringify({ planFile, ...line })}\n`);
    const { code, signal } = await exited;
    await fs.rm(planFile, { force: true });
    if (signal === 'SIGKILL') return { killed: true };
    if (code !== 0) throw new Error(`crash child exited with ${code ?? signal}: ${stderr}`);
    return { killed: false, result: JSON.parse(stdout) as R };
  }
  return {
    run: (plan, killStep, options = {}) => runLine<ApplyResult>(plan, { killStep, ...options }),
    runRestore: (plan, killStep) => runLine<RestoreResult>(plan, { killStep, restore: true }),
    dispose() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** A kill point no apply reaches: the run goes to its end. */
const NEVER = Number.MAX_SAFE_INTEGER;

type CrashStep = (child: CrashChild, killStep: number) => Promise<'killed' | 'completed'>;

/**
 * Kills a run before mutation 1, 2, … until one goes to the end, one fresh child per kill point
 * (the next one starts loading while the current one runs). `step` applies through the child it
 * is given, checks what the kill left, and says whether the run completed. Returns the first kill
 * point at which a run completes (its mutations + 1); fails if none did within `maxSteps`.
 *
 * Under TEST_FULL=1 it tries every point in turn, and the run that completes must have made exactly
 * one mutation fewer than its kill point. Under `npm test` it first lets one run complete, to learn
 * its n mutations, then kills a seeded sample of the points 1…n (testSampling.ts), each of which
 * must be killed.
 */
export async function killBeforeEveryMutation(childScript: string, workDir: string, step: CrashStep, maxSteps = 200): Promise<number> {
  const children = childPool(childScript, workDir);
  try {
    if (fullMatrices()) {
      for (let killStep = 1; killStep < maxSteps; killStep++) {
        const mutations = await children.runStep(step, killStep);
        if (mutations === undefined) continue;
        if (mutations !== killStep - 1) throw new Error(`a run completed with ${mutations} mutations, killed before mutation ${killStep}`);
        return killStep;
      }
      throw new Error(`no run completed within ${maxSteps - 1} kill points`);
    }
    const mutations = await children.runStep(step, NEVER);
    if (mutations === undefined) throw new Error('a run that no kill point stops was killed');
    if (mutations + 1 >= maxSteps) throw new Error(`no run completed within ${maxSteps - 1} kill points`);
    for (const killStep of samplePoints(mutations, 'killBeforeEveryMutation')) {
      const completedWith = await children.runStep(step, killStep).catch(withReplayHint);
      if (completedWith !== undefined) {
        withReplayHint(new Error(`killed before mutation ${killStep} of ${mutations}, the run completed with ${completedWith} mutations`));
      }
    }
    return mutations + 1;
  } finally {
    children.dispose();
  }
}

/**
 * One child started ahead of each step. `runStep` hands the next child to `step` and answers the
 * mutations of its run when it completed, undefined when it was killed.
 */
function childPool(childScript: string, workDir: string) {
  let next = startCrashChild(childScript, workDir);
  return {
    async runStep(step: CrashStep, killStep: number): Promise<number | undefined> {
      const current = next;
      next = startCrashChild(childScript, workDir);
      try {
        const observed = observeMutations(current);
        if ((await step(observed.child, killStep)) === 'killed') return undefined;
        const mutations = observed.mutations();
        if (mutations === undefined) throw new Error(`kill point ${killStep}: the step said completed, but no run completed`);
        return mutations;
      } finally {
        current.dispose();
      }
    },
    dispose: () => next.dispose(),
  };
}

/** Wraps a child to note how many mutations its run made when it was not killed. */
function observeMutations(child: CrashChild): { child: CrashChild; mutations: () => number | undefined } {
  let mutations: number | undefined;
  const note = <R extends { mutations: number }>(run: ChildRun<R>): ChildRun<R> => {
    if (!run.killed) mutations = run.result.mutations;
    return run;
  };
  return {
    child: {
      run: async (plan, killStep, options) => note(await child.run(plan, killStep, options)),
      runRestore: async (plan, killStep) => note(await child.runRestore(plan, killStep)),
      dispose: () => child.dispose(),
    },
    mutations: () => mutations,
  };
}
