// The source bundles a workspace holds, as the API lists them for Compare and Actions to plan from
// (the browser host's answer to a folder picker): where each is, and what its manifest says it is.
// Shapes and their order only; electron/engine/sourceBundles.ts finds them on disk.

import { z } from 'zod';
import { compareTimestamps } from './rfc3339';

export const sourceBundleEntrySchema = z.object({
  /** The bundle folder (holding manifest.json), absolute: what compare and planReplace take as `source`. */
  path: z.string(),
  /** The same, relative to the workspace folder with `/` (absolute when outside it): what the list shows. */
  shownPath: z.string(),
  /** From the manifest when it is valid: its id, digest and created time (and `version` when it records one). */
  manifest: z
    .object({ id: z.string(), digest: z.string(), created: z.string(), fileCount: z.number(), version: z.string().optional() })
    .optional(),
  /** Why the manifest is not valid (the first problem, with its field): listed, but not offered to plan from. */
  problem: z.string().optional(),
  /** The destinations whose workspace entry configures this bundle as their source. */
  configuredFor: z.array(z.string()),
});
export type SourceBundleEntry = z.infer<typeof sourceBundleEntrySchema>;

export const sourceBundleListSchema = z.object({
  /** Where relative paths are read from: the workspace's folder. */
  root: z.string(),
  bundles: z.array(sourceBundleEntrySchema),
  /** The search stopped at its bounds (folders looked into, bundles found): more may exist. */
  truncated: z.boolean(),
});
export type SourceBundleList = z.infer<typeof sourceBundleListSchema>;

/**
 * Valid bundles first, grouped by manifest id, newest created first within an id (the one to roll
 * back to sits right below the current one); then the invalid ones by path. Pure; a new array.
 */
export function sortSourceBundles(bundles: readonly SourceBundleEntry[]): SourceBundleEntry[] {
  const byPath = (a: SourceBundleEntry, b: SourceBundleEntry) => (a.shownPath < b.shownPath ? -1 : a.shownPath > b.shownPath ? 1 : 0);
  return [...bundles].sort((a, b) => {
    if (a.manifest && b.manifest) {
      if (a.manifest.id !== b.manifest.id) return a.manifest.id < b.manifest.id ? -1 : 1;
      return -compareTimestamps(a.manifest.created, b.manifest.created) || byPath(a, b);
    }
    if (a.manifest) return -1;
    if (b.manifest) return 1;
    return byPath(a, b);
  });
}
