// A replace plan as the engine sends it, for the renderer's component tests: plain data that passes
// replacePlanSchema, with as many deletions as asked. Test support only; nothing in the app imports it.

import { describeComparison } from '../../shared/comparisonWords';
import type { ReplacePlan } from '../../shared/plan';
import { planKindOf } from '../../shared/planKinds';

const SHA = `sha256:${'b'.repeat(64)}`;

export interface SamplePlanOptions {
  mode?: ReplacePlan['mode'];
  decision?: NonNullable<ReplacePlan['comparison']>['decision'];
  /** Deletions besides the state file, named page-1.html, page-2.html, … */
  extraDeletes?: number;
  /** The workspace's replace policy allows a replace: the engine words the decision with it. */
  replaceAllowed?: boolean;
}

export function samplePlan({
  mode = 'replace',
  decision = 'replace',
  extraDeletes = 2,
  replaceAllowed = true,
}: SamplePlanOptions = {}): ReplacePlan {
  const deletes: ReplacePlan['deletes'] = [
    { path: '.distributor.json', type: 'file', size: 2048 },
    ...Array.from({ length: extraDeletes }, (_, i) => ({ path: `page-${i + 1}.html`, type: 'file' as const, size: 100 })),
  ];
  const writes: ReplacePlan['writes'] = [
    { path: 'index.html', size: 171, sha256: SHA, kind: 'generated', source_path: 'index.md' },
    { path: 'style.css', size: 30, sha256: SHA, kind: 'source', source_path: 'style.css' },
  ];
  return {
    planVersion: 1,
    mode,
    action: 'replace',
    destinationPath: '/w/destinations/legacy-site',
    destinationRealPath: '/w/destinations/legacy-site',
    destinationExists: true,
    sourcePath: '/w/sources/handbook-2026-06',
    comparison: { decision, rule: 6, explanation: describeComparison({ decision, rule: 6 }, { replaceAllowed }) },
    deletes,
    writes,
    fingerprint: { stateSha256: SHA, wholeTree: planKindOf(mode).deletesWholeTree, entries: [] },
    plannedAt: '2026-06-04T12:00:00Z',
    stagingName: '.distributor-staging',
    nestedDestinations: [],
    summary: {
      deleteCount: deletes.length,
      writeCount: writes.length,
      deleteBytes: deletes.reduce((sum, entry) => sum + entry.size, 0),
      changedCount: deletes.filter((entry) => entry.changed !== undefined).length,
      writeBytes: writes.reduce((sum, entry) => sum + entry.size, 0),
    },
  };
}

/** A repair plan as the engine sends it: two drifted outputs rewritten, `refused` more refused by name, one extra kept. */
export function sampleRepairPlan({ refused = 0 }: { refused?: number } = {}): ReplacePlan {
  const base = samplePlan();
  const writes: ReplacePlan['writes'] = [
    { path: 'index.html', size: 171, sha256: SHA, kind: 'generated', source_path: 'index.md' },
    { path: 'style.css', size: 30, sha256: SHA, kind: 'source', source_path: 'style.css' },
  ];
  const refusals = Array.from({ length: refused }, (_, i) => ({
    path: `page-${i + 1}.html`,
    status: 'hash_mismatch' as const,
    code: 'source_changed',
    message: `the expected bytes are not available for page-${i + 1}.html: the source changed since`,
  }));
  return {
    ...base,
    mode: 'repair',
    comparison: { decision: 'skip', rule: 4, explanation: describeComparison({ decision: 'skip', rule: 4 }, { replaceAllowed: true }) },
    deletes: [{ path: 'index.html', type: 'file', size: 12, changed: 'hash_mismatch' }],
    writes,
    repair: {
      driftedCount: 2 + refused,
      repairs: [
        { path: 'index.html', status: 'hash_mismatch', origin: 'regenerated' },
        { path: 'style.css', status: 'missing', origin: 'source_file' },
      ],
      refused: refusals,
      extras: ['notes.txt'],
      interruptedStaging: [],
    },
    summary: { deleteCount: 1, writeCount: 2, deleteBytes: 12, writeBytes: 201, changedCount: 1 },
  };
}

/** A discard-staging plan: one staging folder of an interrupted replace with three staged files. */
export function sampleDiscardPlan(): ReplacePlan {
  const { comparison: _comparison, ...base } = samplePlan();
  return {
    ...base,
    mode: 'discard_staging',
    sourcePath: '',
    stagingName: '',
    deletes: [{ path: '.distributor-staging', type: 'directory', size: 0 }],
    writes: [],
    staging: [
      {
        name: '.distributor-staging',
        marker: {
          mode: 'replace',
          source: { id: 'handbook', digest: SHA },
          created: '2026-06-05T09:30:00Z',
          plannedAt: '2026-06-05T09:29:00Z',
          pipeline_id: 'docs',
          destination_id: 'legacy-site',
        },
        stagedFiles: 3,
        stagedBytes: 2048,
        trashEntries: 0,
        stateTemp: false,
      },
    ],
    summary: { deleteCount: 1, writeCount: 0, deleteBytes: 2048, writeBytes: 0, changedCount: 0 },
  };
}
