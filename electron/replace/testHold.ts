// A hold point for one end-to-end test (e2e/ui-apply-cancel.spec.ts), inert unless the host was
// started with INSPECTOR_TEST_HOLD_STAGED_COPY naming a FIFO: the first streamed copy of the process
// then waits after its first chunk until the test opens that FIFO for writing, so that a cancel the
// test sends meanwhile reaches a copy that is still running, without racing a copy of gigabytes.
// Never set by the app; it only ever delays, never changes what is written.

import { promises as fs } from 'node:fs';

let used = false;

/** Waits, once per process, for the test to open the FIFO INSPECTOR_TEST_HOLD_STAGED_COPY names. */
export async function holdStagedCopyForTest(): Promise<void> {
  const fifo = process.env.INSPECTOR_TEST_HOLD_STAGED_COPY;
  if (!fifo || used) return;
  used = true;
  // Opening a FIFO for reading blocks (in libuv's pool) until a writer opens it; it ends when the writer closes.
  await fs.readFile(fifo);
}
