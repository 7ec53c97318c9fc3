// The comparison of CONTRACT.md: the current source manifest against what a destination holds.
// Nine ordered rules; the first that applies decides. Pure: the caller reads the disk.

import { z } from 'zod';
import { isEmptyDiff, diffManifests } from './diffManifests';
import type { Manifest } from './manifestSchema';
import { compareTimestamps } from './rfc3339';
import type { State } from './stateSchema';

export const decisionSchema = z.enum(['publish', 'unmanaged', 'conflict', 'skip', 'replace', 'skip_newer']);
export type Decision = z.infer<typeof decisionSchema>;
export const conflictReasonSchema = z.enum(['invalid_state', 'identity_mismatch', 'digest_mismatch', 'manifest_mismatch']);
export type ConflictReason = z.infer<typeof conflictReasonSchema>;

export type DestinationState = { status: 'managed'; state: State } | { status: 'invalid' } | { status: 'none' };

export interface ConfiguredIds {
  /** When omitted, the state's own id is taken as configured (nothing to mismatch). */
  pipelineId?: string;
  destinationId?: string;
}

export const identityMismatchSchema = z.object({
  field: z.enum(['pipeline_id', 'destination_id', 'source.manifest.id']),
  expected: z.string(),
  actual: z.string(),
});
export type IdentityMismatch = z.infer<typeof identityMismatchSchema>;

export const comparisonSchema = z.object({
  decision: decisionSchema,
  reason: conflictReasonSchema.optional(),
  /** The rule of CONTRACT.md (1–9) that decided. */
  rule: z.number().int(),
  mismatches: z.array(identityMismatchSchema).optional(),
});
export type Comparison = z.infer<typeof comparisonSchema>;

/** What an inspection says the comparison may rely on: a valid state, an invalid one, or none. */
export function destinationStateOf(inspection: { status: string; state?: State }): DestinationState {
  if (inspection.status === 'managed' && inspection.state) return { status: 'managed', state: inspection.state };
  if (inspection.status === 'invalid') return { status: 'invalid' };
  return { status: 'none' };
}

export interface CompareInput {
  destination: DestinationState;
  /** Whether the destination directory holds anything (only read when there is no state). */
  hasContent: boolean;
  source: Manifest;
  configured?: ConfiguredIds;
}

export function compare({ destination, hasContent, source, configured = {} }: CompareInput): Comparison {
  if (destination.status === 'none') return hasContent ? { decision: 'unmanaged', rule: 2 } : { decision: 'publish', rule: 1 };
  if (destination.status === 'invalid') return { decision: 'conflict', reason: 'invalid_state', rule: 3 };

  const { state } = destination;
  const recorded = state.source.manifest;
  const mismatches: IdentityMismatch[] = [];
  if (configured.pipelineId !== undefined && configured.pipelineId !== state.pipeline_id) {
    mismatches.push({ field: 'pipeline_id', expected: configured.pipelineId, actual: state.pipeline_id });
  }
  if (configured.destinationId !== undefined && configured.destinationId !== state.destination_id) {
    mismatches.push({ field: 'destination_id', expected: configured.destinationId, actual: state.destination_id });
  }
  if (recorded.id !== source.id) mismatches.push({ field: 'source.manifest.id', expected: source.id, actual: recorded.id });
  if (mismatches.length > 0) return { decision: 'conflict', reason: 'identity_mismatch', rule: 4, mismatches };

  // Rule 5 compares everything the rules after it look at; ids are already equal by rule 4.
  if (isEmptyDiff(diffManifests(recorded, source))) return { decision: 'skip', rule: 5 };
  const order = compareTimestamps(source.created, recorded.created);
  if (order > 0) return { decision: 'replace', rule: 6 };
  if (order < 0) return { decision: 'skip_newer', rule: 7 };
  if (recorded.digest !== source.digest) return { decision: 'conflict', reason: 'digest_mismatch', rule: 8 };
  return { decision: 'conflict', reason: 'manifest_mismatch', rule: 9 };
}
