// The API methods about the workspace itself: which one is open, opening and reloading it, how it is
// watched, and resetting the demo. Part of the one table in shared/api.ts.

import { z } from 'zod';
import { transportSchema, userPath } from './apiEntries';
import { autoVerifySettingSchema } from './autoVerifySetting';
import { empty, spec, type MethodSpec } from './apiSpec';
import { demoResetScopeSchema } from './demoReset';
import { liveRefreshStatusSchema } from './liveRefreshSchema';
import { workspaceDestinationSchema, workspaceSummarySchema } from './workspaceSchema';
import { workspaceChangesSchema } from './workspaceChangesSchema';

/**
 * The most destinations one answer lists (appInfo's firstDestinations, a workspaceDestinations page):
 * at ~270 bytes each, a page the page parses in one short task, however large the workspace.
 */
export const DESTINATION_PAGE_MAX = 20_000;

export const workspaceMethods = {
  appInfo: spec({
    summary: 'Version, transport, and the workspace the app was started on',
    request: z.strictObject({
      /**
       * List at most this many of the open workspace's destinations (its first, in workspace order);
       * the rest come a page at a time from workspaceDestinations, so a first screen need not wait on
       * a 100,000-destination list. Without it every destination is listed.
       */
      firstDestinations: z.number().int().min(1).max(DESTINATION_PAGE_MAX).optional(),
    }),
    response: z.object({
      version: z.string(),
      transport: transportSchema,
      /** How to run this tool's CLI on this machine, shell-quoted, for the hints the app shows (never npx). */
      command: z.string(),
      initialWorkspace: z.string().optional(),
      workspace: workspaceSummarySchema.optional(),
      /** How many destinations the open workspace lists: more than `workspace.destinations` holds when firstDestinations cut it. */
      destinationCount: z.number().int().nonnegative().optional(),
    }),
  }),
  workspaceDestinations: spec({
    summary:
      "A page of the open workspace's destinations, in workspace order: up to `count` from position `from`, with how many it lists and when that list was read (a page of another list than the one before it says so by its listReadAt)",
    request: z.strictObject({
      from: z.number().int().min(0),
      count: z.number().int().min(1).max(DESTINATION_PAGE_MAX),
    }),
    response: z.object({
      destinations: z.array(workspaceDestinationSchema),
      total: z.number().int().nonnegative(),
      listReadAt: z.string().optional(),
    }),
  }),
  chooseWorkspace: spec({
    summary: 'Native dialog to pick a workspace folder or file (Electron only)',
    request: z.strictObject({ kind: z.enum(['folder', 'file']).optional() }),
    response: z.object({ path: z.string().nullable() }),
    electronOnly: true,
  }),
  openWorkspace: spec({
    summary: 'Open a workspace folder or a distributor-inspector.json file; replaces the open one',
    request: z.strictObject({
      path: userPath,
      /** The folder itself is the one destination, whatever it holds: the CLI's `inspect`, `compare`, `replace` of one DEST on an agent. */
      asDestination: z.boolean().optional(),
    }),
    response: workspaceSummarySchema,
  }),
  reloadWorkspace: spec({
    summary:
      'Read the open workspace again (its folder or workspace file): the list now and what was added, removed or changed; a file that no longer loads keeps the last good list, marked with its problem',
    request: empty,
    response: z.object({ workspace: workspaceSummarySchema, changes: workspaceChangesSchema }),
  }),
  liveRefreshStatus: spec({
    summary:
      'How the open workspace is watched for live refresh: destinations watched and polled (and why), the workspace file; changes then arrive as liveRefresh events',
    request: empty,
    response: liveRefreshStatusSchema,
  }),
  autoVerifySetting: spec({
    summary: 'Whether auto-verify is on: a destination that changed on disk is verified again by itself (docs/verify-freshness.md)',
    request: empty,
    response: autoVerifySettingSchema,
  }),
  setAutoVerify: spec({
    summary: "Turns auto-verify on or off, kept with the user's preferences; answers the setting now",
    request: z.strictObject({ enabled: z.boolean() }),
    response: autoVerifySettingSchema,
  }),
  demoResetScope: spec({
    summary:
      "What resetting the open demo workspace would remove (its backups, history, the paths applies added, every change), and what would make it refuse; not_available when the open workspace is not the app's demo",
    request: empty,
    response: demoResetScopeSchema,
  }),
  resetDemo: spec({
    summary:
      "Make the open demo workspace afresh (its backups, history and changes removed, as demoResetScope said) and open it again; refused while an apply runs or when the folder holds anything that is not the demo's",
    request: empty,
    response: workspaceSummarySchema,
  }),
} satisfies Record<string, MethodSpec>;
