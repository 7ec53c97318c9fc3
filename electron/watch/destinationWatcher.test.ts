import { watch as fsWatch, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DestinationWatcher, POLL_REASONS, type WatchChange } from './destinationWatcher';

let dir: string;
let watcher: DestinationWatcher | undefined;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'di-watch-'));
});

afterEach(async () => {
  watcher?.close();
  watcher = undefined;
  await fs.rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A watcher over fresh destination folders `a`, `b`…, recording every change it reports. */
async function watching(ids: string[], options: Partial<ConstructorParameters<typeof DestinationWatcher>[0]> = {}) {
  const changes: WatchChange[] = [];
  for (const id of ids) await fs.mkdir(path.join(dir, id), { recursive: true });
  watcher = new DestinationWatcher({ debounceMs: 80, maxWaitMs: 400, pollIntervalMs: 100, ...options, onChange: (c) => changes.push(c) });
  await watcher.setDestinations(ids.map((id) => ({ id, root: path.join(dir, id) })));
  return changes;
}

/** Waits until `predicate` holds (the watcher reports asynchronously), failing after `timeoutMs`. */
async function until(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out waiting for the watcher');
    await sleep(20);
  }
}

const idsOf = (changes: WatchChange[]) => changes.map((change) => (change.kind === 'destination' ? change.id : 'workspace'));

describe('DestinationWatcher (fs.watch)', () => {
  it('reports a write to a destination’s state file as a change of that destination only', async () => {
    const changes = await watching(['a', 'b']);
    expect(watcher!.status()).toMatchObject({ active: true, watching: 2, polling: 0 });
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{}');
    await until(() => changes.length > 0);
    await sleep(200);
    expect(idsOf(changes)).toEqual(['a']);
    expect(Date.parse((changes[0] as { at: string }).at)).toBeGreaterThan(Date.now() - 5000);
  });

  it('reports a staging folder appearing in a destination', async () => {
    const changes = await watching(['a']);
    await fs.mkdir(path.join(dir, 'a', '.distributor-staging-0a1b2c3d'));
    await until(() => changes.length > 0);
    expect(idsOf(changes)).toEqual(['a']);
  });

  it('reports a burst of writes as one change', async () => {
    const changes = await watching(['a'], { debounceMs: 150, maxWaitMs: 2000 });
    for (let i = 0; i < 20; i += 1) await fs.writeFile(path.join(dir, 'a', `file-${i % 4}.txt`), String(i));
    await until(() => changes.length > 0);
    await sleep(400);
    expect(idsOf(changes)).toEqual(['a']);
  });

  it('still reports a burst that never goes quiet, within its longest wait', async () => {
    const changes = await watching(['a'], { debounceMs: 200, maxWaitMs: 300 });
    const started = Date.now();
    const writer = setInterval(() => void fs.writeFile(path.join(dir, 'a', 'busy.txt'), String(Date.now())), 50);
    try {
      await until(() => changes.length > 0, 2000);
    } finally {
      clearInterval(writer);
    }
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('reports a removed destination folder, polls it while it is missing and watches it again when it is back', async () => {
    const changes = await watching(['a']);
    await fs.rm(path.join(dir, 'a'), { recursive: true });
    await until(() => changes.length > 0);
    expect(idsOf(changes)).toEqual(['a']);
    expect(watcher!.modeOf('a')).toEqual({ mode: 'polling', reason: POLL_REASONS.missing });
    expect(watcher!.status().pollingReasons).toEqual([{ reason: POLL_REASONS.missing, count: 1 }]);

    await fs.mkdir(path.join(dir, 'a'));
    await until(() => changes.length > 1);
    await until(() => watcher!.modeOf('a')?.mode === 'watching');
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{}');
    await until(() => changes.length > 2);
    expect(idsOf(changes)).toEqual(['a', 'a', 'a']);
  });

  it('polls a destination whose folder does not exist yet, and says so', async () => {
    const changes = await watching([]);
    await watcher!.setDestinations([{ id: 'later', root: path.join(dir, 'later') }]);
    expect(watcher!.modeOf('later')).toEqual({ mode: 'polling', reason: POLL_REASONS.missing });
    await fs.mkdir(path.join(dir, 'later'));
    await until(() => changes.length > 0);
    expect(idsOf(changes)).toEqual(['later']);
  });

  it('lets go of destinations no longer listed and reports nothing about them', async () => {
    const changes = await watching(['a', 'b']);
    await watcher!.setDestinations([{ id: 'b', root: path.join(dir, 'b') }]);
    expect(watcher!.status()).toMatchObject({ watching: 1, polling: 0 });
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{}');
    await fs.writeFile(path.join(dir, 'b', '.distributor.json'), '{}');
    await until(() => changes.length > 0);
    await sleep(200);
    expect(idsOf(changes)).toEqual(['b']);
  });

  it('says nothing about a destination while the engine itself writes it, and reports changes again after', async () => {
    const changes = await watching(['a']);
    const release = watcher!.suppress('a');
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{}');
    await sleep(300);
    release();
    expect(changes).toEqual([]);
    await fs.writeFile(path.join(dir, 'a', 'index.html'), 'x');
    await until(() => changes.length > 0);
    expect(idsOf(changes)).toEqual(['a']);
  });

  it('reports the workspace file changing, also when an editor saves it by renaming a new file over it', async () => {
    const file = path.join(dir, 'distributor-inspector.json');
    await fs.writeFile(file, '{}');
    const changes = await watching(['a']);
    await watcher!.setWorkspace({ path: file, kind: 'file' });
    expect(watcher!.status().workspace).toEqual({ path: file, mode: 'watching' });
    await fs.writeFile(path.join(dir, 'unrelated.txt'), 'x');
    await sleep(250);
    expect(changes).toEqual([]);
    await fs.writeFile(`${file}.tmp`, '{"destinations": []}');
    await fs.rename(`${file}.tmp`, file);
    await until(() => changes.length > 0);
    await fs.writeFile(file, '{"destinations": [] }');
    await until(() => changes.length > 1);
    expect(idsOf(changes)).toEqual(['workspace', 'workspace']);
  });

  it('stops every watch on close: nothing is reported afterwards', async () => {
    const changes = await watching(['a']);
    watcher!.close();
    expect(watcher!.status().active).toBe(false);
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{}');
    await sleep(300);
    expect(changes).toEqual([]);
  });
});

describe('DestinationWatcher (polling)', () => {
  it('polls when asked to, says why, and sees the state file written and the staging folder appear', async () => {
    const changes = await watching(['a', 'b'], { forcePolling: 'polling was asked for' });
    expect(watcher!.status()).toMatchObject({ watching: 0, polling: 2, pollingReasons: [{ reason: 'polling was asked for', count: 2 }] });
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{}');
    await until(() => changes.length > 0);
    await sleep(250);
    expect(idsOf(changes)).toEqual(['a']);
    await fs.mkdir(path.join(dir, 'b', '.distributor-staging'));
    await until(() => changes.length > 1);
    expect(idsOf(changes)).toEqual(['a', 'b']);
  });

  it('sees a state file edited in place (same size) by its modification time', async () => {
    await fs.mkdir(path.join(dir, 'a'));
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{"v":1}');
    const changes = await watching(['a'], { forcePolling: 'polling was asked for' });
    await sleep(150);
    const handle = await fs.open(path.join(dir, 'a', '.distributor.json'), 'r+');
    await handle.write('{"v":2}', 0);
    await handle.close();
    await until(() => changes.length > 0);
    expect(idsOf(changes)).toEqual(['a']);
  });

  it('falls back to polling when the system has no inotify watches left (ENOSPC), and says so', async () => {
    let calls = 0;
    const exhausted = ((...args: Parameters<typeof fsWatch>) => {
      calls += 1;
      if (calls > 1) throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
      return fsWatch(...args);
    }) as typeof fsWatch;
    const changes = await watching(['a', 'b', 'c'], { watch: exhausted });
    const status = watcher!.status();
    expect(status).toMatchObject({ watching: 1, polling: 2, pollingReasons: [{ reason: POLL_REASONS.limit, count: 2 }] });
    // Once the limit is seen, the others are not tried one by one.
    expect(calls).toBe(2);
    const polled = ['a', 'b', 'c'].find((id) => watcher!.modeOf(id)?.mode === 'polling')!;
    await fs.writeFile(path.join(dir, polled, '.distributor.json'), '{}');
    await until(() => changes.length > 0);
    expect(idsOf(changes)).toEqual([polled]);
  });

  it('reports each change of mode through onStatus, once per batch', async () => {
    const statuses: { watching: number; polling: number }[] = [];
    await watching(['a', 'b'], { onStatus: (status) => statuses.push({ watching: status.watching, polling: status.polling }) });
    expect(statuses).toEqual([{ watching: 2, polling: 0 }]);
    await fs.rm(path.join(dir, 'b'), { recursive: true });
    await until(() => statuses.length > 1);
    expect(statuses.at(-1)).toEqual({ watching: 1, polling: 1 });
  });
});
