// The sync of a destination the workspace names no source for: nothing to compare it with. Apart from
// syncStatus.ts (and the zod its schemas load), so a scan of a workspace without sources says it
// without loading the comparison rules. Imports nothing.

export const NO_SOURCE_SYNC = {
  kind: 'no_source',
  title: 'No source configured',
  sentence: 'The workspace file names no source bundle for this destination: there is nothing to compare it with.',
} as const;
