import { describe, expect, it } from 'vitest';
import type { ReplacePlan } from '../../shared/plan';
import { planCounts } from '../../shared/planCounts';
import { selectRepair } from '../../shared/repairSelection';
import { chosenPlan } from './repairChoice';

const sha = `sha256:${'0'.repeat(64)}`;
const write = (path: string, size: number) => ({ path, size, sha256: sha, kind: 'source' as const, source_path: path });

/** A repair of two drifted outputs: index.html edited (deleted, then written) and logo.png missing. */
const plan: ReplacePlan = {
  planVersion: 1,
  mode: 'repair',
  action: 'replace',
  destinationPath: '/d',
  destinationRealPath: '/d',
  destinationExists: true,
  sourcePath: '/s',
  stagingName: '.distributor-staging',
  nestedDestinations: [],
  deletes: [{ path: 'index.html', type: 'file', size: 5, changed: 'hash_mismatch' }],
  writes: [write('index.html', 10), write('logo.png', 20)],
  repair: {
    driftedCount: 2,
    repairs: [
      { path: 'index.html', status: 'hash_mismatch', origin: 'source_file' },
      { path: 'logo.png', status: 'missing', origin: 'source_file' },
    ],
    refused: [],
    extras: [],
    interruptedStaging: [],
  },
  fingerprint: { stateSha256: null, wholeTree: false, entries: [] },
  plannedAt: '2026-06-05T09:00:00Z',
  summary: { deleteCount: 1, writeCount: 2, deleteBytes: 5, writeBytes: 30, changedCount: 1 },
};

describe('the plan a repair’s confirmation counts', () => {
  it('is the plan as planned while every box is ticked', () => {
    expect(chosenPlan(plan, new Set())).toBe(plan);
  });

  it('leaves out an output unticked since the plan, so the confirmation counts only what will be rewritten', () => {
    const chosen = chosenPlan(plan, new Set(['index.html']));
    expect(chosen.writes.map((entry) => entry.path)).toEqual(['logo.png']);
    expect(chosen.deletes).toEqual([]);
    expect(planCounts(chosen)).not.toEqual(planCounts(plan));
  });

  it('shows a plan that kept an output as it was, when that output is ticked again (its bytes are not in it)', () => {
    const planned = selectRepair(plan, ['logo.png']);
    if (!planned.ok) throw new Error(planned.error.message);
    expect(chosenPlan(planned.value, new Set())).toBe(planned.value);
    expect(chosenPlan(planned.value, new Set(['logo.png']))).toBe(planned.value);
  });
});
