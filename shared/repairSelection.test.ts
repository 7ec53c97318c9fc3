import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanPathProblem } from './cleanPath';
import type { ReplacePlan } from './plan';
import { samplePlanOf } from './samplePlans';
import { keptPathsOf, repairChoiceCounts, repairChoicePaths, selectRepair, selectionMatches } from './repairSelection';

const write = (path: string, size: number) => ({
  path,
  size,
  sha256: `sha256:${'0'.repeat(64)}`,
  kind: 'source' as const,
  source_path: path,
});

/** A repair plan as the planner makes it: three drifted outputs rewritten (two need a delete), one refused. */
function repairPlan(): ReplacePlan {
  return samplePlanOf({
    mode: 'repair',
    destinationPath: '/d',
    destinationRealPath: '/d',
    sourcePath: '/s',
    deletes: [
      { path: 'a.html', type: 'file', size: 5, changed: 'hash_mismatch' },
      { path: 'b/c.txt', type: 'symlink', size: 3, changed: 'not_a_file' },
    ],
    writes: [write('a.html', 10), write('b/c.txt', 20), write('d.css', 30)],
    repair: {
      driftedCount: 4,
      repairs: [
        { path: 'a.html', status: 'hash_mismatch', origin: 'regenerated' },
        { path: 'b/c.txt', status: 'not_a_file', origin: 'source_file' },
        { path: 'd.css', status: 'missing', origin: 'source_file' },
      ],
      refused: [{ path: 'e.png', status: 'missing', code: 'source_missing', message: 'its source file is not in the bundle' }],
      extras: ['notes.txt'],
      interruptedStaging: [],
    },
    plannedAt: '2026-06-05T09:00:00Z',
    summary: { deleteCount: 2, writeCount: 3, deleteBytes: 8, writeBytes: 60, changedCount: 2 },
  });
}

const selected = (keep: string[]) => {
  const outcome = selectRepair(repairPlan(), keep);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value;
};

describe('selectRepair', () => {
  it('leaves the plan as it is when nothing is kept', () => {
    expect(selected([])).toEqual(repairPlan());
  });

  it('drops a kept output from the writes, the deletes and the repairs, lists it as kept and counts again', () => {
    const plan = selected(['b/c.txt']);
    expect(plan.writes.map((entry) => entry.path)).toEqual(['a.html', 'd.css']);
    expect(plan.deletes.map((entry) => entry.path)).toEqual(['a.html']);
    expect(plan.repair?.repairs.map((entry) => entry.path)).toEqual(['a.html', 'd.css']);
    expect(plan.repair?.kept).toEqual([{ path: 'b/c.txt', status: 'not_a_file', origin: 'source_file' }]);
    expect(plan.repair?.refused).toEqual(repairPlan().repair?.refused);
    expect(plan.summary).toEqual({ deleteCount: 1, writeCount: 2, deleteBytes: 5, writeBytes: 40, changedCount: 1 });
    expect(plan.fingerprint).toEqual(repairPlan().fingerprint);
    expect(plan.action).toBe('replace');
  });

  it('plans nothing, with no staging folder, when every output it could rewrite is kept', () => {
    const plan = selected(['a.html', 'b/c.txt', 'd.css', 'a.html']);
    expect(plan.action).toBe('nothing');
    expect(plan.stagingName).toBe('');
    expect(plan.writes).toEqual([]);
    expect(keptPathsOf(plan)).toEqual(['a.html', 'b/c.txt', 'd.css']);
  });

  it('narrows a narrowed plan further and never brings a kept output back', () => {
    const once = selected(['a.html']);
    const twice = selectRepair(once, ['d.css', 'a.html']);
    expect(twice.ok && keptPathsOf(twice.value)).toEqual(['a.html', 'd.css']);
    expect(twice.ok && twice.value.writes.map((entry) => entry.path)).toEqual(['b/c.txt']);
  });

  it('refuses a kept path the plan does not rewrite: a refused one, an extra file, an unknown one', () => {
    for (const [path, words] of [
      ['e.png', 'not rewritten by this repair anyway (its source file is not in the bundle)'],
      ['notes.txt', 'is not a drifted output this repair rewrites'],
      ['zzz', 'is not a drifted output this repair rewrites'],
    ] as const) {
      const outcome = selectRepair(repairPlan(), ['a.html', path]);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.code).toBe('keep_not_in_plan');
      expect(outcome.error.message).toContain(words);
      expect(outcome.error.details).toEqual({ path });
    }
  });

  it('refuses a kept path that is not clean, even one that resolves to a planned output', () => {
    for (const path of ['../a.html', 'b/../a.html', './a.html', '/a.html', 'b//c.txt', 'b\\c.txt', 'a.html/', '', 'C:/a.html']) {
      const outcome = selectRepair(repairPlan(), [path]);
      expect(outcome.ok ? 'accepted' : outcome.error.code).toBe('keep_unclean_path');
    }
  });

  it('refuses any plan that is not a repair', () => {
    const { repair: _repair, ...plan } = repairPlan();
    const outcome = selectRepair({ ...plan, mode: 'replace' }, ['a.html']);
    expect(outcome.ok ? 'accepted' : outcome.error.code).toBe('keep_not_repair');
  });

  it('never throws, and accepts exactly the clean paths the plan rewrites, whatever it is given', () => {
    const rewritten = new Set(['a.html', 'b/c.txt', 'd.css']);
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...rewritten, 'e.png', '../a.html'), fc.string()), { maxLength: 6 }), (keep) => {
        const outcome = selectRepair(repairPlan(), keep);
        const acceptable = keep.every((path) => cleanPathProblem(path) === null && rewritten.has(path));
        expect(outcome.ok).toBe(acceptable);
        if (!outcome.ok) return;
        const written = outcome.value.writes.map((entry) => entry.path);
        expect(written.every((path) => !keep.includes(path))).toBe(true);
        expect(written.length + keptPathsOf(outcome.value).length).toBe(3);
      }),
    );
  });
});

describe('selectionMatches', () => {
  it('holds an apply to exactly the selection the plan keeps, in any order, repeated or not', () => {
    const plan = selected(['d.css', 'a.html']);
    expect(selectionMatches(plan, ['a.html', 'd.css'])).toBe(true);
    expect(selectionMatches(plan, ['d.css', 'a.html', 'a.html'])).toBe(true);
    expect(selectionMatches(plan, ['a.html'])).toBe(false);
    expect(selectionMatches(plan, undefined)).toBe(false);
    expect(selectionMatches(repairPlan(), undefined)).toBe(true);
    expect(selectionMatches(repairPlan(), [])).toBe(true);
    expect(selectionMatches(repairPlan(), ['a.html'])).toBe(false);
  });
});

describe('repairChoiceCounts', () => {
  it('counts what a choice rewrites and keeps as the boxes are ticked', () => {
    expect(repairChoiceCounts(repairPlan(), new Set())).toEqual({ rewrite: 3, keep: 0, refused: 1 });
    expect(repairChoiceCounts(repairPlan(), new Set(['a.html', 'notes.txt']))).toEqual({ rewrite: 2, keep: 1, refused: 1 });
    // Over a plan that already keeps a.html: ticking it again counts it as rewritten.
    expect(repairChoiceCounts(selected(['a.html']), new Set(['d.css']))).toEqual({ rewrite: 2, keep: 1, refused: 1 });
    expect(repairChoicePaths(selected(['a.html']))).toEqual(['a.html', 'b/c.txt', 'd.css']);
  });
});
