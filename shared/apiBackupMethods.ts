// The API methods about what applies left behind: the history journal, and the backups (list,
// plan a restore, prune). Part of the one table in shared/api.ts.

import { z } from 'zod';
import { handle } from './apiEntries';
import { spec, type MethodSpec } from './apiSpec';
import { backupListSchema, backupSummarySchema, backupTargetInfoSchema, restorePlanSchema } from './backupSchema';
import { historyLineIssueSchema, historyRecordSchema } from './historySchema';
import { confirmationLevelSchema } from './planSchema';

export const backupMethods = {
  history: spec({
    summary:
      "The open workspace's history journal: every replace applied, refused or failed (of one destination, or all), a page at a time: the newest `limit` (default 200) before `cursor`, oldest first",
    request: z.strictObject({
      destination: handle.optional(),
      /** `nextCursor` of the newer page: this page holds the records before it. Absent: the newest. */
      cursor: z.string().max(20).optional(),
      limit: z.number().int().min(1).max(1000).optional(),
    }),
    response: z.object({
      /** The journal file read (beside the workspace file, or where the workspace says). */
      file: z.string(),
      records: z.array(historyRecordSchema),
      /** Lines that could not be read, by number (a torn last record after a crash). */
      issues: z.array(historyLineIssueSchema),
      /** Only the newest part of a very large journal was read. */
      truncated: z.boolean(),
      /** Where the next older page starts; absent when there is nothing older. */
      nextCursor: z.string().optional(),
    }),
  }),
  listBackups: spec({
    summary:
      "The open workspace's backups (docs/backups.md), newest first, of one destination or all, with their sizes and times; for one destination, also where its next apply's backup goes",
    request: z.strictObject({ destination: handle.optional() }),
    response: backupListSchema.extend({
      /** With `destination`: where an apply of it keeps what it removes (rename or copy), or that backups are off. */
      target: backupTargetInfoSchema.optional(),
    }),
  }),
  planRestore: spec({
    summary:
      'Plan the restore of a backup: the destination put back exactly as it was before the apply that made it; refused when it changed since. Applied by applyPlan with `confirm` equal to the destination id',
    request: z.strictObject({ destination: handle, backup: z.string().min(1).max(200) }),
    response: z.object({
      planId: handle,
      plan: restorePlanSchema,
      /** What the operator must type to apply it: the destination id. */
      confirmText: z.string(),
      /** Always `typed_id`: a restore keeps no backup of what it removes (docs/confirmations.md). */
      confirmation: confirmationLevelSchema,
    }),
  }),
  pruneBackups: spec({
    summary: "Keep only the newest backups of each destination (the workspace's `keep`, default 5), of one destination or all",
    request: z.strictObject({ destination: handle.optional() }),
    response: z.object({ removed: z.array(backupSummarySchema), kept: z.number() }),
  }),
} satisfies Record<string, MethodSpec>;
