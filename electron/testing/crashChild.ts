// Child process of the crash test: waits for one line on stdin, `{"planFile", "killStep"}` (and
// `backupsFolder` to keep a backup, or `restore` for a restore plan), applies that plan and kills itself (SIGKILL) right before mutation killStep. If apply finishes first, it
// prints the result as JSON and exits normally. Modules load before the line arrives, so the test
// can start the next child while it checks the last one. Bundled by crashHarness.ts; tests only.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { applyRestore } from '../backup/applyRestore';
import { backupWriter } from '../backup/backupWriter';
import { applyPlan } from '../replace/applyPlan';
import { nodeFsOps } from '../replace/fsOps';
import { killingFsOps } from './countingFsOps';

const lines = createInterface({ input: process.stdin });
const line = await new Promise<string>((resolve) => lines.once('line', resolve));
lines.close();
const { planFile, killStep, backupsFolder, restore } = JSON.parse(line) as {
  planFile: string;
  killStep: number;
  /** Apply with a backup into this destination's folder of backups. */
  backupsFolder?: string;
  /** The plan is a restore plan. */
  restore?: boolean;
};
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const fs = killingFsOps(nodeFsOps, killStep);
const result = restore
  ? await applyRestore(plan, { fs })
  : await applyPlan(plan, {
      fs,
      ...(backupsFolder !== undefined ? { backup: backupWriter({ destinationFolder: backupsFolder, action: plan.mode }) } : {}),
    });
process.stdout.write(JSON.stringify(result));
