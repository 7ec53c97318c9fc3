// Whether a process a test started (a host's ssh, what its wrapper shell ran) has ended. Not a child
// of the test, so there is no exit event to wait on: its pid is looked at until it is gone.

import { readFileSync } from 'node:fs';

/** Ended: no such pid, or a zombie its parent has not reaped yet (it runs nothing more). */
export function processEnded(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Resolves once `pid` has ended; rejects naming it after `timeoutMs`. */
export async function processEnd(pid: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!processEnded(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
