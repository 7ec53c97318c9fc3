// Runs in every Vitest worker before each test file. Workers run files side by side, and the CLI's
// user-level files (its history journal and backups under $XDG_STATE_HOME, anything under ~) would be
// shared between them: one worker's `history` would read another's applies. Each worker gets its
// own state and home under the run's temp dir (vitestGlobalSetup.ts), named by its pool id.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const base = process.env.INSPECTOR_TEST_STATE_ROOT;
const pool = process.env.VITEST_POOL_ID ?? '0';
if (base !== undefined) {
  process.env.XDG_STATE_HOME = path.join(base, `worker-${pool}`, 'state');
  process.env.HOME = path.join(base, `worker-${pool}`, 'home');
  mkdirSync(process.env.HOME, { recursive: true });
}
