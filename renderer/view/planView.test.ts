import { describe, expect, it } from 'vitest';
import type { ReplacePlan } from '../../shared/plan';
import { planRows } from '../../shared/planRows';
import { bundleName, changedWarning, confirmLabel, planSourceWords, planSummary, readPlan, rollbackWarning } from './planView';
import { describeComparison } from '../../shared/comparisonWords';

const sha = `sha256:${'b'.repeat(64)}`;
const plan = {
  planVersion: 1,
  mode: 'replace',
  action: 'replace',
  destinationPath: '/w/destinations/docs-us',
  destinationRealPath: '/w/destinations/docs-us',
  destinationExists: true,
  sourcePath: '/w/sources/handbook-2026-06',
  comparison: { decision: 'replace', rule: 6, explanation: describeComparison({ decision: 'replace', rule: 6 }) },
  deletes: [
    { path: '.distributor.json', type: 'file', size: 2048 },
    { path: 'data/regions.csv', type: 'file', size: 30 },
    { path: 'data', type: 'directory', size: 0 },
  ],
  writes: [{ path: 'index.html', size: 171, sha256: sha, kind: 'generated', source_path: 'index.md' }],
  stagingName: '.distributor-staging',
  nestedDestinations: [],
  fingerprint: { stateSha256: sha, wholeTree: false, entries: [] },
  plannedAt: '2026-06-04T12:00:00Z',
  summary: { deleteCount: 3, writeCount: 1, deleteBytes: 2078, writeBytes: 171, changedCount: 0 },
};

describe('the plan as the Actions tab shows it', () => {
  it('sums the plan up in bytes', () => {
    const read = readPlan(plan);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(planSummary(read.value)).toBe('171 B written, 2.0 KiB removed');
  });

  it('names the counts on the confirm button, and says force when forced', () => {
    const read = readPlan(plan);
    if (!read.ok) throw new Error(read.error);
    expect(confirmLabel(read.value)).toBe('Replace: create 1 file, delete 2 files (the state file among them) and 1 folder');
    expect(confirmLabel({ ...read.value, mode: 'force' })).toBe(
      'Forced replace: create 1 file, delete 2 files (the state file among them) and 1 folder',
    );
  });

  it('marks every output changed on disk since published, and the confirm button says how many will be lost', () => {
    const changed = {
      ...plan,
      deletes: [plan.deletes[0], { ...plan.deletes[1], changed: 'hash_mismatch' }, plan.deletes[2]],
      summary: { ...plan.summary, changedCount: 1 },
    };
    const read = readPlan(changed);
    if (!read.ok) throw new Error(read.error);
    expect(
      planRows(read.value)
        .rows.filter((row) => row.changed)
        .map((row) => row.path),
    ).toEqual(['data/regions.csv']);
    expect(confirmLabel(read.value)).toBe(
      'Replace: create 1 file, delete 2 files (the state file among them) and 1 folder (1 changed on disk since published: will be lost)',
    );
    expect(changedWarning(read.value)).toContain('1 recorded output was changed on disk since published');
    expect(changedWarning(readPlan(plan).ok ? (readPlan(plan) as { value: typeof read.value }).value : read.value)).toBeUndefined();
  });

  it('refuses to show a plan it cannot read, saying so', () => {
    const read = readPlan({ ...plan, deletes: 'everything' });
    expect(read).toEqual({ ok: false, error: expect.stringContaining('the plan could not be read') });
  });
});

describe('the source bundle a plan publishes', () => {
  const manifest = { schema_version: 1, id: 'handbook', digest: sha, created: '2026-05-01T09:00:00Z', files: [] };
  const withState = {
    ...(plan as unknown as ReplacePlan),
    newState: { source: { manifest } } as unknown as ReplacePlan['newState'],
  };

  it('is named by its folder on the confirm button, whatever the separator', () => {
    expect(bundleName(plan as unknown as ReplacePlan)).toBe('handbook-2026-06');
    expect(bundleName({ ...(plan as unknown as ReplacePlan), sourcePath: 'C:\\bundles\\v1\\' })).toBe('v1');
  });

  it('is described by what its manifest records, or not at all when the plan publishes nothing', () => {
    expect(planSourceWords(withState)).toBe('handbook, created 2026-05-01 09:00:00 UTC');
    expect(planSourceWords(plan as unknown as ReplacePlan)).toBeUndefined();
  });

  it('says a forced replace from an older bundle rolls back, and nothing else does', () => {
    const older: ReplacePlan = { ...withState, comparison: { ...withState.comparison!, decision: 'skip_newer' as const, rule: 7 } };
    expect(rollbackWarning({ ...older, mode: 'force' })).toContain('rolls the destination back');
    expect(rollbackWarning({ ...older, mode: 'replace' })).toBeUndefined();
    expect(rollbackWarning({ ...withState, mode: 'force' })).toBeUndefined();
  });
});
