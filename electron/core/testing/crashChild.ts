// Child process of the crash test: applies the plan in argv[2] and kills itself (SIGKILL) right
// before mutation argv[3]. If apply finishes first, prints the result as JSON and exits normally.
// Bundled by crashHarness.ts and run with plain node; for tests only.

import { readFileSync } from 'node:fs';
import { applyPlan } from '../applyPlan';
import { nodeFsOps } from '../fsOps';
import { killingFsOps } from './countingFsOps';

const [planFile, killStepText] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile as string, 'utf8'));
const result = await applyPlan(plan, { fs: killingFsOps(nodeFsOps, Number(killStepText)) });
process.stdout.write(JSON.stringify(result));
