// The one contract between the renderer and the engine: every method once (name, zod request, zod
// response), the job events, and errors as data. IPC, HTTP and the renderer's client are generated
// from this table by a loop. Must never import Node, Electron or the DOM.
//
// Destructive and disk-touching methods take opaque ids (`destination`, `planId`, `job`) that the
// engine resolves; the renderer never hands back a raw destination path.

import { z } from 'zod';
import { apiError, apiErrorSchema, type ApiErrorCode, type ApiResult } from './apiError';
import { destinationReadSchema, handle, scanEntrySchema, userPath } from './apiEntries';
import { backupMethods } from './apiBackupMethods';
import { destinationMethods } from './apiDestinationMethods';
import { hostMethods } from './apiHostMethods';
import { planMethods } from './apiPlanMethods';
import { shellMethods } from './apiShellMethods';
import type { MethodSpec } from './apiSpec';
import { workspaceMethods } from './apiWorkspaceMethods';
import { error, formatIssuePath, type IssuePath } from './issues';
import { applyStepSchema } from './plan';
import { workspaceSummarySchema } from './workspaceSchema';
import { workspaceChangesSchema } from './workspaceChangesSchema';
import { fromZodIssues } from './zodIssues';
import { liveRefreshStatusSchema } from './liveRefreshSchema';
import { hostStateEventSchema } from './hostState';
import { destinationChangesSchema } from './hostWatch';
import { watchStaleReasonSchema } from './verifyFreshnessSchema';

// ---------------------------------------------------------------------------------------------
// Errors as data (shared/apiError.ts), re-exported: every transport and the renderer read them here.

export { apiError, apiErrorCodeSchema, apiErrorSchema, type ApiError, type ApiErrorCode, type ApiResult } from './apiError';

// ---------------------------------------------------------------------------------------------
// Shared shapes (shared/apiEntries.ts), re-exported: importers read them here.

export {
  destinationEntrySchema,
  destinationReadSchema,
  listingEntrySchema,
  scanEntrySchema,
  transportSchema,
  verifyEntrySchema,
  type DestinationEntry,
  type DestinationRead,
  type ListingEntry,
  type ScanEntry,
  type Transport,
  type VerifyEntry,
} from './apiEntries';

/** The open workspace as the renderer sees it (shared/workspaceSchema.ts). */
export { workspaceSummarySchema } from './workspaceSchema';
export type { WorkspaceSummary as Workspace } from './workspaceSchema';
export { comparisonSchema } from './compare';
export { manifestDiffSchema } from './diffManifests';
export { contentDiffSchema } from './contentDiff/contentDiffSchema';
export { hostStateSchema, hostStateEventSchema, type HostState, type HostStateEvent } from './hostState';
export { sourceBundleEntrySchema, sourceBundleListSchema, type SourceBundleEntry, type SourceBundleList } from './sourceBundles';

const progressCounts = { done: z.number(), total: z.number(), bytes: z.number() };

// ---------------------------------------------------------------------------------------------
// The table: one entry per method, written by domain in shared/api*Methods.ts.

export const methods = {
  ...workspaceMethods,
  ...destinationMethods,
  ...planMethods,
  ...backupMethods,
  ...hostMethods,
  ...shellMethods,
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

/** One `items` event: the items a job made in one turn of the engine's event loop, in order. */
export type JobItems<M extends JobMethod = JobMethod> = { [K in M]: { job: string; method: K; items: ItemOf<K>[] } }[M];
export type JobResult<M extends JobMethod = JobMethod> = { [K in M]: { job: string; method: K; result: ResultOf<K> } }[M];
/** One item of job method M (scan: a ScanEntry); an `items` event carries them in order. */
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

export const itemsEventSchema = z.union(
  jobMethods
    .filter((method) => jobSpec(method).item)
    .map((method) => z.object({ job: handle, method: z.literal(method), items: z.array(jobSpec(method).item!) })) as unknown as [
    z.ZodType,
    z.ZodType,
  ],
) as unknown as z.ZodType<JobItems>;
export const resultEventSchema = z.union(
  jobMethods.map((method) => z.object({ job: handle, method: z.literal(method), result: jobSpec(method).result })) as unknown as [
    z.ZodType,
    z.ZodType,
  ],
) as unknown as z.ZodType<JobResult>;

/** Every event a transport carries, by name. `error` ends a job that failed or was cancelled. */
export const events = {
  progress: progressEventSchema,
  /**
   * A job's items (a scan's rows, verify reports, an apply's destination), batched: one event per turn
   * of the engine's event loop (a bounded count: electron/service/jobRegistry.ts), each checked
   * against its schema.
   */
  items: itemsEventSchema,
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
      /**
       * `reason`: what saw it (this machine's watch, a host's agent, a host's watch lost); absent: this
       * machine's watch. `lastEventAt`: when that watch saw the change's last event; a result whose
       * verify began reading after it stays fresh (shared/verifyFreshness.ts).
       */
      changes: z.array(
        z.object({
          entry: scanEntrySchema,
          changedAt: z.string(),
          reason: watchStaleReasonSchema.optional(),
          lastEventAt: z.string().optional(),
        }),
      ),
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
     * stale, each with why (over the size limit, auto-verify off is never sent). Each entry is the
     * destination's row with its verify from one read, as the verify job's items are.
     */
    z.object({
      kind: z.literal('verified'),
      entries: z.array(destinationReadSchema),
      skipped: z.array(z.object({ destination: handle, reason: z.string() })),
    }),
    /** A source bundle changed on disk: the rows of the destinations configured with it, their sync decided again (verify untouched). */
    z.object({ kind: z.literal('sync'), changedAt: z.string(), entries: z.array(scanEntrySchema) }),
  ]),
  /** A menu item or its shortcut (Electron): the renderer does what it would do for the same button. */
  /** A workspace host's connection changed (connecting, connected with its destinations, failed, lost). */
  hostState: hostStateEventSchema,
  /** A host's agent only, to the client that asked `watchDestinations`: its destinations that changed on its disk (shared/hostWatch.ts). */
  destinationChanges: destinationChangesSchema,
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

/** The browser host's wire (shared/apiNames.ts, where the page's first screen reads it without the schemas). */
export { http } from './apiNames';

/** What `ready` and `heartbeat` carry: the host's run, a random id made when it started. */
export const streamHelloSchema = z.object({ instance: z.string().min(1).max(200) });
export type StreamHello = z.infer<typeof streamHelloSchema>;
