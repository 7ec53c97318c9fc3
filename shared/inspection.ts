// What inspecting one destination yields, as a zod schema: the engine fills it, the API carries it,
// the CLI and the renderer show it. Types come from here, never written twice.

import { z } from 'zod';
import { issueSchema } from './issueSchema';

export const destinationStatusSchema = z.enum(['empty', 'unmanaged', 'managed', 'invalid']);
export type DestinationStatus = z.infer<typeof destinationStatusSchema>;

export const destinationInspectionSchema = z.object({
  /** Absolute path of the destination bundle path. */
  path: z.string(),
  status: destinationStatusSchema,
  issues: z.array(issueSchema),
  /** The state file as parsed JSON whenever it is a JSON object, also when invalid. Valid exactly when status is managed. */
  stateJson: z.record(z.string(), z.unknown()).optional(),
  /** The state file's text as on disk, when asked for (raw view). */
  stateText: z.string().optional(),
  /**
   * sha256 of the state file's bytes, when it exists and the reader was asked for it: an inspect
   * always, a scan only for a destination holding a verify result (what a plan's fingerprint starts from).
   */
  stateSha256: z.string().optional(),
  /**
   * Set when the state file is too large to hand on (an invalid state past
   * INVALID_STATE_SHOWN_MAX_BYTES, or one too large to parse): stateJson and stateText are absent.
   */
  stateWithheld: z.object({ sizeBytes: z.number().int().nonnegative() }).optional(),
  /** Whether the directory holds anything besides a state file. */
  hasContent: z.boolean(),
  /**
   * A digest of the folder's own entry names and its modification time (engine/listingDigest.ts),
   * when it is a directory and the reader was asked for it, as stateSha256: with it, the fingerprint
   * a verify result is kept fresh by (shared/verifyFreshness.ts).
   */
  listingDigest: z.string().optional(),
  /**
   * Set on a re-read of a destination that holds a verify result (electron/service/rereadOutputs.ts):
   * a digest of its hashed outputs' lstat signatures now, the fingerprint's `outputs` part.
   */
  outputsDigest: z.string().optional(),
});
export type DestinationInspectionData = z.infer<typeof destinationInspectionSchema>;
