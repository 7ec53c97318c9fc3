import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlanWrite, ReplacePlan } from './plan';
import {
  COUNTED_CHANGES,
  countEntries,
  countsBytesWords,
  countsTitle,
  countsWords,
  keptWords,
  planCounts,
  planCountsSentence,
  restoreCounts,
  type CountedEntry,
} from './planCounts';
import { samplePlanOf } from './samplePlans';
import { STATE_FILE_NAME } from './stateSchema';

const SHA_A = `sha256:${'a'.repeat(64)}`;
const SHA_B = `sha256:${'b'.repeat(64)}`;
const STATE = { format: 1 } as unknown as NonNullable<ReplacePlan['newState']>;

const write = (path: string, size = 10, sha256 = SHA_B): PlanWrite => ({ path, size, sha256, kind: 'source', source_path: path });

describe('planCounts', () => {
  it('counts a first publish into an empty folder as a Publish that creates its files and the state file', () => {
    const counts = planCounts(
      samplePlanOf({ destinationExists: false, deletes: [], writes: [write('a.html'), write('b.css')], newState: STATE }),
    );
    expect(counts).toMatchObject({ created: 3, updated: 0, deleted: 0, kept: 0, createdBytes: 20, stateFile: 'create' });
    expect(planCountsSentence('replace', counts)).toBe('Publish: create 3 files (the state file among them)');
  });

  it('counts the state file once, as an update, when a replace writes a new one over the old', () => {
    const counts = planCounts(
      samplePlanOf({
        deletes: [
          { path: STATE_FILE_NAME, type: 'file', size: 40 },
          { path: 'a.html', type: 'file', size: 5, sha256: SHA_A },
          { path: 'gone.html', type: 'file', size: 3 },
          { path: 'old', type: 'directory', size: 0 },
        ],
        writes: [write('a.html', 12), write('new.html', 7)],
        newState: STATE,
        extras: ['notes.txt'],
      }),
    );
    expect(counts).toMatchObject({ created: 1, updated: 2, deleted: 1, kept: 1, foldersDeleted: 1, stateFile: 'update' });
    expect(counts.deletedBytes).toBe(3);
    expect(countsWords(counts)).toBe('create 1 file, update 2 files (the state file among them), delete 1 file and 1 folder, keep 1 file');
    expect(planCountsSentence('replace', counts)).toBe(
      'Replace: create 1 file, update 2 files (the state file among them), delete 1 file and 1 folder',
    );
    expect(countsWords(counts, 'done')).toBe(
      'created 1 file, updated 2 files (the state file among them), deleted 1 file and 1 folder, kept 1 file',
    );
  });

  it('counts a path rewritten with the bytes it already holds as kept, not updated', () => {
    const counts = planCounts(
      samplePlanOf({ deletes: [{ path: 'same.html', type: 'file', size: 10, sha256: SHA_B }], writes: [write('same.html')] }),
    );
    expect(counts).toMatchObject({ created: 0, updated: 0, deleted: 0, kept: 1 });
  });

  it('names the state file a repair keeps, and never calls a repair a publish', () => {
    const counts = planCounts(
      samplePlanOf({
        mode: 'repair',
        deletes: [{ path: 'a.html', type: 'file', size: 4, changed: 'hash_mismatch' }],
        writes: [write('a.html'), write('missing.html')],
        repair: { driftedCount: 2, repairs: [], refused: [], extras: ['x.txt'], interruptedStaging: [] },
      }),
    );
    expect(counts).toMatchObject({ created: 1, updated: 1, deleted: 0, kept: 2, stateFile: 'keep' });
    expect(countsWords(counts)).toBe('create 1 file, update 1 file, keep 2 files (the state file among them)');
    expect(countsTitle('repair', { ...counts, updated: 0 })).toBe('Repair');
  });

  it('counts a restore: what it removes, what it puts back over a path it removes, and the staging it clears', () => {
    const counts = restoreCounts({
      removes: [
        { path: STATE_FILE_NAME, type: 'file', size: 50 },
        { path: 'new.html', type: 'file', size: 9 },
        { path: 'a.html', type: 'file', size: 8 },
      ],
      removeStaging: ['.distributor-staging'],
      puts: [
        { path: 'a.html', type: 'file', size: 6 },
        { path: 'old.html', type: 'file', size: 5 },
        { path: 'assets', type: 'directory', size: 30 },
        { path: STATE_FILE_NAME, type: 'file', size: 44 },
      ],
    });
    expect(counts).toMatchObject({ created: 1, updated: 2, deleted: 1, foldersCreated: 1, foldersDeleted: 1, stateFile: 'update' });
    expect(planCountsSentence('restore', counts)).toBe(
      'Restore: create 1 file and 1 folder, update 2 files (the state file among them), delete 1 file and 1 folder',
    );
  });

  it('says the bytes written and removed, leaving out a side with none', () => {
    expect(countsBytesWords({ ...countEntries([]), createdBytes: 200, updatedBytes: 52, deletedBytes: 76 })).toBe(
      '252 B written, 76 B removed',
    );
    expect(countsBytesWords({ ...countEntries([]), createdBytes: 3 })).toBe('3 B written');
  });

  it('says what stays on its own, the state file named, and nothing when nothing is kept', () => {
    expect(keptWords({ ...countEntries([]), kept: 2, stateFile: 'keep' })).toBe('keep 2 files (the state file among them)');
    expect(keptWords({ ...countEntries([]), kept: 1, stateFile: 'keep' }, 'done')).toBe('kept 1 file (the state file)');
    expect(keptWords(countEntries([]))).toBe('');
  });

  it('says "1 file" and "2 files", never "file(s)"', () => {
    const one = countsWords(countEntries([{ path: 'a', change: 'delete' }]));
    const two = countsWords(
      countEntries([
        { path: 'a', change: 'delete' },
        { path: 'b', change: 'delete' },
      ]),
    );
    expect(one).toBe('delete 1 file');
    expect(two).toBe('delete 2 files');
  });

  it('counts every path once, in exactly one bucket, whatever the entries', () => {
    const entry = fc.record({
      path: fc.constantFrom('a', 'b', 'c/d', STATE_FILE_NAME, 'e'),
      change: fc.constantFrom(...COUNTED_CHANGES),
      folder: fc.boolean(),
      sizeBytes: fc.nat(1000),
    });
    fc.assert(
      fc.property(fc.array(entry), (entries: CountedEntry[]) => {
        const counts = countEntries(entries);
        const paths = new Set(entries.map((item) => item.path)).size;
        const total = counts.created + counts.updated + counts.deleted + counts.kept;
        const foldersCounted = counts.foldersCreated + counts.foldersDeleted;
        expect(total + foldersCounted).toBeLessThanOrEqual(paths);
        const lastOf = new Map(entries.map((item) => [item.path, item]));
        expect(total).toBe([...lastOf.values()].filter((item) => !item.folder).length);
      }),
    );
  });
});
