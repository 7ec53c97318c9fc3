// The API methods that read destinations: scan, inspect, verify, compare with a source (its manifest,
// or folder against folder), a file's content diff, and the source bundles to compare with. Part of the one table in shared/api.ts.

import { z } from 'zod';
import { destinationEntrySchema, destinationReadSchema, handle, listingEntrySchema, scanEntrySchema, userPath } from './apiEntries';
import { empty, jobStarted, spec, type MethodSpec } from './apiSpec';
import { comparisonSchema } from './compare';
import { comparisonWordsSchema } from './comparisonWords';
import { contentDiffSchema, diffAgainstSchema } from './contentDiff/contentDiffSchema';
import { manifestDiffSchema } from './diffManifests';
import { folderCompareSchema } from './folderCompare';
import { destinationInspectionSchema } from './inspection';
import { issueSchema } from './issueSchema';
import { outputDriftSchema } from './outputDrift';
import { sourceBundleListSchema } from './sourceBundles';
import { scanCountsSchema } from './verifyReport';

export const destinationMethods = {
  scan: spec({
    summary: 'Status of every destination (or the given ones), streamed as items',
    request: z.strictObject({ destinations: z.array(handle).optional() }),
    response: jobStarted,
    job: { item: scanEntrySchema, result: z.object({ counts: scanCountsSchema }) },
  }),
  inspectDestination: spec({
    summary: 'One destination: parsed state, raw text, issues, and the files on disk',
    request: z.strictObject({ destination: handle }),
    response: z.object({
      destination: destinationEntrySchema,
      inspection: destinationInspectionSchema,
      listing: z.object({ entries: z.array(listingEntrySchema), truncated: z.boolean() }),
    }),
  }),
  verify: spec({
    summary:
      'Hash every managed output of the given destinations (default: all managed); an item a destination: its row and its verify, from one read',
    request: z.strictObject({ destinations: z.array(handle).optional() }),
    response: jobStarted,
    // The row comes with the report, read in the same pass: a client never pairs a report with a row of another moment.
    job: { item: destinationReadSchema, result: z.object({ intact: z.number(), drifted: z.number(), skipped: z.number() }) },
  }),
  compare: spec({
    summary: "Compare a source bundle (or the destination's configured source) with what the destination holds",
    request: z.strictObject({
      destination: handle,
      source: userPath.optional(),
      /** The ids to compare with, instead of the workspace's configured ones (the CLI's --pipeline, --destination). */
      pipelineId: z.string().min(1).max(1000).optional(),
      destinationId: z.string().min(1).max(1000).optional(),
    }),
    response: z.object({
      sourcePath: z.string(),
      /** The manifest file read, and its warnings (unknown fields): what the CLI prints. */
      manifestFile: z.string().optional(),
      sourceIssues: z.array(issueSchema).optional(),
      /** The destination as this comparison read it. */
      destinationInspection: destinationInspectionSchema.pick({ path: true, status: true, issues: true }).optional(),
      comparison: comparisonSchema,
      /** The decision in the one wording, with the destination's replace policy: what the renderer shows. */
      explanation: comparisonWordsSchema,
      /** When the manifest matches (skip): the outputs verified against the state, those that differ, and the extras. */
      drift: outputDriftSchema.optional(),
      /** Present when the destination holds a valid state. */
      diff: manifestDiffSchema.optional(),
      current: z.looseObject({ id: z.string(), digest: z.string(), created: z.string() }),
      recorded: z.looseObject({ id: z.string(), digest: z.string(), created: z.string() }).optional(),
    }),
  }),
  compareFolder: spec({
    summary:
      "A folder compare: each file a publish of the source (or the destination's configured one) writes, matching, differing or missing in the destination, and its extra entries; whether it can be adopted",
    request: z.strictObject({ destination: handle, source: userPath.optional() }),
    response: folderCompareSchema,
  }),
  contentDiff: spec({
    summary:
      "One output's bytes on disk against the bytes its state records (proven from the source) or what publishing the source now would write",
    request: z.strictObject({
      destination: handle,
      /** The output path, relative to the destination: a recorded output, or a clean path inside it. */
      path: z.string().min(1, { message: 'must not be empty' }).max(4096),
      /** Default: `recorded` when the destination's valid state records the path, else `publish`. */
      against: diffAgainstSchema.optional(),
      /** Default: the source the workspace configures for the destination. */
      source: userPath.optional(),
    }),
    response: contentDiffSchema,
  }),
  listSourceBundles: spec({
    summary:
      "The source bundles under the open workspace's folder and those its file configures, each with the id, created time and digest its manifest records",
    request: empty,
    response: sourceBundleListSchema,
  }),
  chooseSourceBundle: spec({
    summary: "Native dialog to pick a source bundle folder, opened in the workspace's folder (Electron only)",
    request: empty,
    response: z.object({ path: z.string().nullable() }),
    electronOnly: true,
  }),
} satisfies Record<string, MethodSpec>;
