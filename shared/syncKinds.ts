// The sync axis's kinds (shared/syncStatus.ts makes its zod enum of them), in the chips' order: what
// needs a decision first. Apart from the schema so that the page's first screen (the chips) does not
// evaluate zod. Pure.

export const SYNC_KINDS = [
  'up_to_date',
  'publish_waiting',
  'destination_newer',
  'conflict',
  'unmanaged',
  'no_source',
  'source_unreadable',
] as const;
