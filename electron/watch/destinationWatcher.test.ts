import { watch as fsWatch, promises as fs, writeFileSync } from 'node:fs';
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

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

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
    await tick();
  }
}

const idsOf = (changes: WatchChange[]) => changes.map((change) => (change.kind === 'destination' ? change.id : 'workspace'));

describe('DestinationWatcher (fs.watch)', () => {
  it('reports a write to a destination’s state file as a change of that destination only', async () => {
    const changes = await watching(['a', 'b']);
    expect(watcher!.status()).toMatchObject({ active: true, watching: 2, polling: 0 });
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{}');
    await until(() => changes.length > 0);
    await watcher!.settled();
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
    // Written synchronously: no event is handled before the last write, however loaded the machine.
    const before = Date.now();
    for (let i = 0; i < 20; i += 1) writeFileSync(path.join(dir, 'a', `file-${i % 4}.txt`), String(i));
    const written = Date.now();
    await until(() => changes.length > 0);
    await watcher!.settled();
    expect(idsOf(changes)).toEqual(['a']);
    // Its last event is seen after the last write: a read begun after it saw the whole burst.
    const [change] = changes as Extract<WatchChange, { kind: 'destination' }>[];
    expect(Date.parse(change!.at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(change!.lastEventAt)).toBeGreaterThanOrEqual(Math.max(written, Date.parse(change!.at)));
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
    await watcher!.settled();
    expect(idsOf(changes)).toEqual(['b']);
  });

  it('says nothing about a destination while the engine itself writes it, and reports changes again after', async () => {
    const changes = await watching(['a', 'z']);
    const release = watcher!.suppress('a');
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{}');
    // Events come in order on one inotify queue: once z's write is reported, a's was seen (and muted).
    await fs.writeFile(path.join(dir, 'z', 'sentinel'), 'x');
    await until(() => changes.length > 0);
    await watcher!.settled();
    release();
    expect(idsOf(changes)).toEqual(['z']);
    await fs.writeFile(path.join(dir, 'a', 'index.html'), 'x');
    await until(() => changes.length > 1);
    expect(idsOf(changes)).toEqual(['z', 'a']);
  });

  it('reports the workspace file changing, also when an editor saves it by renaming a new file over it', async () => {
    const file = path.join(dir, 'distributor-inspector.json');
    await fs.writeFile(file, '{}');
    const changes = await watching(['a']);
    await watcher!.setWorkspace({ path: file, kind: 'file' });
    expect(watcher!.status().workspace).toEqual({ path: file, mode: 'watching' });
    await fs.writeFile(path.join(dir, 'unrelated.txt'), 'x');
    await fs.writeFile(path.join(dir, 'a', 'sentinel'), 'x');
    await until(() => changes.length > 0);
    await watcher!.settled();
    expect(idsOf(changes)).toEqual(['a']);
    await fs.writeFile(`${file}.tmp`, '{"destinations": []}');
    await fs.rename(`${file}.tmp`, file);
    await until(() => changes.length > 1);
    await fs.writeFile(file, '{"destinations": [] }');
    await until(() => changes.length > 2);
    expect(idsOf(changes)).toEqual(['a', 'workspace', 'workspace']);
  });

  it('stops every watch on close: nothing is reported afterwards', async () => {
    const changes = await watching(['a']);
    watcher!.close();
    expect(watcher!.status().active).toBe(false);
    let seen = false;
    const sentinel = fsWatch(path.join(dir, 'a'), () => (seen = true));
    try {
      await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{}');
      await until(() => seen);
      await watcher!.settled();
    } finally {
      sentinel.close();
    }
    expect(changes).toEqual([]);
  });
});

describe('DestinationWatcher (polling)', () => {
  it('polls when asked to, says why, and sees the state file written and the staging folder appear', async () => {
    const changes = await watching(['a', 'b'], { forcePolling: 'polling was asked for' });
    expect(watcher!.status()).toMatchObject({ watching: 0, polling: 2, pollingReasons: [{ reason: 'polling was asked for', count: 2 }] });
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{}');
    await until(() => changes.length > 0);
    await watcher!.nextSweep();
    expect(idsOf(changes)).toEqual(['a']);
    await fs.mkdir(path.join(dir, 'b', '.distributor-staging'));
    await until(() => changes.length > 1);
    expect(idsOf(changes)).toEqual(['a', 'b']);
  });

  it('sees a state file edited in place (same size) by its modification time', async () => {
    await fs.mkdir(path.join(dir, 'a'));
    await fs.writeFile(path.join(dir, 'a', '.distributor.json'), '{"v":1}');
    const changes = await watching(['a'], { forcePolling: 'polling was asked for' });
    await watcher!.nextSweep();
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

describe('DestinationWatcher (any depth)', () => {
  /** A destination `a` with outputs two folders down, watched; `z` beside it for a sentinel. */
  async function nested() {
    await fs.mkdir(path.join(dir, 'a', 'guide', 'assets'), { recursive: true });
    await fs.writeFile(path.join(dir, 'a', 'guide', 'assets', 'logo.png'), 'png');
    await fs.writeFile(path.join(dir, 'a', 'guide', 'install.html'), 'html');
    return watching(['a', 'z']);
  }

  it('holds one kernel watch per folder, none per file', async () => {
    await nested();
    // a, a/guide, a/guide/assets, z.
    expect(watcher!.watchCount()).toBe(4);
  });

  it.each([
    ['an output edited in place', (a: string) => fs.appendFile(path.join(a, 'guide', 'install.html'), 'x')],
    ['an output removed', (a: string) => fs.rm(path.join(a, 'guide', 'assets', 'logo.png'))],
    [
      'an output replaced by a link',
      async (a: string) => {
        await fs.rm(path.join(a, 'guide', 'install.html'));
        await fs.symlink('/etc/hostname', path.join(a, 'guide', 'install.html'));
      },
    ],
    [
      'an output replaced by a folder',
      async (a: string) => {
        await fs.rm(path.join(a, 'guide', 'assets', 'logo.png'));
        await fs.mkdir(path.join(a, 'guide', 'assets', 'logo.png'));
      },
    ],
    ['a folder removed', (a: string) => fs.rm(path.join(a, 'guide', 'assets'), { recursive: true })],
    ['a folder renamed', (a: string) => fs.rename(path.join(a, 'guide', 'assets'), path.join(a, 'guide', 'img'))],
  ])('reports %s below the top level as a change of its destination only', async (_what, change) => {
    const changes = await nested();
    await change(path.join(dir, 'a'));
    await until(() => changes.length > 0);
    await watcher!.settled();
    expect(idsOf(changes)).toEqual(['a']);
  });

  it('watches a folder made after the watch began, and the folders renamed into the tree', async () => {
    const changes = await nested();
    await fs.mkdir(path.join(dir, 'a', 'later', 'deeper'), { recursive: true });
    await until(() => watcher!.watchCount() === 6);
    await watcher!.settled();
    const before = changes.length;
    await fs.writeFile(path.join(dir, 'a', 'later', 'deeper', 'page.html'), 'x');
    await until(() => changes.length > before);
    await fs.rename(path.join(dir, 'a', 'later'), path.join(dir, 'a', 'moved'));
    await until(() => watcher!.watchCount() === 6 && changes.length > before + 1);
    await watcher!.settled();
    const afterRename = changes.length;
    await fs.appendFile(path.join(dir, 'a', 'moved', 'deeper', 'page.html'), 'y');
    await until(() => changes.length > afterRename);
    expect(new Set(idsOf(changes))).toEqual(new Set(['a']));
  });

  it('lets go of the watches of a removed folder', async () => {
    await nested();
    await fs.rm(path.join(dir, 'a', 'guide'), { recursive: true });
    await until(() => watcher!.watchCount() === 2);
  });

  it('falls back to polling a destination whose new folder finds the watch limit reached, and still reports the change', async () => {
    let refuse = false;
    const limited = ((...args: Parameters<typeof fsWatch>) => {
      if (refuse) throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
      return fsWatch(...args);
    }) as typeof fsWatch;
    const changes = await watching(['a'], { watch: limited });
    refuse = true;
    await fs.mkdir(path.join(dir, 'a', 'new'));
    await until(() => watcher!.modeOf('a')?.mode === 'polling' && changes.length > 0);
    expect(watcher!.modeOf('a')).toEqual({ mode: 'polling', reason: POLL_REASONS.limit });
    await watcher!.settled();
    const before = changes.length;
    await fs.writeFile(path.join(dir, 'a', 'new', 'page.html'), 'x');
    await until(() => changes.length > before);
    expect(new Set(idsOf(changes))).toEqual(new Set(['a']));
  });

  it('when polled, sees an output edited in place deep down at the same size', async () => {
    await fs.mkdir(path.join(dir, 'a', 'guide', 'assets'), { recursive: true });
    await fs.writeFile(path.join(dir, 'a', 'guide', 'assets', 'logo.png'), 'v1');
    const changes = await watching(['a'], { forcePolling: 'polling was asked for' });
    await watcher!.nextSweep();
    const before = changes.length;
    const handle = await fs.open(path.join(dir, 'a', 'guide', 'assets', 'logo.png'), 'r+');
    await handle.write('v2', 0);
    await handle.close();
    await until(() => changes.length > before);
    expect(new Set(idsOf(changes))).toEqual(new Set(['a']));
  });
});
