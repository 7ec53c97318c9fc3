// Issue 10 point 9: one huge invalid state never takes a scan down, and never costs an issue object
// per bad record. Real files in a temp dir; the hostile state is generated here (~21 MB).
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MORE_LIKE_THIS } from '../../shared/issueCap';
import { sampleBadOutputsStateText } from '../../shared/sampleDocuments';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { makeTempDir, writeManagedDestination } from '../testing/fixtureTrees';
import { HashPool } from './hashPool';
import { inspectDestination } from './inspectDestination';
import { scanWorkspace } from './scan';
import { loadWorkspace, type LoadedWorkspace } from './workspace';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('huge-state')));
afterEach(async () => remove());

async function folderWorkspace(): Promise<LoadedWorkspace> {
  const load = await loadWorkspace(dir);
  if (!load.ok) throw new Error(load.issues.map((issue) => issue.message).join('; '));
  return load.workspace;
}

/** b-huge holds a state of 200,000 bad outputs between six healthy destinations. */
function writeWorkspace(): void {
  for (const name of ['a1', 'a2', 'a3', 'c1', 'c2', 'c3']) writeManagedDestination(path.join(dir, name), { 'x.html': name });
  mkdirSync(path.join(dir, 'b-huge'));
  writeFileSync(path.join(dir, 'b-huge', STATE_FILE_NAME), sampleBadOutputsStateText(200_000));
}

const healthy = ['a1', 'a2', 'a3', 'c1', 'c2', 'c3'];

describe('a huge invalid state', () => {
  it('is scanned beside its healthy siblings with at most 100 issues per code and exact counts', async () => {
    writeWorkspace();
    const report = await scanWorkspace(await folderWorkspace(), { concurrency: 2 });
    const byId = new Map(report.rows.map((row) => [row.destination.id, row]));
    for (const id of healthy) expect(byId.get(id)?.summary.status).toBe('managed');
    const huge = byId.get('b-huge')!;
    expect(huge.summary).toMatchObject({
      status: 'invalid',
      pipeline_id: 'reports',
      outputCount: 200_000,
      errorCount: 800_000,
      warningCount: 200_000,
    });
    expect(huge.inspection.issues.length).toBeLessThanOrEqual(5 * 101);
    expect(huge.inspection.issues.filter((issue) => issue.code === MORE_LIKE_THIS)).toHaveLength(5);
    // 21 MB of invalid state is not carried in the row: its issues say what is wrong.
    expect(huge.inspection.stateJson).toBeUndefined();
    expect(huge.inspection.stateWithheld?.sizeBytes).toBeGreaterThan(20_000_000);
  });

  it('is inspected with the same capped issues, its text and JSON withheld', async () => {
    writeWorkspace();
    const inspection = await inspectDestination(path.join(dir, 'b-huge'), { includeText: true });
    expect(inspection.status).toBe('invalid');
    expect(inspection.issues.length).toBeLessThanOrEqual(5 * 101);
    expect(inspection.stateText).toBeUndefined();
    expect(inspection.stateJson).toBeUndefined();
    expect(inspection.stateWithheld?.sizeBytes).toBeGreaterThan(20_000_000);
  });

  it('costs only its own row when reading it kills a worker (out of memory)', async () => {
    writeWorkspace();
    // A heap far too small for 21 MB of JSON, big enough for the small states: the worker reading
    // b-huge dies, as one reading a 170 MB state would on a real heap.
    const pool = new HashPool({ size: 2, resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 } });
    try {
      const report = await scanWorkspace(await folderWorkspace(), { pool });
      const byId = new Map(report.rows.map((row) => [row.destination.id, row]));
      for (const id of healthy) expect(byId.get(id)?.summary.status).toBe('managed');
      const huge = byId.get('b-huge')!;
      expect(huge.summary.status).toBe('invalid');
      expect(huge.inspection.issues).toEqual([
        expect.objectContaining({
          code: 'destination_unreadable',
          message: `${path.join(dir, 'b-huge')} cannot be read: the reader ran out of memory on it`,
        }),
      ]);
      // The pool still works after losing a worker.
      expect(await pool.inspect([path.join(dir, 'a1')], { withState: false })).toMatchObject([{ kind: 'inspected' }]);
    } finally {
      await pool.close();
    }
  });

  it('costs only its own row in a verify whose rows come rendered, the row it killed coming without text', async () => {
    writeWorkspace();
    const pool = new HashPool({ size: 2, resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 } });
    try {
      const report = await scanWorkspace(await folderWorkspace(), { pool, verify: true, rowText: { verifiedAt: 'then' } });
      const byId = new Map(report.rows.map((row) => [row.destination.id, row]));
      for (const id of healthy) {
        const row = byId.get(id)!;
        expect(row.verify).toBeUndefined();
        expect(row.verifyStatus).toBe('intact');
        expect(JSON.parse(`{${row.text!}}`)).toMatchObject({ status: 'managed', verify: { status: 'intact' }, verified_at: 'then' });
      }
      const huge = byId.get('b-huge')!;
      expect(huge.text).toBeUndefined();
      expect(huge.inspection.issues).toEqual([expect.objectContaining({ code: 'destination_unreadable' })]);
    } finally {
      await pool.close();
    }
  });

  it('costs only its own row when the worker it kills holds the next batch too', async () => {
    writeWorkspace();
    // Enough destinations after b-huge for a second batch, handed to the worker before it dies.
    const after = Array.from({ length: 100 }, (_, i) => `d${String(i).padStart(3, '0')}`);
    for (const name of after) writeManagedDestination(path.join(dir, name), { 'x.html': name });
    const pool = new HashPool({ size: 1, resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 } });
    try {
      const report = await scanWorkspace(await folderWorkspace(), { pool });
      const statuses = new Map(report.rows.map((row) => [row.destination.id, row.summary.status]));
      for (const id of [...healthy, ...after]) expect(statuses.get(id)).toBe('managed');
      expect(statuses.get('b-huge')).toBe('invalid');
      expect(report.rows.find((row) => row.destination.id === 'b-huge')!.inspection.issues).toEqual([
        expect.objectContaining({ code: 'destination_unreadable', message: expect.stringContaining('ran out of memory') }),
      ]);
    } finally {
      await pool.close();
    }
  });
});

describe('a state file past the size cap', () => {
  it('is invalid without being read, with an error naming the file and its size, in both readers', async () => {
    const dest = path.join(dir, 'too-big');
    mkdirSync(dest);
    const file = path.join(dest, STATE_FILE_NAME);
    // Sparse: 300 MiB on paper, nothing on disk; the cap is checked before a byte is read.
    writeFileSync(file, '');
    truncateSync(file, 300 * 1024 * 1024);
    writeManagedDestination(path.join(dir, 'ok'), { 'x.html': 'x' });
    const expected = {
      path: [],
      code: 'state_too_large',
      severity: 'error',
      message: `${file} is 300 MiB (314572800 bytes), more than the 256 MiB this inspector reads: it was not parsed; a forced replace replaces it`,
    };
    const inspection = await inspectDestination(dest, { includeText: true });
    expect(inspection).toMatchObject({ status: 'invalid', issues: [expected], stateWithheld: { sizeBytes: 314_572_800 } });
    expect(inspection.stateText).toBeUndefined();
    const report = await scanWorkspace(await folderWorkspace(), { concurrency: 2 });
    expect(report.rows.map((row) => [row.destination.id, row.summary.status])).toEqual([
      ['ok', 'managed'],
      ['too-big', 'invalid'],
    ]);
    expect(report.rows[1]!.inspection.issues).toEqual([expected]);
  });
});

describe('a worker that cannot even load', () => {
  it('fails the request as before, instead of one error row per destination', async () => {
    writeManagedDestination(path.join(dir, 'a1'), { 'x.html': 'a' });
    // Too little heap to load the worker's own code: it dies before it is ready.
    const pool = new HashPool({ size: 1, resourceLimits: { maxOldGenerationSizeMb: 2, maxYoungGenerationSizeMb: 1 } });
    try {
      await expect(pool.inspect([path.join(dir, 'a1')], { withState: false })).rejects.toBeDefined();
    } finally {
      await pool.close();
    }
  });
});
