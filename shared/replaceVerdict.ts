// THE rule that decides whether a normal replace may run on a destination, for Compare and for the
// planner alike: the comparison's decision, the workspace's replace policy and a staging folder left
// by an interrupted replace. Compare words its verdict (comparisonWords.ts), planReplace refuses by
// it with the same code and words; neither has a rule of its own. Pure. A forced replace is not
// decided here beyond "allowed": it clears a staging folder and takes any decision over; only the
// planner's checks of the disk itself (mount points, protected paths, owners) can refuse it.

import { z } from 'zod';
import type { Comparison } from './compare';

export interface ReplaceFacts {
  comparison: Comparison;
  /** The workspace's replace policy for the destination allows a replace (default: it does). */
  replaceAllowed?: boolean;
  /** The first staging folder an interrupted replace left (the `interrupted` issue of inspect), if any. */
  interruptedStaging?: string;
}

export const normalReplaceVerdictSchema = z.discriminatedUnion('outcome', [
  /** A replace (or a first publish) may be planned and applied. */
  z.object({ outcome: z.literal('allowed') }),
  /** Nothing to publish: the destination holds this source (skip) or a newer one (skip_newer). */
  z.object({ outcome: z.literal('nothing') }),
  /** Refused, with the code the planner's refusal carries. */
  z.object({ outcome: z.literal('refused'), code: z.string(), details: z.record(z.string(), z.unknown()) }),
]);
export type NormalReplaceVerdict = z.infer<typeof normalReplaceVerdictSchema>;

export function normalReplaceVerdict({ comparison, replaceAllowed = true, interruptedStaging }: ReplaceFacts): NormalReplaceVerdict {
  // First: whatever the manifests say, a half-written publication is in the folder.
  if (interruptedStaging !== undefined) return { outcome: 'refused', code: 'interrupted', details: { path: interruptedStaging } };
  const { decision } = comparison;
  if (decision === 'skip' || decision === 'skip_newer') return { outcome: 'nothing' };
  if (decision === 'publish') return { outcome: 'allowed' };
  if (decision === 'replace')
    return replaceAllowed ? { outcome: 'allowed' } : { outcome: 'refused', code: 'policy_denies_replace', details: { decision } };
  const details: Record<string, unknown> = { decision };
  if (comparison.reason) details.reason = comparison.reason;
  if (comparison.mismatches) details.mismatches = comparison.mismatches;
  return { outcome: 'refused', code: decision === 'conflict' ? `conflict_${comparison.reason ?? 'unknown'}` : decision, details };
}

/** The staging folder of the `interrupted` issue, as the facts take it. */
export function interruptedStagingOf(issues: readonly { code: string; path: readonly (string | number)[] }[]): string | undefined {
  const issue = issues.find((candidate) => candidate.code === 'interrupted');
  return issue ? String(issue.path[0] ?? '') : undefined;
}
