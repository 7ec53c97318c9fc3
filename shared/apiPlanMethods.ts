// The API methods that change a destination: plan a replace, a repair, a staging discard or an adopt, then
// apply a plan behind its consent. Part of the one table in shared/api.ts.

import { z } from 'zod';
import { destinationReadSchema, handle, userPath } from './apiEntries';
import { jobStarted, spec, type MethodSpec } from './apiSpec';
import { applyResultSchema, confirmationLevelSchema, replacePlanSchema } from './plan';

/** Paths of a repair's outputs kept as they are; cleanliness and membership are the planner's to refuse by name. */
const keptPaths = z.array(z.string().min(1).max(4096)).max(100_000);

export const planMethods = {
  planReplace: spec({
    summary: 'Plan a replace or forced replace: every path to delete and write, and the new state',
    request: z.strictObject({
      destination: handle,
      mode: z.enum(['replace', 'force']),
      source: userPath.optional(),
      baseUrl: z.string().max(2048).optional(),
      /** The ids the new state records, when neither the workspace nor a valid state gives them. */
      pipelineId: z.string().min(1).max(1000).optional(),
      destinationId: z.string().min(1).max(1000).optional(),
      /** A forced replace of a folder owned by another user is refused unless this is true. */
      allowOtherOwner: z.boolean().optional(),
      /**
       * The caller applies this plan at once (replace --yes): the service keeps the output bytes it
       * verified with the plan (up to 256 MiB, one plan's at a time), and the apply stages them
       * without reading the source again.
       */
      applyAtOnce: z.boolean().optional(),
    }),
    response: z.object({
      planId: handle,
      /** Shown to the operator; never sent back (apply takes the planId). */
      plan: replacePlanSchema,
      /** What the operator must type when the confirmation is `typed_id`. */
      confirmText: z.string().optional(),
      /** How the operator confirms it (docs/confirmations.md): the typed id when nothing is backed up (and for a forced replace), else one explicit confirmation. */
      confirmation: confirmationLevelSchema,
    }),
  }),
  planRepair: spec({
    summary:
      'Plan a repair: rewrite only the recorded outputs verify finds drifted, from bytes proven from the source; the state and the extra files stay, and an output that cannot be proven is refused by name',
    request: z.strictObject({
      destination: handle,
      /** Default: the source the workspace configures for the destination. */
      source: userPath.optional(),
      /**
       * Drifted outputs to leave as they are (an intentional hotfix): the plan neither writes nor
       * deletes them and lists them in plan.repair.kept; a path the plan would not rewrite is refused.
       */
      keep: keptPaths.optional(),
    }),
    response: z.object({
      planId: handle,
      /** Shown to the operator; never sent back (apply takes the planId, its keep, and acceptPartial when some outputs are refused). */
      plan: replacePlanSchema,
      /** What the operator must type when the confirmation is `typed_id`. */
      confirmText: z.string().optional(),
      /** How the operator confirms it (docs/confirmations.md): the typed id when nothing is backed up (and for a forced replace), else one explicit confirmation. */
      confirmation: confirmationLevelSchema,
    }),
  }),
  planDiscardStaging: spec({
    summary: 'Plan removing the staging folder an interrupted apply left: which publication it holds and how many files it staged',
    request: z.strictObject({ destination: handle }),
    response: z.object({
      planId: handle,
      plan: replacePlanSchema,
      /** What the operator must type when the confirmation is `typed_id`. */
      confirmText: z.string().optional(),
      /** How the operator confirms it (docs/confirmations.md): the typed id when nothing is backed up (and for a forced replace), else one explicit confirmation. */
      confirmation: confirmationLevelSchema,
    }),
  }),
  planAdopt: spec({
    summary:
      'Plan adopting an unmanaged folder whose files already match the source: only the state file is written, nothing is moved or deleted, extra files stay',
    request: z.strictObject({
      destination: handle,
      /** Default: the source the workspace configures for the destination. */
      source: userPath.optional(),
      /** The ids the state records, when the workspace configures none (an unmanaged folder has no state to take them from). */
      pipelineId: z.string().min(1).max(1000).optional(),
      destinationId: z.string().min(1).max(1000).optional(),
    }),
    response: z.object({
      planId: handle,
      plan: replacePlanSchema,
      /** What the operator must type when the confirmation is `typed_id`. */
      confirmText: z.string().optional(),
      /** How the operator confirms it (docs/confirmations.md). */
      confirmation: confirmationLevelSchema,
    }),
  }),
  applyPlan: spec({
    summary:
      'Apply a plan behind its confirmation: `confirm` equal to the destination id when the plan asks for the typed id, else `confirmed`; and `includeNested` when it deletes nested destinations',
    request: z.strictObject({
      planId: handle,
      /** The destination id as typed: required when the plan's confirmation is `typed_id` (it also stands for `confirmed`). */
      confirm: z.string().max(1000).optional(),
      /** The operator confirmed the counts in one explicit dialog or question: required when the plan's confirmation is `explicit`. */
      confirmed: z.boolean().optional(),
      /** Acknowledges the other managed destinations a forced plan deletes (plan.nestedDestinations); required when there are any. */
      includeNested: z.boolean().optional(),
      /** Accepts a repair that leaves the outputs it refuses as they are (plan.repair.refused); required when there are any. */
      acceptPartial: z.boolean().optional(),
      /**
       * A repair: the selection the operator reviewed, the paths it keeps as they are (absent: none).
       * Refused unless it is exactly the plan's (plan.repair.kept): the plan applied is the one reviewed.
       */
      keep: keptPaths.optional(),
      /**
       * Default true: the destination is read again and verified after the apply, and sent as the
       * job's item. False, for a caller that shows only the ApplyResult (the command line): no item,
       * and the outputs just written are not read back.
       */
      reportAfter: z.boolean().optional(),
    }),
    response: jobStarted,
    /** The item is the destination as it is after the apply; the result is the ApplyResult, also when refused or failed. */
    job: { item: destinationReadSchema, result: applyResultSchema, resultTellsCancel: true },
  }),
} satisfies Record<string, MethodSpec>;
