import { mkdtempSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBarrier } from './eventBarrier';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function watchedFolder(): { dir: string; seen: string[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'barrier-test-'));
  const seen: string[] = [];
  const watcher: FSWatcher = watch(dir, { persistent: false }, (_event, name) => seen.push(String(name)));
  cleanups.push(() => {
    watcher.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, seen };
}

describe('EventBarrier', () => {
  it('resolves only once every event queued before it has been delivered, in any watched folder', async () => {
    const barrier = new EventBarrier();
    cleanups.push(() => barrier.close());
    const folders = [watchedFolder(), watchedFolder(), watchedFolder()];
    for (let round = 0; round < 20; round += 1) {
      // Written synchronously: every event is queued before the barrier's own, none delivered yet.
      for (const { dir } of folders) writeFileSync(path.join(dir, `file-${round}`), String(round));
      await barrier.pass();
      for (const { seen } of folders) expect(seen).toContain(`file-${round}`);
    }
  });

  it('lets every waiter through when closed', async () => {
    const barrier = new EventBarrier();
    const passing = Promise.all([barrier.pass(), barrier.pass()]);
    barrier.close();
    await expect(passing).resolves.toBeDefined();
  });
});
