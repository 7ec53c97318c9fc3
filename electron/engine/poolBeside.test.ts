import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { HashPool, type InspectOutcome, type RunHere } from './hashPool';
import { runInThread } from './poolInThread';
import type { Job } from './poolProtocol';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('pool-beside')));
afterEach(async () => remove());

/** Destinations of every status and of every way a state can fail to be read. */
function mixedDestinations(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const destination = path.join(dir, `d${i}`);
    const state = path.join(destination, STATE_FILE_NAME);
    switch (i % 8) {
      case 0:
        writeManagedDestination(destination, { 'a.html': `page ${i}` });
        break;
      case 1:
        mkdirSync(destination);
        break;
      case 2:
        writeManagedDestination(destination, { 'a.html': 'x' }, { publishedAt: 'not a time' });
        break;
      case 3:
        mkdirSync(destination);
        writeFileSync(state, '{"schema_version": 1,');
        break;
      case 4:
        // One FIFO is enough (a process to make each); the rest of this column is managed.
        if (i === 4) {
          mkdirSync(destination);
          execFileSync('mkfifo', [state]);
        } else writeManagedDestination(destination, { 'b.html': `page ${i}` });
        break;
      case 5:
        mkdirSync(path.join(destination, STATE_FILE_NAME), { recursive: true });
        break;
      case 6:
        symlinkSync(dir, destination);
        break;
      // 7: missing
    }
    return destination;
  });
}

/** runInThread, counting the jobs this thread ran and the largest batch it took. */
function countingRunHere() {
  const counts = { jobs: 0, largestBatch: 0 };
  const runHere: RunHere = (jobs: Job[], options) => {
    counts.jobs += jobs.length;
    counts.largestBatch = Math.max(counts.largestBatch, jobs.length);
    return runInThread(jobs, options);
  };
  return { counts, runHere };
}

async function inspectWorkersOnly(paths: string[]): Promise<InspectOutcome[]> {
  const pool = new HashPool({ size: 2 });
  try {
    return await pool.inspect(paths, { withText: true });
  } finally {
    await pool.close();
  }
}

describe('a scan read by this thread beside one worker (besideHere)', () => {
  it('answers every destination in order, as the workers alone do, with one progress step each', async () => {
    const paths = mixedDestinations(800);
    const { counts, runHere } = countingRunHere();
    const pool = new HashPool({ size: 2, runHere, coresBusy: () => false, besideHere: 1 });
    try {
      const delivered: number[] = [];
      let files = 0;
      let mostWorkers = 0;
      const outcomes = await pool.inspect(paths, {
        withText: true,
        onOutcome: (index) => {
          delivered.push(index);
          mostWorkers = Math.max(mostWorkers, pool.workerCount);
        },
        onProgress: (delta) => (files += delta.files),
      });
      expect(outcomes).toEqual(await inspectWorkersOnly(paths));
      expect(outcomes.map((outcome) => outcome.kind === 'inspected' && outcome.inspection.status).slice(0, 8)).toEqual([
        'managed',
        'empty',
        'invalid',
        'invalid',
        'invalid',
        'invalid',
        'unmanaged',
        'empty',
      ]);
      expect([...delivered].sort((a, b) => a - b)).toEqual(paths.map((_, index) => index));
      expect(files).toBe(paths.length);
      expect(counts.jobs).toBeGreaterThan(0);
      expect(counts.largestBatch).toBeLessThanOrEqual(16);
      expect(mostWorkers).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('still reads a scan in this thread alone while every core is busy', async () => {
    const paths = mixedDestinations(200);
    const { counts, runHere } = countingRunHere();
    const pool = new HashPool({ size: 2, runHere, coresBusy: () => true, besideHere: 1 });
    try {
      await pool.inspect(paths, { withText: false });
      expect(counts.jobs).toBe(paths.length);
      expect(pool.workerCount).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('never reads a verify in this thread', async () => {
    const paths = mixedDestinations(200);
    const { counts, runHere } = countingRunHere();
    const pool = new HashPool({ size: 2, runHere, coresBusy: () => false, besideHere: 1 });
    try {
      await pool.inspect(paths, { withText: false, verify: true });
      expect(counts.jobs).toBe(0);
      expect(pool.workerCount).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });

  it('rejects with the abort reason mid-scan, delivers nothing after it and stays usable', async () => {
    const paths = mixedDestinations(1000);
    const pool = new HashPool({ size: 2, runHere: runInThread, coresBusy: () => false, besideHere: 1 });
    try {
      const controller = new AbortController();
      let delivered = 0;
      const scan = pool.inspect(paths, {
        withText: false,
        signal: controller.signal,
        onOutcome: () => {
          delivered += 1;
          if (delivered === 100) controller.abort(new Error('stopped by the operator'));
        },
      });
      await expect(scan).rejects.toThrow('stopped by the operator');
      expect(delivered).toBe(100);
      // Whatever this thread or the worker still had in hand is dropped, not delivered late.
      await pool.inspect(paths.slice(0, 100), { withText: false });
      expect(delivered).toBe(100);
      expect(await pool.inspect(paths.slice(0, 300), { withText: true })).toEqual(await inspectWorkersOnly(paths.slice(0, 300)));
    } finally {
      await pool.close();
    }
  });

  it('reads every job here when its worker cannot start, and starts no other', async () => {
    const paths = mixedDestinations(400);
    const expected = await inspectWorkersOnly(paths);
    const broken = path.join(dir, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('this bundle does not load');\n");
    const bundled = process.env.INSPECTOR_TEST_HASH_WORKER;
    process.env.INSPECTOR_TEST_HASH_WORKER = broken;
    const { counts, runHere } = countingRunHere();
    const pool = new HashPool({ size: 2, runHere, coresBusy: () => false, besideHere: 1 });
    try {
      let files = 0;
      const outcomes = await pool.inspect(paths, { withText: true, onProgress: (delta) => (files += delta.files) });
      expect(outcomes).toEqual(expected);
      expect(files).toBe(paths.length);
      expect(counts.jobs).toBe(paths.length);
      expect(pool.workerCount).toBe(0);
    } finally {
      process.env.INSPECTOR_TEST_HASH_WORKER = bundled;
      await pool.close();
    }
  });

  it('fails the request of a worker that cannot start when this thread may not read beside it', async () => {
    const paths = mixedDestinations(200);
    const broken = path.join(dir, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('this bundle does not load');\n");
    const bundled = process.env.INSPECTOR_TEST_HASH_WORKER;
    process.env.INSPECTOR_TEST_HASH_WORKER = broken;
    const pool = new HashPool({ size: 2, runHere: runInThread, coresBusy: () => false });
    try {
      await expect(pool.inspect(paths, { withText: false })).rejects.toThrow('this bundle does not load');
    } finally {
      process.env.INSPECTOR_TEST_HASH_WORKER = bundled;
      await pool.close();
    }
  });
});
