import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stateSchema } from '../../shared/documentSchemas';
import { makeTempDir, sha256Of, writeManagedDestination } from '../testing/fixtureTrees';
import { HashPool } from './hashPool';
import { runInThread } from './poolInThread';
import { verifyDestination } from './verify';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('hash-pool-test')));
afterEach(async () => remove());

/** OS threads of this process (Linux): worker threads show up here until they have really exited. */
function threadCount(): number | undefined {
  try {
    return Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

/** A sparse file: gigabytes to hash, no disk space used. */
function sparseFile(name: string, bytes: number): string {
  const file = path.join(dir, name);
  execFileSync('truncate', ['-s', String(bytes), file]);
  return file;
}

describe('HashPool', () => {
  it('hashes many small files in batches and returns outcomes in task order', async () => {
    const tasks = Array.from({ length: 300 }, (_, i) => {
      writeFileSync(path.join(dir, `f${i}.txt`), `file ${i}`);
      return { root: dir, path: `f${i}.txt` };
    });
    const pool = new HashPool({ size: 2 });
    try {
      let files = 0;
      const outcomes = await pool.hash(tasks, { onProgress: (delta) => (files += delta.files) });
      expect(outcomes).toEqual(
        tasks.map((_, i) => ({ kind: 'file', size: Buffer.byteLength(`file ${i}`), sha256: sha256Of(`file ${i}`) })),
      );
      expect(files).toBe(300);
      expect(pool.workerCount).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('has a worker reading its next batch while the last one is still being delivered', async () => {
    const paths = Array.from({ length: 130 }, (_, i) => {
      writeManagedDestination(path.join(dir, `d${i}`), { 'a.txt': 'a' });
      return path.join(dir, `d${i}`);
    });
    const pool = new HashPool({ size: 1 });
    try {
      const busyWhileDelivering: number[] = [];
      // The first outcome of each of the first two batches of 64: more work was queued each time.
      await pool.inspect(paths, {
        withState: true,
        onOutcome: (index) => index % 64 === 0 && index < 128 && busyWhileDelivering.push(pool.busyCount),
      });
      expect(busyWhileDelivering).toEqual([1, 1]);
    } finally {
      await pool.close();
    }
  });

  it('hands a worker running inspections its next batch before it answers, but never queues a hash behind another', async () => {
    const paths = Array.from({ length: 200 }, (_, i) => {
      writeManagedDestination(path.join(dir, `d${i}`), { 'a.txt': 'a' });
      return path.join(dir, `d${i}`);
    });
    const pool = new HashPool({ size: 1 });
    try {
      const inFlight: number[] = [];
      // At the first outcome of the first batch: the second batch was already in the worker, the third just sent.
      await pool.inspect(paths, { withState: true, onOutcome: (index) => index === 0 && inFlight.push(pool.batchesInFlight) });
      await pool.hash(
        paths.map((root) => ({ root, path: 'a.txt' })),
        { onProgress: () => inFlight.push(pool.batchesInFlight) },
      );
      expect(inFlight[0]).toBe(2);
      expect(Math.max(...inFlight.slice(1))).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('sends inspections that answer with a summary only in batches of 256, any batch with a state in 64', async () => {
    const paths = Array.from({ length: 300 }, (_, i) => {
      writeManagedDestination(path.join(dir, `d${i}`), { 'a.txt': 'a' });
      return path.join(dir, `d${i}`);
    });
    const pool = new HashPool({ size: 1 });
    try {
      // A request's progress comes once a batch, with the batch's count.
      const batches = async (withState: boolean | ((index: number) => boolean)) => {
        const sizes: number[] = [];
        await pool.inspect(paths, { withState, onProgress: (delta) => sizes.push(delta.files) });
        return sizes;
      };
      expect(await batches(false)).toEqual([256, 44]);
      expect(await batches(true)).toEqual([64, 64, 64, 64, 44]);
      // Mixed (an app's scan where some destinations have a source): together, in order, by 64.
      expect(await batches((index) => index % 3 === 0)).toEqual([64, 64, 64, 64, 44]);
    } finally {
      await pool.close();
    }
  });

  it('hashes files around the 1 MiB read buffer exactly', async () => {
    const mib = 1024 * 1024;
    const sizes = [0, 1, mib - 1, mib, mib + 1, 2 * mib, 2 * mib + 7];
    const contents = sizes.map((size, i) => Buffer.alloc(size, i + 1));
    contents.forEach((bytes, i) => writeFileSync(path.join(dir, `s${i}`), bytes));
    const pool = new HashPool({ size: 1 });
    try {
      const outcomes = await pool.hash(sizes.map((_, i) => ({ root: dir, path: `s${i}` })));
      expect(outcomes).toEqual(contents.map((bytes) => ({ kind: 'file', size: bytes.length, sha256: sha256Of(bytes) })));
    } finally {
      await pool.close();
    }
  });

  it('stops promptly on abort mid-file and leaves no worker thread behind', async () => {
    sparseFile('huge.bin', 16 * 1024 ** 3);
    const threadsBefore = threadCount();
    const pool = new HashPool({ size: 2 });
    const controller = new AbortController();
    let bytesSeen = 0;
    let abortedAt = 0;
    const hashing = pool.hash([{ root: dir, path: 'huge.bin' }], {
      signal: controller.signal,
      onProgress: (delta) => {
        bytesSeen += delta.bytes;
        if (!controller.signal.aborted) {
          abortedAt = performance.now();
          controller.abort();
        }
      },
    });
    await expect(hashing).rejects.toMatchObject({ name: 'AbortError' });
    const stopMs = performance.now() - abortedAt;
    expect(bytesSeen).toBeGreaterThan(0);
    expect(bytesSeen).toBeLessThan(16 * 1024 ** 3);
    expect(stopMs).toBeLessThan(1_000);
    expect(pool.workerCount).toBe(0);
    // 'exit' has fired; the OS thread, interrupted mid-read, is joined a moment later.
    if (threadsBefore !== undefined)
      await vi.waitFor(() => expect(threadCount()).toBeLessThanOrEqual(threadsBefore), { timeout: 1_000, interval: 20 });
    await pool.close();
  });

  it('keeps serving other requests when one is cancelled, and starts new workers as needed', async () => {
    sparseFile('huge.bin', 16 * 1024 ** 3);
    writeFileSync(path.join(dir, 'small.txt'), 'small');
    const pool = new HashPool({ size: 1 });
    try {
      const controller = new AbortController();
      const cancelled = pool.hash([{ root: dir, path: 'huge.bin' }], { signal: controller.signal, onProgress: () => controller.abort() });
      const other = pool.hash([{ root: dir, path: 'small.txt' }]);
      await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
      await expect(other).resolves.toEqual([{ kind: 'file', size: 5, sha256: sha256Of('small') }]);
    } finally {
      await pool.close();
    }
    expect(pool.workerCount).toBe(0);
  });

  /** `count` tasks over 50 small files of distinct contents, and the outcome each must get, in task order. */
  function longQueue(count: number, offset = 0) {
    // Written once: rewriting them while a worker reads them would change what it hashes.
    if (offset === 0) for (let i = 0; i < 50; i += 1) writeFileSync(path.join(dir, `q${i}.txt`), `queued file ${i}`);
    const tasks = Array.from({ length: count }, (_, i) => ({ root: dir, path: `q${(i + offset) % 50}.txt` }));
    const expected = tasks.map((task) => {
      const text = `queued file ${task.path.slice(1, -4)}`;
      return { kind: 'file', size: Buffer.byteLength(text), sha256: sha256Of(text) };
    });
    return { tasks, expected };
  }

  it('answers every job of two requests in task order through a queue long enough to be compacted', async () => {
    // 4,500 jobs waiting at once: past JobQueue's compaction threshold (1,024 taken), in batches of 64.
    const first = longQueue(3000);
    const second = longQueue(1500, 7);
    const pool = new HashPool({ size: 2 });
    try {
      let files = 0;
      const [a, b] = await Promise.all([
        pool.hash(first.tasks, { onProgress: (delta) => (files += delta.files) }),
        pool.hash(second.tasks, { onProgress: (delta) => (files += delta.files) }),
      ]);
      expect(a).toEqual(first.expected);
      expect(b).toEqual(second.expected);
      expect(files).toBe(4500);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('cancels a request queued behind thousands of jobs; the others, and one made after, get every answer in order', async () => {
    const first = longQueue(3000);
    const cancelledJobs = longQueue(3000, 3);
    const pool = new HashPool({ size: 2 });
    try {
      const controller = new AbortController();
      const a = pool.hash(first.tasks, { onProgress: () => controller.abort() });
      const cancelled = pool.hash(cancelledJobs.tasks, { signal: controller.signal });
      await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
      const later = longQueue(1200, 11);
      const c = pool.hash(later.tasks);
      expect(await a).toEqual(first.expected);
      expect(await c).toEqual(later.expected);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('rejects every request whose jobs still wait in a long queue when closed, and ends its workers', async () => {
    const { tasks } = longQueue(3000);
    const pool = new HashPool({ size: 1 });
    let closing: Promise<void> | undefined;
    const hashing = pool.hash(tasks, { onProgress: () => (closing ??= pool.close()) });
    const queued = pool.hash(tasks.slice(0, 2000));
    await expect(hashing).rejects.toThrow('HashPool was closed');
    await expect(queued).rejects.toThrow('HashPool was closed');
    await closing;
    expect(pool.workerCount).toBe(0);
    await expect(pool.hash(tasks.slice(0, 1))).rejects.toThrow('HashPool is closed');
  }, 60_000);

  it('rejects at once when the signal is already aborted, starting no worker', async () => {
    const pool = new HashPool();
    const controller = new AbortController();
    controller.abort();
    await expect(pool.hash([{ root: dir, path: 'x' }], { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(pool.workerCount).toBe(0);
  });
});

/** Destinations of every status, and how each kind of pool inspects them. */
function mixedDestinations(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const destination = path.join(dir, `d${i}`);
    if (i % 5 === 0) writeManagedDestination(destination, { 'a.html': `page ${i}` });
    if (i % 5 === 1) mkdirSync(destination);
    if (i % 5 === 2) writeManagedDestination(destination, { 'a.html': 'x' }, { publishedAt: 'not a time' });
    if (i % 5 === 3) {
      mkdirSync(destination);
      writeFileSync(path.join(destination, 'left.txt'), 'not published');
    }
    return destination; // i % 5 === 4: missing
  });
}

async function inspectWith(options: ConstructorParameters<typeof HashPool>[0], paths: string[]) {
  const pool = new HashPool(options);
  try {
    const outcomes = await pool.inspect(paths, { withState: true });
    return { outcomes, workers: pool.workerCount };
  } finally {
    await pool.close();
  }
}

describe('a pool that may inspect in the calling thread (runHere)', () => {
  it('reads a large scan in this thread while every core is busy, answering as the workers do', async () => {
    const paths = mixedDestinations(600);
    const here = await inspectWith({ size: 2, runHere: runInThread, coresBusy: () => true }, paths);
    expect(here.workers).toBe(0);
    expect(here.outcomes).toEqual((await inspectWith({ size: 2 }, paths)).outcomes);
    expect(here.outcomes.map((outcome) => outcome.kind === 'inspected' && outcome.inspection.status).slice(0, 5)).toEqual([
      'managed',
      'empty',
      'invalid',
      'unmanaged',
      'empty',
    ]);
  });

  it('gives a large scan to its workers while a core is idle', async () => {
    const paths = mixedDestinations(600);
    const pooled = await inspectWith({ size: 2, runHere: runInThread, coresBusy: () => false }, paths);
    expect(pooled.workers).toBe(2);
    expect(pooled.outcomes).toEqual((await inspectWith({ size: 2 }, paths)).outcomes);
  });

  it('never verifies a large scan in this thread, busy cores or not', async () => {
    const paths = mixedDestinations(100);
    const pool = new HashPool({ size: 2, runHere: runInThread, coresBusy: () => true });
    try {
      await pool.inspect(paths, { withState: false, verify: true });
      expect(pool.workerCount).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });
});

describe('cancelling verifyDestination', () => {
  function hugeOutput() {
    const destination = path.join(dir, 'site');
    const state = stateSchema.parse(writeManagedDestination(destination, { 'a.html': 'a' }));
    // Pretend the output is a 16 GiB file recorded with that size, so verify has to hash it all.
    execFileSync('truncate', ['-s', String(16 * 1024 ** 3), path.join(destination, 'a.html')]);
    state.outputs[0]!.size = 16 * 1024 ** 3;
    return { destination, state };
  }

  it('rejects with the abort reason mid-hash and leaves no busy worker in a shared pool', async () => {
    const { destination, state } = hugeOutput();
    const pool = new HashPool({ size: 2 });
    const controller = new AbortController();
    const verifying = verifyDestination(destination, state, {
      pool,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.bytes > 0) controller.abort();
      },
    });
    await expect(verifying).rejects.toMatchObject({ name: 'AbortError' });
    expect(pool.busyCount).toBe(0);
    await pool.close();
    expect(pool.workerCount).toBe(0);
  });

  it('ends every thread of the pool it made itself', async () => {
    const { destination, state } = hugeOutput();
    const threadsBefore = threadCount();
    const controller = new AbortController();
    const verifying = verifyDestination(destination, state, {
      signal: controller.signal,
      onProgress: (progress) => progress.bytes > 0 && controller.abort(),
    });
    await expect(verifying).rejects.toMatchObject({ name: 'AbortError' });
    if (threadsBefore !== undefined)
      await vi.waitFor(() => expect(threadCount()).toBeLessThanOrEqual(threadsBefore), { timeout: 1_000, interval: 20 });
  });
});
