// What verifying a destination and scanning a workspace yield, as zod schemas: the engine fills them,
// the API carries them, the CLI and the renderer show them. Types come from here, never written twice.

import { z } from 'zod';
import { destinationInspectionSchema, destinationStatusSchema } from './inspection';
import { workspaceDestinationSchema } from './workspaceSchema';

/** What is on disk at an output path when it is not a regular file. `link_in_path`: a parent directory is a link. */
export const fileKindSchema = z.enum([
  'file',
  'directory',
  'symlink',
  'fifo',
  'socket',
  'block_device',
  'character_device',
  'link_in_path',
  'other',
]);
export type FileKind = z.infer<typeof fileKindSchema>;

export const outputStatusSchema = z.enum(['ok', 'missing', 'size_mismatch', 'hash_mismatch', 'not_a_file']);
export type OutputStatus = z.infer<typeof outputStatusSchema>;

export const outputVerificationSchema = z.object({
  path: z.string(),
  status: outputStatusSchema,
  /** As recorded in the state file. */
  expected: z.object({ sha256: z.string(), size: z.number() }).optional(),
  /** As found on disk, when it differs from expected (never for ok): sha256 only when hashed (a size mismatch is not read), kind when not a file. */
  // In the engine's key order (size, sha256, kind, linkTarget): zod writes keys in schema order, and
  // an agent's answer must print exactly as the local one.
  actual: z
    .object({
      size: z.number().optional(),
      sha256: z.string().optional(),
      kind: fileKindSchema.optional(),
      /** For a symbolic link: what it points at, read with readlink, never followed. */
      linkTarget: z.string().optional(),
    })
    .optional(),
  /** Why an output could not be read (permission denied, an I/O error): reported, never thrown. */
  error: z.string().optional(),
});
export type OutputVerification = z.infer<typeof outputVerificationSchema>;

export const verifyReportSchema = z.object({
  /** intact when every output is ok; extra files do not by themselves make a destination drifted. */
  status: z.enum(['intact', 'drifted']),
  outputs: z.array(outputVerificationSchema),
  /** Paths in the destination that are neither outputs, the state file nor the staging folder; an empty directory ends in "/". */
  extra: z.array(z.string()),
});
export type VerifyReport = z.infer<typeof verifyReportSchema>;

// Keys in the order the engine writes them (scanReader.ts, judgeOutputs.ts): a report parsed by zod
// (an agent's, over ssh) then prints exactly as a local one does in `scan --json`.
/** What the destination list shows for one row, without opening the inspection. */
export const scanSummarySchema = z.object({
  status: destinationStatusSchema,
  outputCount: z.number(),
  errorCount: z.number(),
  warningCount: z.number(),
  /** From the state file when it has them as strings, also when the state is invalid. */
  pipeline_id: z.string().optional(),
  destination_id: z.string().optional(),
  published_at: z.string().optional(),
});
export type ScanSummary = z.infer<typeof scanSummarySchema>;

export const scanRowSchema = z.object({
  destination: workspaceDestinationSchema,
  inspection: destinationInspectionSchema.omit({ stateText: true }),
  summary: scanSummarySchema,
  /** With scan's verify option: a managed destination verified against the state this scan read. */
  verify: verifyReportSchema.optional(),
});
export type ScanRow = z.infer<typeof scanRowSchema>;

export const scanCountsSchema = z.object({
  total: z.number(),
  empty: z.number(),
  unmanaged: z.number(),
  managed: z.number(),
  invalid: z.number(),
});
export type ScanCounts = z.infer<typeof scanCountsSchema>;

export const scanReportSchema = z.object({
  /** In workspace order (the order of `workspace.destinations`), whatever order they finished in. */
  rows: z.array(scanRowSchema),
  counts: scanCountsSchema,
});
export type ScanReport = z.infer<typeof scanReportSchema>;
