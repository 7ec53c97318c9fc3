// A workspace of many empty destinations and their scan rows, for the tests of a large list's start
// (listPages, restOfList, earlyScan): every destination under /w/destinations, none with content.
// Tests only.

import type { DestinationEntry, ScanEntry, Workspace } from '../../shared/api';

export const destinationEntry = (id: string): DestinationEntry => ({ id, path: `/w/destinations/${id}`, replacePolicy: 'allow' });

/** `count` destinations named by `idOf`, listed at `listReadAt`. */
export const workspaceOf = (
  count: number,
  listReadAt = '2026-12-04T06:00:00.000Z',
  idOf: (index: number) => string = (index) => `site-${index}`,
): Workspace => ({
  path: '/w/distributor-inspector.json',
  kind: 'file',
  root: '/w',
  destinations: Array.from({ length: count }, (_, index) => destinationEntry(idOf(index))),
  issues: [],
  listReadAt,
});

/** The scan's row of an empty destination. */
export const emptyScanRow = (id: string): ScanEntry => ({
  destination: id,
  inspection: { path: `/w/destinations/${id}`, status: 'empty', issues: [], hasContent: false },
  summary: { status: 'empty', outputCount: 0, errorCount: 0, warningCount: 0 },
});

/** The host's answer to `workspaceDestinations` (the request as the page sends it): a page of the whole list. */
export function destinationsPage(whole: Workspace, request: unknown, listReadAt = whole.listReadAt) {
  const { from, count } = request as { from: number; count: number };
  return {
    ok: true as const,
    value: { destinations: whole.destinations.slice(from, from + count), total: whole.destinations.length, listReadAt },
  };
}
