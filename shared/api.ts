// The one contract between the renderer and the engine: every method once (name, zod request, zod
// response), the job events, and errors as data. IPC, HTTP and the renderer's client are generated
// from this table by a loop. Must never import Node, Electron or the DOM.
//
// Destructive and disk-touching methods take opaque ids (`destination`, `planId`, `job`) that the
// engine resolves; the renderer never hands back a raw destination path.

import { z } from 'zod';
import { destinationInspectionSchema } from './inspection';
import { apiError, apiErrorSchema, type ApiErrorCode, type ApiResult } from './apiError';
import { issueSchema } from './issueSchema';
import { error, formatIssuePath, type IssuePath } from './issues';
import { applyResultSchema, applyStepSchema, replacePlanSchema } from './plan';
import { scanCountsSchema, scanSummarySchema, verifyReportSchema } from './verifyReport';
import { workspaceDestinationSchema, workspaceSummarySchema } from './workspaceSchema';
import { workspaceChangesSchema } from './workspaceReload';
import { fromZodIssues } from './zodIssues';
import { verifyStampSchema } from './verifyFreshness';
import { liveRefreshStatusSchema } from './liveRefresh';
import { autoVerifySettingSchema } from './autoVerifySetting';
import { comparisonSchema } from './compare';
import { outputDriftSchema } from './outputDrift';
import { comparisonWordsSchema } from './comparisonWords';
import { manifestDiffSchema } from './diffManifests';
import { contentDiffSchema, diffAgainstSchema } from './contentDiff/contentDiffSchema';
import { sourceBundleListSchema } from './sourceBundles';
import { historyLineIssueSchema, historyRecordSchema } from './historySchema';
import { hostStateEventSchema, hostStateSchema } from './hostState';
import { syncStatusSchema } from './syncStatus';
import { demoResetScopeSchema } from './demoReset';
import { backupListSchema, backupSummarySchema, backupTargetInfoSchema, restorePlanSchema } from './backupSchema';

// ---------------------------------------------------------------------------------------------
// Errors as data (shared/apiError.ts), re-exported: every transport and the renderer read them here.

export { apiError, apiErrorCodeSchema, apiErrorSchema, type ApiError, type ApiErrorCode, type ApiResult } from './apiError';

// ---------------------------------------------------------------------------------------------
// Shared shapes

/** An opaque handle the engine hands out and resolves; meaningless outside the session that made it. */
const handle = z.string().min(1).max(200);
/** A path the operator typed or picked (workspace, source bundle): read, never written. */
const userPath = z.string().min(1, { message: 'must not be empty' }).max(4096);

/** One destination of the open workspace; its `id` is the handle every request about it carries. */
export const destinationEntrySchema = workspaceDestinationSchema;
export type DestinationEntry = z.infer<typeof destinationEntrySchema>;

/** How a client reaches the engine: Electron IPC, HTTP on 127.0.0.1, the agent's JSON lines over ssh, or the command line in process. */
export const transportSchema = z.enum(['electron', 'http', 'agent', 'cli']);
export type Transport = z.infer<typeof transportSchema>;

/** The open workspace as the renderer sees it (shared/workspaceSchema.ts). */
export { workspaceSummarySchema } from './workspaceSchema';
export type { WorkspaceSummary as Workspace } from './workspaceSchema';

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

/** A destination as it is after an apply: its row, and its verify against the new state when one was written. */
export const appliedDestinationSchema = z.object({ entry: scanEntrySchema, verify: verifyEntrySchema.optional() });
export type AppliedDestination = z.infer<typeof appliedDestinationSchema>;

export const listingEntrySchema = z.object({
  /** Relative to the destination, `/`-separated. */
  path: z.string(),
  type: z.enum(['file', 'directory', 'symlink', 'other']),
  sizeBytes: z.number(),
  /** For a symbolic link: what it points at, read with readlink, never followed. */
  linkTarget: z.string().optional(),
});
export type ListingEntry = z.infer<typeof listingEntrySchema>;

export { comparisonSchema } from './compare';
export { manifestDiffSchema } from './diffManifests';
export { contentDiffSchema } from './contentDiff/contentDiffSchema';
export { hostStateSchema, hostStateEventSchema, type HostState, type HostStateEvent } from './hostState';
export { sourceBundleEntrySchema, sourceBundleListSchema, type SourceBundleEntry, type SourceBundleList } from './sourceBundles';

const progressCounts = { done: z.number(), total: z.number(), bytes: z.number() };
const jobStarted = z.object({ job: handle });
const empty = z.strictObject({});

// ---------------------------------------------------------------------------------------------
// The table

interface MethodSpec {
  summary: string;
  request: z.ZodType;
  response: z.ZodType;
  /**
   * Long work: the response is `{job}`; progress, items and a result or an error follow as events.
   * `resultTellsCancel`: the result says itself whether a cancel stopped the work (an apply that was
   * past its point of no return when the cancel came finished, and must say so, never `cancelled`).
   */
  job?: { item?: z.ZodType; result: z.ZodType; resultTellsCancel?: true };
  /** Only the Electron shell implements it; the browser host answers not_available. */
  electronOnly?: boolean;
}

const spec = <S extends MethodSpec>(entry: S) => entry;

export const methods = {
  appInfo: spec({
    summary: 'Version, transport, and the workspace the app was started on',
    request: empty,
    response: z.object({
      version: z.string(),
      transport: transportSchema,
      /** How to run this tool's CLI on this machine, shell-quoted, for the hints the app shows (never npx). */
      command: z.string(),
      initialWorkspace: z.string().optional(),
      workspace: workspaceSummarySchema.optional(),
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
    summary: 'Hash every managed output of the given destinations (default: all managed)',
    request: z.strictObject({ destinations: z.array(handle).optional() }),
    response: jobStarted,
    job: { item: verifyEntrySchema, result: z.object({ intact: z.number(), drifted: z.number(), skipped: z.number() }) },
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
    }),
    response: z.object({
      planId: handle,
      /** Shown to the operator; never sent back (apply takes the planId). */
      plan: replacePlanSchema,
      /** What the operator must type to apply a forced replace. */
      confirmText: z.string().optional(),
    }),
  }),
  planRepair: spec({
    summary:
      'Plan a repair: rewrite only the recorded outputs verify finds drifted, from bytes proven from the source; the state and the extra files stay, and an output that cannot be proven is refused by name',
    request: z.strictObject({
      destination: handle,
      /** Default: the source the workspace configures for the destination. */
      source: userPath.optional(),
    }),
    response: z.object({
      planId: handle,
      /** Shown to the operator; never sent back (apply takes the planId, and acceptPartial when some outputs are refused). */
      plan: replacePlanSchema,
    }),
  }),
  planDiscardStaging: spec({
    summary: 'Plan removing the staging folder an interrupted apply left: which publication it holds and how many files it staged',
    request: z.strictObject({ destination: handle }),
    response: z.object({ planId: handle, plan: replacePlanSchema }),
  }),
  applyPlan: spec({
    summary:
      'Apply a plan; a forced replace needs `confirm` equal to the destination id, and `includeNested` when it deletes nested destinations',
    request: z.strictObject({
      planId: handle,
      confirm: z.string().max(1000).optional(),
      /** Acknowledges the other managed destinations a forced plan deletes (plan.nestedDestinations); required when there are any. */
      includeNested: z.boolean().optional(),
      /** Accepts a repair that leaves the outputs it refuses as they are (plan.repair.refused); required when there are any. */
      acceptPartial: z.boolean().optional(),
    }),
    response: jobStarted,
    /** The item is the destination as it is after the apply; the result is the ApplyResult, also when refused or failed. */
    job: { item: appliedDestinationSchema, result: applyResultSchema, resultTellsCancel: true },
  }),
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
  hosts: spec({
    summary: "The open workspace's hosts (issue 15): each one's connection state, why it failed or was lost, and its agent",
    request: empty,
    response: z.object({ hosts: z.array(hostStateSchema) }),
  }),
  reconnectHost: spec({
    summary:
      'Connect to a workspace host again (after it failed or was lost) and read its destinations again; answers at once, the hostState events follow',
    request: z.strictObject({ name: z.string().min(1).max(63) }),
    response: hostStateSchema,
  }),
  addHost: spec({
    summary:
      'Add a host to the open workspace file (an ssh target and a folder of destinations or a workspace file on that host), saved to the file, then connected',
    request: z.strictObject({
      name: z.string().max(200),
      /** `[user@]host[:port]`, or an alias of ~/.ssh/config. */
      target: z.string().max(1000),
      /** Absolute, on that host: a folder of destinations or a distributor-inspector.json file. */
      path: z.string().max(4096),
      /** The agent command on that host (default `distributor-inspector`). */
      agent: z.string().max(1000).optional(),
    }),
    response: z.object({ workspace: workspaceSummarySchema, host: hostStateSchema }),
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
    }),
  }),
  pruneBackups: spec({
    summary: "Keep only the newest backups of each destination (the workspace's `keep`, default 5), of one destination or all",
    request: z.strictObject({ destination: handle.optional() }),
    response: z.object({ removed: z.array(backupSummarySchema), kept: z.number() }),
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
  cancelJob: spec({
    summary: 'Stop a running job; it ends with an error event of code cancelled',
    request: z.strictObject({ job: handle }),
    response: z.object({ cancelled: z.boolean() }),
  }),
  exportReport: spec({
    summary: 'The last scan and verify results as a JSON or CSV document',
    request: z.strictObject({ format: z.enum(['json', 'csv']) }),
    response: z.object({ fileName: z.string(), mediaType: z.string(), content: z.string() }),
  }),
  revealPath: spec({
    summary: 'Show a destination (or a file inside it) in the file manager (Electron only)',
    request: z.strictObject({ destination: handle, path: z.string().max(4096).optional() }),
    response: z.object({ revealed: z.boolean() }),
    electronOnly: true,
  }),
  openLink: spec({
    summary: "Open an https link recorded in a destination's state in the system browser (Electron only)",
    request: z.strictObject({ destination: handle, url: z.string().max(4096) }),
    response: z.object({ opened: z.boolean() }),
    electronOnly: true,
  }),
  log: spec({
    summary: "Write one line to the app's log file (errors the renderer showed, with their context) (Electron only)",
    request: z.strictObject({
      level: z.enum(['error', 'warn', 'info']),
      message: z.string().max(4000),
      context: z.string().max(200).optional(),
    }),
    response: z.object({ logged: z.boolean() }),
    electronOnly: true,
  }),
  openLogsFolder: spec({
    summary: "Show the folder of the app's log files in the file manager; error messages link to it (Electron only)",
    request: empty,
    response: z.object({ opened: z.boolean() }),
    electronOnly: true,
  }),
} satisfies Record<string, MethodSpec>;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export const methodNames = Object.keys(methods) as MethodName[];

export type RequestOf<M extends MethodName> = z.input<Methods[M]['request']>;
export type ResponseOf<M extends MethodName> = z.output<Methods[M]['response']>;

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(methods, name);
}

// ---------------------------------------------------------------------------------------------
// Jobs and their events

type JobSpecs = { [M in MethodName as Methods[M] extends { job: object } ? M : never]: Methods[M] extends { job: infer J } ? J : never };
export type JobMethod = keyof JobSpecs;
export const jobMethods = methodNames.filter((name) => 'job' in methods[name]) as JobMethod[];

type ItemOf<M extends JobMethod> = JobSpecs[M] extends { item: z.ZodType } ? z.output<JobSpecs[M]['item']> : never;
type ResultOf<M extends JobMethod> = JobSpecs[M] extends { result: z.ZodType } ? z.output<JobSpecs[M]['result']> : never;

export type JobItem<M extends JobMethod = JobMethod> = { [K in M]: { job: string; method: K; item: ItemOf<K> } }[M];
export type JobResult<M extends JobMethod = JobMethod> = { [K in M]: { job: string; method: K; result: ResultOf<K> } }[M];
/** What one item event of job method M carries (scan: a ScanEntry). */
export type JobItemOf<M extends JobMethod> = ItemOf<M>;
/** What the result event of job method M carries. */
export type JobResultOf<M extends JobMethod> = ResultOf<M>;

const jobMethodSchema = z.enum(jobMethods as [JobMethod, ...JobMethod[]]);

export const progressEventSchema = z.object({
  job: handle,
  method: jobMethodSchema,
  ...progressCounts,
  /** An apply's phase and its own count (done/total above count the whole apply). */
  step: applyStepSchema.optional(),
});
export const jobErrorEventSchema = z.object({ job: handle, method: jobMethodSchema, error: apiErrorSchema });

function jobSpec(method: JobMethod): { item?: z.ZodType; result: z.ZodType } {
  return (methods[method] as MethodSpec).job!;
}

export const itemEventSchema = z.union(
  jobMethods
    .filter((method) => jobSpec(method).item)
    .map((method) => z.object({ job: handle, method: z.literal(method), item: jobSpec(method).item! })) as unknown as [
    z.ZodType,
    z.ZodType,
  ],
) as unknown as z.ZodType<JobItem>;
export const resultEventSchema = z.union(
  jobMethods.map((method) => z.object({ job: handle, method: z.literal(method), result: jobSpec(method).result })) as unknown as [
    z.ZodType,
    z.ZodType,
  ],
) as unknown as z.ZodType<JobResult>;

/** Every event a transport carries, by name. `error` ends a job that failed or was cancelled. */
export const events = {
  progress: progressEventSchema,
  item: itemEventSchema,
  result: resultEventSchema,
  error: jobErrorEventSchema,
  /**
   * Live refresh (docs/live-refresh.md): destinations that changed on disk, each read again (a verify
   * result held for it turned stale at `changedAt`); the workspace file read again (the reload's
   * answer, and the rows of the destinations it added or changed); or a change in how the workspace is watched.
   */
  liveRefresh: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('destinations'),
      changes: z.array(z.object({ entry: scanEntrySchema, changedAt: z.string() })),
    }),
    z.object({
      kind: z.literal('workspace'),
      changedAt: z.string(),
      reload: z.object({ workspace: workspaceSummarySchema, changes: workspaceChangesSchema }),
      entries: z.array(scanEntrySchema),
    }),
    z.object({ kind: z.literal('status'), status: liveRefreshStatusSchema }),
    /**
     * Auto-verify (docs/verify-freshness.md): destinations that changed on disk (or, on opening, had
     * their outputs' signatures cached) verified again by the engine, incrementally; those it left
     * stale, each with why (over the size limit, auto-verify off is never sent).
     */
    z.object({
      kind: z.literal('verified'),
      entries: z.array(verifyEntrySchema),
      skipped: z.array(z.object({ destination: handle, reason: z.string() })),
    }),
    /** A source bundle changed on disk: the rows of the destinations configured with it, their sync decided again (verify untouched). */
    z.object({ kind: z.literal('sync'), changedAt: z.string(), entries: z.array(scanEntrySchema) }),
  ]),
  /** A menu item or its shortcut (Electron): the renderer does what it would do for the same button. */
  /** A workspace host's connection changed (connecting, connected with its destinations, failed, lost). */
  hostState: hostStateEventSchema,
  appCommand: z.object({
    command: z.enum(['openWorkspace', 'rescan', 'verifyAll', 'find', 'exportReport', 'resetDemo']),
    path: userPath.optional(),
  }),
};
export type EventName = keyof typeof events;
export type EventOf<E extends EventName> = z.output<(typeof events)[E]>;
export const eventNames = Object.keys(events) as EventName[];

/** One envelope on the wire (IPC channel or SSE), so a transport carries one stream. */
export type ApiEvent = { [E in EventName]: { event: E; data: EventOf<E> } }[EventName];

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

// ---------------------------------------------------------------------------------------------
// Validation helpers every transport uses

/** Checks a request against its method's schema; a failure names the field (details.issues). Never throws. */
export function parseRequest<M extends MethodName>(method: M, raw: unknown): ApiResult<z.output<Methods[M]['request']>> {
  const parsed = (methods[method].request as z.ZodType).safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data as z.output<Methods[M]['request']> };
  const issues = parsed.error.issues.flatMap((issue) =>
    // zod reports unknown keys once for the object; name each one, at its own path.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => error([...(issue.path as IssuePath), key], 'unknown_field', `unknown field "${key}"`))
      : fromZodIssues([issue], raw),
  );
  const first = issues[0];
  const where = first && first.path.length > 0 ? `${formatIssuePath(first.path)}: ` : '';
  return { ok: false, error: apiError('bad_request', `${method}: ${where}${first?.message ?? 'invalid request'}`, { issues }) };
}

/**
 * Checks what the engine sends (a response, a job item, a job result) against its schema: a wiring bug
 * shows up as a clear internal error naming the field, never as a broken UI. What a host's agent sent
 * is checked the same way, as `agent_protocol` (details.field names the field). Never throws.
 */
export function checkOutgoing<T>(schema: z.ZodType<T>, value: unknown, what: string, code: ApiErrorCode = 'internal'): ApiResult<T> {
  const checked = schema.safeParse(value);
  if (checked.success) return { ok: true, value: checked.data };
  const first = checked.error.issues[0];
  const field = formatIssuePath((first?.path ?? []) as IssuePath);
  return {
    ok: false,
    error: apiError(code, `${what} is malformed at ${field}: ${first?.message ?? ''}`, code === 'internal' ? undefined : { field }),
  };
}

/** The schemas of a job method's items and result. */
export function jobSchemas(method: JobMethod): { item?: z.ZodType; result: z.ZodType; resultTellsCancel?: true } {
  return jobSpec(method);
}

/**
 * The health of a bridge's link to the engine (the browser host's event stream): `connected` while
 * its heartbeat is heard, `lost` when it stopped (host killed, hung, unreachable), `refused` when the
 * host answers but not to this page's token (it was restarted with another). Never sent on the wire.
 */
export interface ConnectionState {
  status: 'connecting' | 'connected' | 'lost' | 'refused';
  /** When it took this status (ISO 8601). */
  since: string;
  /** The host's run (streamHelloSchema) last heard from. */
  instance?: string;
}

/** What the Electron preload exposes as `window.inspector`, and all of it. */
export interface InspectorBridge {
  invoke(method: string, request: unknown): Promise<ApiResult<unknown>>;
  /** Returns a function that removes the listener. */
  on(event: string, listener: (data: unknown) => void): () => void;
  /** The browser host's bridge only (IPC cannot lose its main process and keep the page): each change of the link's health. */
  onConnection?(listener: (state: ConnectionState) => void): () => void;
  /** Tries the link again now instead of at the next retry. */
  reconnect?(): void;
}

/** The browser host's wire: `POST /api/<method>` with a JSON body, and one event stream. */
export const http = {
  apiPrefix: '/api/',
  eventsPath: '/api/events',
  /** The per-run token travels in this header, never in a URL the server sees. */
  tokenHeader: 'x-inspector-token',
  /** The page URL carries the token in its fragment (`#token=…`), which browsers never send. */
  tokenFragmentKey: 'token',
  /** The first event on a new stream: the client may start jobs once it has seen it. Data: streamHelloSchema. */
  readyEvent: 'ready',
  /**
   * Sent on the stream every heartbeatIntervalMs (data: streamHelloSchema). A page that hears nothing
   * for heartbeatTimeoutMs, or sees the stream end, has lost the host: it says so and re-inspects when
   * the stream is back. The instance tells a host that came back apart from a restarted one.
   */
  heartbeatEvent: 'heartbeat',
  heartbeatIntervalMs: 500,
  heartbeatTimeoutMs: 1500,
} as const;

/** What `ready` and `heartbeat` carry: the host's run, a random id made when it started. */
export const streamHelloSchema = z.object({ instance: z.string().min(1).max(200) });
export type StreamHello = z.infer<typeof streamHelloSchema>;
