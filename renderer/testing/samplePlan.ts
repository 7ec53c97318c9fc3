// A replace plan as the engine sends it, for the renderer's component tests: plain data that passes
// replacePlanSchema, with as many deletions as asked. Test support only; nothing in the app imports it.

import { describeComparison } from '../../shared/comparisonWords';
import type { ReplacePlan } from '../../shared/plan';

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
    fingerprint: { stateSha256: SHA, wholeTree: mode === 'force', entries: [] },
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
