// The marker file of a staging folder (staging.ts), as a zod schema. Imports zod: the readers of a
// destination reach it through schemasOnDemand.ts, only when a staging-named folder has a marker.
// Imports nothing of staging.ts (which loads it on demand): its kind is written here, and
// staging.ts's STAGING_MARKER_KIND is type-checked against it.

import { z } from 'zod';

export const stagingMarkerSchema = z.object({
  kind: z.literal('distributor-inspector-staging'),
  version: z.literal(1),
  /** When the apply created the folder (RFC 3339). */
  created: z.string().min(1),
  /** A repair stages too (the recorded publication's outputs), an adopt only its state; discard staging makes no staging folder. */
  mode: z.enum(['replace', 'force', 'repair', 'adopt']),
  /** The publication being written: the source manifest's id and digest, and when the plan was made. */
  source: z.object({ id: z.string(), digest: z.string() }),
  plannedAt: z.string(),
  pipeline_id: z.string(),
  destination_id: z.string(),
});
