// A replace plan for the pure functions' tests: the fields every plan has, filled with plain values,
// and the deletes and writes the test is about. Test support only; nothing in the app imports it.

import type { ReplacePlan } from './plan';

/** A replace plan of `/w/s` into `/w/d` with these parts; the summary counts the deletes and writes. */
export function samplePlanOf(parts: Partial<ReplacePlan> & Pick<ReplacePlan, 'deletes' | 'writes'>): ReplacePlan {
  return {
    planVersion: 1,
    mode: 'replace',
    action: 'replace',
    destinationPath: '/w/d',
    destinationRealPath: '/w/d',
    destinationExists: true,
    sourcePath: '/w/s',
    stagingName: '.distributor-staging',
    nestedDestinations: [],
    fingerprint: { stateSha256: null, wholeTree: false, entries: [] },
    plannedAt: '2026-06-04T12:00:00Z',
    summary: { deleteCount: parts.deletes.length, writeCount: parts.writes.length, deleteBytes: 0, writeBytes: 0, changedCount: 0 },
    ...parts,
  };
}
