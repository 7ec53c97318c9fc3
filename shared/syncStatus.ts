// The sync axis beside health: what Compare would decide for a destination against the source the
// workspace configures for it, as a second status a list row, the export and `scan` carry. Decided by
// the contract's ordered rules (compare.ts) and worded by the one wording (comparisonWords.ts), never
// again here: this module only names the outcome for chips and gates. Pure; the caller reads the disk.
// Sync never hashes outputs: a manifest that matches is "up to date" here, and what verify found
// (drift) is the health axis, stated beside it.

import { z } from 'zod';
import {
  compare,
  conflictReasonSchema,
  decisionSchema,
  destinationStateOf,
  type ConfiguredIds,
  type Decision,
  type DestinationState,
} from './compare';
import { describeComparison } from './comparisonWords';
import { NO_SOURCE_SYNC } from './syncNoSource';
import { SYNC_KINDS } from './syncKinds';
import type { Manifest } from './manifestSchema';
import type { State } from './stateSchema';

export const syncKindSchema = z.enum(SYNC_KINDS);
export type SyncKind = z.infer<typeof syncKindSchema>;

export { SYNC_KINDS } from './syncKinds';

export const syncStatusSchema = z.object({
  kind: syncKindSchema,
  /** The contract's decision (compare.ts) and its conflict reason, when a source was read. */
  decision: decisionSchema.optional(),
  reason: conflictReasonSchema.optional(),
  /** Short, as Compare titles it ("Conflict: digest mismatch"). */
  title: z.string(),
  /** Why, in Compare's words (or why there is nothing to compare with). */
  sentence: z.string(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

/** The source a destination is compared with, as read: its manifest, or why it cannot be used. */
export type SyncSource = { ok: true; manifest: Manifest } | { ok: false; problem: string };

export interface SyncInput {
  destination: DestinationState;
  hasContent: boolean;
  /** Undefined when the workspace configures no source for the destination. */
  source: SyncSource | undefined;
  configured?: ConfiguredIds;
  replaceAllowed?: boolean;
}

const KIND_OF: Record<Decision, SyncKind> = {
  skip: 'up_to_date',
  replace: 'publish_waiting',
  publish: 'publish_waiting',
  skip_newer: 'destination_newer',
  conflict: 'conflict',
  unmanaged: 'unmanaged',
};

export function syncKindOf(decision: Decision): SyncKind {
  return KIND_OF[decision];
}

export function syncOf(input: SyncInput): SyncStatus {
  if (input.source === undefined) return NO_SOURCE_SYNC;
  if (!input.source.ok)
    return {
      kind: 'source_unreadable',
      title: 'Source unreadable',
      sentence: `The configured source cannot be read: ${input.source.problem}`,
    };
  const comparison = compare({
    destination: input.destination,
    hasContent: input.hasContent,
    source: input.source.manifest,
    configured: input.configured,
  });
  // An interrupted replace is the health axis's to say; here, what the manifests decide behind it.
  const words = describeComparison(comparison, { replaceAllowed: input.replaceAllowed ?? true });
  return {
    kind: syncKindOf(comparison.decision),
    decision: comparison.decision,
    ...(comparison.reason ? { reason: comparison.reason } : {}),
    title: words.title,
    sentence: words.sentence,
  };
}

/** The sync of one destination from a read of it (its status, its valid state when managed, whether it holds anything). */
export function syncOfInspection(
  destination: { pipelineId?: string; destinationId?: string; replacePolicy?: 'allow' | 'deny' },
  inspection: { status: string; state?: State; hasContent: boolean },
  source: SyncSource | undefined,
): SyncStatus {
  return syncOf({
    destination: destinationStateOf(inspection),
    hasContent: inspection.hasContent,
    source,
    configured: { pipelineId: destination.pipelineId, destinationId: destination.destinationId },
    replaceAllowed: destination.replacePolicy !== 'deny',
  });
}
