// The rows the API hands out about destinations (a scan row, a verify result, a listing) and the
// small field shapes every method's request uses. Re-exported by shared/api.ts, where importers read them.

import { z } from 'zod';
import { destinationInspectionSchema } from './inspection';
import { scanSummarySchema, verifyReportSchema } from './verifyReport';
import { workspaceDestinationSchema } from './workspaceSchema';
import { verifyStampSchema } from './verifyFreshnessSchema';
import { syncStatusSchema } from './syncStatus';

/** An opaque handle the engine hands out and resolves; meaningless outside the session that made it. */
export const handle = z.string().min(1).max(200);
/** A path the operator typed or picked (workspace, source bundle): read, never written. */
export const userPath = z.string().min(1, { message: 'must not be empty' }).max(4096);

/** One destination of the open workspace; its `id` is the handle every request about it carries. */
export const destinationEntrySchema = workspaceDestinationSchema;
export type DestinationEntry = z.infer<typeof destinationEntrySchema>;

/** How a client reaches the engine: Electron IPC, HTTP on 127.0.0.1, the agent's JSON lines over ssh, or the command line in process. */
export const transportSchema = z.enum(['electron', 'http', 'agent', 'cli']);
export type Transport = z.infer<typeof transportSchema>;

/** One destination's row after a scan: status from the disk alone (an interrupted replace is an issue). */
export const scanEntrySchema = z.object({
  destination: handle,
  inspection: destinationInspectionSchema.omit({ stateText: true }),
  summary: scanSummarySchema,
  /** The sync axis (shared/syncStatus.ts): Compare's decision against the configured source; absent when not decided. */
  sync: syncStatusSchema.optional(),
});
export type ScanEntry = z.infer<typeof scanEntrySchema>;

/** A verify result with its stamp: when it was taken and the fingerprint it was taken with (shared/verifyFreshness.ts). */
export const verifyEntrySchema = z.object({ destination: handle, report: verifyReportSchema, stamp: verifyStampSchema });
export type VerifyEntry = z.infer<typeof verifyEntrySchema>;

/**
 * A destination as one read of its disk found it: its row, and the verify taken in that same read (a
 * verify job's item, an apply's), absent when there was none (not managed, or an apply that wrote no
 * state). One read: the row's status and the report never describe two different moments.
 */
export const destinationReadSchema = z.object({ entry: scanEntrySchema, verify: verifyEntrySchema.optional() });
export type DestinationRead = z.infer<typeof destinationReadSchema>;

export const listingEntrySchema = z.object({
  /** Relative to the destination, `/`-separated. */
  path: z.string(),
  type: z.enum(['file', 'directory', 'symlink', 'other']),
  sizeBytes: z.number(),
  /** For a symbolic link: what it points at, read with readlink, never followed. */
  linkTarget: z.string().optional(),
});
export type ListingEntry = z.infer<typeof listingEntrySchema>;
