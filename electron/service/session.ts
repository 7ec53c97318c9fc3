// The engine side of the API, transport-free: the open workspace, destination ids resolved to paths,
// plans kept under opaque ids, jobs with progress and cancel. IPC and HTTP both call `session.call`.
// Must never act on a path the renderer sends for a destructive action (only ids it resolves), and
// never let an exception cross the boundary: every failure is an ApiError.

import os from 'node:os';
import path from 'node:path';
import type { ZodType } from 'zod';
import {
  apiError,
  checkOutgoing,
  isMethodName,
  methodNames,
  methods,
  parseRequest,
  type ApiEvent,
  type ApiResult,
  type DestinationEntry,
  type MethodName,
  type ResponseOf,
  type Transport,
  type Workspace,
} from '../../shared/api';
import { error, warning, type Issue } from '../../shared/issues';
import { APP_VERSION } from '../engine/appVersion';
import { HashPool } from '../engine/hashPool';
import { errorOf, fail } from '../../shared/apiError';
import { JobRegistry } from './jobRegistry';
import { reportCsv, reportJson } from './report';
import { compareHandler, contentDiffHandler, inspectHandler, scanJob, verifyJob } from './sessionDestinations';
import type { OpenWorkspace, RequestValue, SessionContext, SessionState } from './sessionContext';
import { planStore } from './sessionPlans';
import { readWorkspace, reloadWorkspace, type WorkspaceTarget } from '../operations/reloadWorkspace';
import { noWorkspaceChanges, type WorkspaceChanges } from '../../shared/workspaceReload';
import type { LoadedWorkspace } from '../engine/workspace';
import { readHistory } from '../history/journal';
import { listBackupsHandler, planRestoreHandler, pruneBackupsHandler } from './sessionBackups';
import { workspaceHistoryFile } from '../history/journalPath';
import { listSourceBundles } from '../engine/sourceBundles';
import { resolveUserPath } from '../engine/userPath';

export type { Transport } from '../../shared/api';
export type { OpenWorkspace, RequestValue, SessionState } from './sessionContext';

export type Handler<M extends MethodName> = (request: RequestValue<M>) => Promise<ResponseOf<M>>;
export type HandlerTable = { [M in MethodName]: Handler<M> };
/** Methods only the Electron shell can carry out (native dialogs, the file manager, the system browser). */
export type ElectronOnlyMethod = { [M in MethodName]: (typeof methods)[M] extends { electronOnly: true } ? M : never }[MethodName];

export interface SessionOptions {
  transport: Transport;
  /** The workspace the app was started on (`serve WORKSPACE`, the demo): opened before the first call. */
  initialWorkspace?: string;
  progressIntervalMs?: number;
}

/**
 * The app does not reach other hosts yet (the CLI's `scan` does): said once per host, so that a
 * workspace of hosts never looks like a workspace of only its local destinations.
 */
function hostsNotShown(hosts: { name: string; url: string }[] | undefined): Issue[] {
  return (hosts ?? []).map((host, index) =>
    warning(
      ['hosts', index],
      'host_not_shown',
      `host "${host.name}" (${host.url}) is not shown here: its destinations are scanned by \`distributor-inspector scan\` of this workspace file`,
    ),
  );
}

/** What a re-read of the workspace answers: the list now (or the last good one, with its problem) and what changed. */
export interface WorkspaceReloadAnswer {
  workspace: Workspace;
  changes: WorkspaceChanges;
}

function summaryOf(loaded: LoadedWorkspace, destinations: DestinationEntry[], issues: Issue[], listReadAt: string): Workspace {
  return {
    path: loaded.file ?? loaded.root,
    kind: loaded.kind,
    root: loaded.root,
    destinations,
    issues: [...issues, ...hostsNotShown(loaded.hosts)],
    listReadAt,
  };
}

export class Session implements SessionContext {
  readonly state: SessionState = {};
  readonly jobs: JobRegistry;
  readonly plans = planStore();
  private readonly listeners = new Set<(event: ApiEvent) => void>();
  /** The opening of `initialWorkspace`: calls wait for it; a shell reports its failure. */
  readonly initialOpen: Promise<ApiResult<Workspace> | undefined>;
  /** Generated from the table's names: one handler per method; electron-only ones say not_available. */
  readonly handlers: HandlerTable;

  constructor(readonly options: SessionOptions) {
    this.jobs = new JobRegistry((event) => this.emit(event), { progressIntervalMs: options.progressIntervalMs });
    this.handlers = this.makeHandlers();
    this.initialOpen = options.initialWorkspace
      ? this.open(options.initialWorkspace).then(
          (value) => ({ ok: true as const, value }),
          (cause: unknown) => ({ ok: false as const, error: errorOf(cause) }),
        )
      : Promise.resolve(undefined);
  }

  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private emit(event: ApiEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // One broken transport must not stop the others from hearing about the job.
      }
    }
  }

  /** Validates, runs, checks the response against its schema; a table of handlers may replace some (the shell's). */
  async call(method: string, raw: unknown, overrides: Partial<HandlerTable> = {}): Promise<ApiResult<unknown>> {
    if (!isMethodName(method)) return { ok: false, error: apiError('unknown_method', `unknown method "${method}"`) };
    const parsed = parseRequest(method, raw);
    if (!parsed.ok) return parsed;
    await this.initialOpen;
    const handler = (overrides[method] ?? this.handlers[method]) as (request: unknown) => Promise<unknown>;
    let value: unknown;
    try {
      value = await handler(parsed.value);
    } catch (cause) {
      return { ok: false, error: errorOf(cause) };
    }
    // The engine's answer is checked too: a wiring bug shows up as a clear error, not a broken UI.
    return checkOutgoing(methods[method].response as ZodType, value, `${method}: the engine's response`);
  }

  workspace(): OpenWorkspace {
    if (!this.state.workspace) throw fail('no_workspace', 'no workspace is open: open a folder or a distributor-inspector.json file first');
    return this.state.workspace;
  }

  destination(id: string): DestinationEntry {
    const entry = this.workspace().byId.get(id);
    if (!entry) throw fail('not_found', `no destination "${id}" in the open workspace`);
    return entry;
  }

  typedPath(typed: string, what: 'workspace' | 'source'): string {
    const home = os.homedir();
    // With nothing open, the home folder: never the working directory the host happened to start in.
    const base = this.state.workspace?.summary.root ?? home;
    const resolved = resolveUserPath(typed, { base, home });
    if (resolved.ok) return resolved.value;
    if (what === 'source') throw fail('invalid_source', `source bundle "${typed}" ${resolved.error}`);
    throw fail('invalid_workspace', `"${typed}" ${resolved.error}`, {
      file: typed,
      issues: [error([], 'invalid_path', resolved.error)],
    });
  }

  /** Fails the call itself (not a job later) when there is no workspace or an id is unknown. */
  private checkIds(ids: string[] | undefined): void {
    this.workspace();
    for (const id of ids ?? []) this.destination(id);
  }

  /** `asDestination`: the folder is the workspace's one destination, whatever it holds. */
  async open(target: string, asDestination = false): Promise<Workspace> {
    // Opening another workspace cancels its jobs; a replace is left to finish rather than stopped half-way.
    if (this.jobs.isRunning('applyPlan'))
      throw fail('refused', 'a replace is running: wait for it to finish before opening another workspace');
    const opened: WorkspaceTarget = { target: path.resolve(target), asDestination };
    const read = await readWorkspace(opened);
    if (!read.ok) throw fail('invalid_workspace', read.problem.message, { issues: read.problem.issues, file: read.problem.file });
    const destinations: DestinationEntry[] = read.loaded.destinations.map((d) => ({ ...d }));
    const summary = summaryOf(read.loaded, destinations, read.issues, read.readAt);
    // Jobs and plans belong to the workspace they were made in.
    await this.jobs.close();
    this.plans.clear();
    this.state.workspace = {
      summary,
      loaded: read.loaded,
      opened,
      byId: new Map(destinations.map((d) => [d.id, d])),
      scans: new Map(),
      verifies: new Map(),
    };
    return summary;
  }

  /**
   * Reads the open workspace again (Rescan; live refresh when its file changes) and reconciles the list:
   * results and plans of destinations that went or changed are dropped, the others kept. A workspace
   * that no longer loads keeps its last good list, marked with the problem (file, field): nothing is lost.
   */
  async reloadWorkspace(): Promise<WorkspaceReloadAnswer> {
    const open = this.workspace();
    const reload = await reloadWorkspace(open.opened, open.summary.destinations);
    // Another open while this one read the disk: its answer is about a workspace no longer shown.
    if (this.state.workspace !== open) return { workspace: this.workspace().summary, changes: noWorkspaceChanges() };
    if (!reload.ok) {
      open.summary = { ...open.summary, reloadProblem: reload.problem };
      return { workspace: open.summary, changes: noWorkspaceChanges() };
    }
    const { changes } = reload;
    const destinations: DestinationEntry[] = reload.loaded.destinations.map((d) => ({ ...d }));
    for (const id of [...changes.removed, ...changes.changed]) {
      open.scans.delete(id);
      open.verifies.delete(id);
    }
    this.plans.dropFor(new Set([...changes.removed, ...changes.changed]));
    open.summary = summaryOf(reload.loaded, destinations, reload.issues, reload.readAt);
    open.loaded = reload.loaded;
    open.byId = new Map(destinations.map((d) => [d.id, d]));
    return { workspace: open.summary, changes };
  }

  private pool: HashPool | undefined;

  /** One pool of worker threads for the session's scans and verifies, made on first use. */
  hashPool(): HashPool {
    this.pool ??= new HashPool();
    return this.pool;
  }

  async close(): Promise<void> {
    await this.jobs.close();
    await this.pool?.close();
    this.pool = undefined;
  }

  private makeHandlers(): HandlerTable {
    const notAvailable = (method: MethodName) => async (): Promise<never> => {
      throw fail('not_available', `${method} is only available in the desktop app`);
    };
    // Every electron-only method of the table answers not_available here; the Electron shell overrides them.
    const electronOnly = Object.fromEntries(
      methodNames
        .filter((method) => (methods[method] as { electronOnly?: boolean }).electronOnly)
        .map((method) => [method, notAvailable(method)]),
    ) as Partial<HandlerTable>;
    const handlers: Omit<HandlerTable, ElectronOnlyMethod> = {
      appInfo: async () => ({
        version: APP_VERSION,
        transport: this.options.transport,
        initialWorkspace: this.options.initialWorkspace,
        workspace: this.state.workspace?.summary,
      }),
      openWorkspace: async ({ path, asDestination }) => this.open(this.typedPath(path, 'workspace'), asDestination === true),
      reloadWorkspace: async () => this.reloadWorkspace(),
      scan: async ({ destinations }) => {
        this.checkIds(destinations);
        return { job: this.jobs.start('scan', (context) => scanJob(this, destinations, context)) };
      },
      inspectDestination: async ({ destination }) => inspectHandler(this, destination),
      verify: async ({ destinations }) => {
        this.checkIds(destinations);
        return { job: this.jobs.start('verify', (context) => verifyJob(this, destinations, context)) };
      },
      compare: async ({ destination, source, pipelineId, destinationId }) =>
        compareHandler(this, destination, source, { pipelineId, destinationId }),
      contentDiff: async (request) => contentDiffHandler(this, request),
      listSourceBundles: async () => listSourceBundles(this.workspace().loaded),
      planReplace: async (request) => this.plans.plan(this, request),
      applyPlan: async ({ planId, confirm, includeNested }) => this.plans.apply(this, planId, confirm, includeNested),
      history: async ({ destination }) => {
        const open = this.workspace();
        const entry = destination === undefined ? undefined : this.destination(destination);
        const read = await readHistory(workspaceHistoryFile(open.loaded));
        if (!read.ok) throw fail('history_unreadable', read.error.message);
        if (!entry) return read.value;
        // By id, and by path for records written without one (the CLI's replace of a DEST).
        const records = read.value.records.filter(
          (record) => record.destination.id === entry.id || path.resolve(record.destination.path) === path.resolve(entry.path),
        );
        return { ...read.value, records };
      },
      listBackups: async (request) => listBackupsHandler(this, request),
      planRestore: async (request) => planRestoreHandler(this, (stored) => this.plans.keepRestore(stored), request),
      pruneBackups: async (request) => pruneBackupsHandler(this, request),
      cancelJob: async ({ job }) => ({ cancelled: this.jobs.cancel(job) }),
      exportReport: async ({ format }) => {
        const open = this.workspace();
        const input = {
          generatedAt: new Date().toISOString(),
          appVersion: APP_VERSION,
          workspace: { path: open.summary.path, kind: open.summary.kind, root: open.summary.root },
          destinations: open.summary.destinations,
          scans: open.scans,
          verifies: open.verifies,
        };
        const stamp = input.generatedAt.replace(/[:.]/g, '-');
        return format === 'json'
          ? { fileName: `distributor-report-${stamp}.json`, mediaType: 'application/json', content: reportJson(input) }
          : { fileName: `distributor-report-${stamp}.csv`, mediaType: 'text/csv', content: reportCsv(input) };
      },
    };
    return { ...electronOnly, ...handlers } as HandlerTable;
  }
}
