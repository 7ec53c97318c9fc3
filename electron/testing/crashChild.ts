// Child process of the crash test: waits for one line on stdin, `{"planFile", "killStep"}`, applies
// that plan and kills itself (SIGKILL) right before mutation killStep. If apply finishes first, it
// prints the result as JSON and exits normally. Modules load before the line arrives, so the test
// can start the next child while it checks the last one. Bundled by crashHarness.ts; tests only.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { applyPlan } from '../replace/applyPlan';
import { nodeFsOps } from '../replace/fsOps';
import { killingFsOps } from './countingFsOps';

const lines = createInterface({ input: process.stdin });
const line = await new Promise<string>((resolve) => lines.once('line', resolve));
lines.close();
const { planFile, killStep } = JSON.parse(line) as { planFile: string; killStep: number };
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const result = await applyPlan(plan, { fs: killingFsOps(nodeFsOps, killStep) });
process.stdout.write(JSON.stringify(result));
