import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlanDelete, PlanWrite, ReplacePlan } from './plan';
import { planRows, PLAN_ROW_KINDS, planTotalsText } from './planRows';
import { samplePlanOf } from './samplePlans';
import { STATE_FILE_NAME } from './stateSchema';

const SHA_A = `sha256:${'a'.repeat(64)}`;
const SHA_B = `sha256:${'b'.repeat(64)}`;

const write = (path: string, sha256 = SHA_B, size = 10): PlanWrite => ({ path, size, sha256, kind: 'source', source_path: path });

describe('planRows', () => {
  it('makes a path deleted and written again one update row, not a delete and a write', () => {
    const { rows, totals } = planRows(
      samplePlanOf({
        deletes: [
          { path: 'a.html', type: 'file', size: 5, sha256: SHA_A },
          { path: 'gone.html', type: 'file', size: 3 },
        ],
        writes: [write('a.html'), write('new.html')],
      }),
    );
    expect(rows.map((row) => [row.kind, row.path])).toEqual([
      ['update', 'a.html'],
      ['delete', 'gone.html'],
      ['create', 'new.html'],
    ]);
    expect(rows[0]).toMatchObject({ size: 10, oldSize: 5 });
    expect(totals).toEqual({ create: 1, update: 1, delete: 1, unchanged: 0, keep: 0 });
  });

  it('calls a rewritten path unchanged only when its bytes on disk were proven to be the bytes written', () => {
    const { rows } = planRows(
      samplePlanOf({
        deletes: [
          { path: 'same.html', type: 'file', size: 10, sha256: SHA_B },
          { path: 'edited.html', type: 'file', size: 10, changed: 'hash_mismatch' },
          { path: 'unhashed.html', type: 'file', size: 10 },
        ],
        writes: [write('same.html'), write('edited.html'), write('unhashed.html')],
      }),
    );
    expect(Object.fromEntries(rows.map((row) => [row.path, row.kind]))).toEqual({
      'same.html': 'unchanged',
      'edited.html': 'update',
      'unhashed.html': 'update',
    });
    expect(rows.find((row) => row.path === 'edited.html')?.changed).toBe('hash_mismatch');
  });

  it('lists the state file as updated when a new one replaces it, created when there was none, and the extras as kept', () => {
    const state = { pipeline_id: 'p' } as unknown as ReplacePlan['newState'];
    const replaced = planRows(
      samplePlanOf({
        deletes: [{ path: STATE_FILE_NAME, type: 'file', size: 200 }],
        writes: [write('a.html')],
        newState: state,
        extras: ['notes.txt'],
      }),
    );
    expect(replaced.rows).toEqual([
      expect.objectContaining({ kind: 'update', path: STATE_FILE_NAME, type: 'state' }),
      expect.objectContaining({ kind: 'create', path: 'a.html' }),
      expect.objectContaining({ kind: 'keep', path: 'notes.txt', note: 'extra' }),
    ]);
    const first = planRows(samplePlanOf({ deletes: [], writes: [write('a.html')], newState: state }));
    expect(first.rows[0]).toMatchObject({ kind: 'create', path: STATE_FILE_NAME });
    expect(planTotalsText(replaced.totals)).toBe('Plan: 1 to create, 1 to update, 0 to delete, 0 unchanged, 1 kept.');
  });

  it('says a forced replace makes a folder again when new outputs go in it, and deletes the others', () => {
    const { rows } = planRows(
      samplePlanOf({
        mode: 'force',
        deletes: [
          { path: 'pages/old.html', type: 'file', size: 1 },
          { path: 'pages', type: 'directory', size: 0 },
          { path: 'junk', type: 'directory', size: 0 },
        ],
        writes: [write('pages/new.html')],
      }),
    );
    expect(Object.fromEntries(rows.map((row) => [row.path, row.kind]))).toEqual({
      junk: 'delete',
      pages: 'update',
      'pages/new.html': 'create',
      'pages/old.html': 'delete',
    });
  });

  it('keeps a repair’s refused outputs in the list with the reason', () => {
    const { rows } = planRows(
      samplePlanOf({
        mode: 'repair',
        deletes: [],
        writes: [write('a.html')],
        repair: {
          driftedCount: 2,
          repairs: [{ path: 'a.html', status: 'missing', origin: 'source_file' }],
          refused: [{ path: 'b.html', status: 'hash_mismatch', code: 'not_proven', message: 'the source changed since' }],
          extras: ['x.txt'],
          interruptedStaging: [],
        },
      }),
    );
    expect(rows.map((row) => [row.kind, row.path, row.note])).toEqual([
      ['create', 'a.html', undefined],
      ['keep', 'b.html', 'cannot be repaired: the source changed since'],
      ['keep', 'x.txt', 'extra'],
    ]);
  });

  const pathArb = fc.constantFrom('a.html', 'b.html', 'c/d.html', 'c', 'e.txt', STATE_FILE_NAME, 'f/g/h.css', 'f', 'f/g');
  const deleteArb = fc.record({
    path: pathArb,
    type: fc.constantFrom('file', 'directory', 'symlink', 'other') as fc.Arbitrary<PlanDelete['type']>,
    size: fc.nat(20),
    changed: fc.option(fc.constantFrom('size_mismatch', 'hash_mismatch', 'not_a_file'), { nil: undefined }),
    sha256: fc.option(fc.constantFrom(SHA_A, SHA_B), { nil: undefined }),
  });
  const writeArb = fc.record({
    path: pathArb.filter((path) => path !== STATE_FILE_NAME),
    sha: fc.constantFrom(SHA_A, SHA_B),
    size: fc.nat(20),
  });
  const clean = <T extends { changed?: unknown; sha256?: unknown }>(entry: T): T => {
    const copy = { ...entry };
    if (copy.changed === undefined) delete copy.changed;
    if (copy.sha256 === undefined) delete copy.sha256;
    return copy;
  };
  const planArb = fc
    .record({
      deletes: fc.uniqueArray(deleteArb, { selector: (entry) => entry.path, maxLength: 9 }),
      writes: fc.uniqueArray(writeArb, { selector: (entry) => entry.path, maxLength: 8 }),
      extras: fc.uniqueArray(fc.constantFrom('x.txt', 'y/z.txt', 'a.html'), { maxLength: 3 }),
      withState: fc.boolean(),
    })
    .map(({ deletes, writes, extras, withState }) => {
      const taken = new Set<string>([...deletes.map((entry) => entry.path), ...writes.map((entry) => entry.path)]);
      return samplePlanOf({
        deletes: deletes.map(clean),
        writes: writes.map((entry) => write(entry.path, entry.sha, entry.size)),
        extras: extras.filter((path) => !taken.has(path)),
        ...(withState ? { newState: {} as ReplacePlan['newState'] } : {}),
      });
    });

  it('lists every deleted, written and kept path exactly once, with totals that add up (property)', () => {
    fc.assert(
      fc.property(planArb, (plan) => {
        const { rows, totals } = planRows(plan);
        const expected = new Set([
          ...plan.deletes.map((entry) => entry.path),
          ...plan.writes.map((entry) => entry.path),
          ...(plan.extras ?? []),
          ...(plan.newState ? [STATE_FILE_NAME] : []),
        ]);
        expect(rows.map((row) => row.path).sort()).toEqual([...expected].sort());
        expect(new Set(rows.map((row) => row.path)).size).toBe(rows.length);
        expect(PLAN_ROW_KINDS.reduce((sum, kind) => sum + totals[kind], 0)).toBe(rows.length);
        for (const kind of PLAN_ROW_KINDS) expect(totals[kind]).toBe(rows.filter((row) => row.kind === kind).length);
      }),
    );
  });

  it('makes a written path update or unchanged exactly when the plan also removes it, unchanged only for proven equal bytes (property)', () => {
    fc.assert(
      fc.property(planArb, (plan) => {
        const deleted = new Map(plan.deletes.map((entry) => [entry.path, entry]));
        const written = new Map(plan.writes.map((entry) => [entry.path, entry]));
        for (const row of planRows(plan).rows) {
          const old = deleted.get(row.path);
          const next = written.get(row.path);
          if (next) {
            expect(row.kind).toBe(old ? (row.kind === 'unchanged' ? 'unchanged' : 'update') : 'create');
            if (row.kind === 'unchanged') expect(old).toMatchObject({ type: 'file', sha256: next.sha256, size: next.size });
            if (row.kind === 'update' && old?.type === 'file' && !old.changed)
              expect(old.sha256 === next.sha256 && old.size === next.size).toBe(false);
          } else if (old) {
            // Removed and not written: gone, unless it is the state (written anew) or a folder written into again.
            expect(['delete', 'update']).toContain(row.kind);
            if (row.kind === 'update') expect(row.path === STATE_FILE_NAME || old.type === 'directory').toBe(true);
          } else {
            expect(['keep', 'create']).toContain(row.kind);
          }
        }
      }),
    );
  });
});
