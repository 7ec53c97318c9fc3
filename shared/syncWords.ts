// The sync axis's kinds in words, for chips, badges and the CLI's table. Apart from syncStatus.ts
// (and its zod schemas) so a command that prints a scan loads no zod for it.

import type { SyncKind } from './syncStatus';

/** How a list row names a sync kind (chips, badge). */
export const SYNC_LABELS: Record<SyncKind, string> = {
  up_to_date: 'up to date',
  publish_waiting: 'publish waiting',
  destination_newer: 'destination newer',
  conflict: 'conflict',
  unmanaged: 'unmanaged',
  no_source: 'no source',
  source_unreadable: 'source unreadable',
};
