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
import { SourceManifests } from '../engine/sourceManifests';
import { errorOf, fail } from '../../shared/apiError';
import { JobRegistry } from './jobRegistry';
import { reportCsv, reportJson } from './report';
import { compareHandler, contentDiffHandler, inspectHandler, scanJob, verifyJob } from './sessionDestinations';
import type { OpenWorkspace, RequestValue, SessionContext, SessionState } from './sessionContext';
import { planStore } from './sessionPlans';
import { LiveRefresh, type LiveRefreshOptions } from './sessionLiveRefresh';
import { SourceRefresh } from './sessionSourceRefresh';
import { openDemoDir, type DemoControl } from './sessionDemo';
import { readWorkspace, reloadWorkspace, type WorkspaceTarget } from '../operations/reloadWorkspace';
import { hasWorkspaceChanges, noWorkspaceChanges, type WorkspaceChanges } from '../../shared/workspaceReload';
import { LIVE_REFRESH_OFF } from '../../shared/liveRefresh';
import type { LoadedWorkspace } from '../engine/workspace';
import { readHistory } from '../history/journal';
import { listBackupsHandler, planRestoreHandler, pruneBackupsHandler } from './sessionBackups';
import { workspaceHistoryFile } from '../history/journalPath';
import { listSourceBundles } from '../engine/sourceBundles';
import { resolveUserPath } from '../engine/userPath';
import type { HostStateEvent } from '../../shared/hostState';
import type { WorkspaceHost } from '../../shared/workspaceSchema';
import type { HostConnector } from './hostLink';
import { HostRouter } from './hostRouter';
import { forward, hostPlanStore, inspectOnHost, remoteIdOf, routedReadJob } from './sessionHosts';
import { addWorkspaceHost } from '../operations/addWorkspaceHost';

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
  /**
   * How this Session reaches a workspace's hosts (remote/hostConnector.ts: ssh and the agent). Without
   * it a workspace's hosts are listed with a warning and not shown (the agent's own Session).
   */
  connectHost?: HostConnector;
  /** At most this many hosts connecting at once (default 8). */
  hostsParallel?: number;
  /**
   * Live refresh (docs/live-refresh.md): watch the open workspace and push `liveRefresh` events. On by
   * default, off (false) for the ssh agent, whose client asks when it wants to know.
   */
  liveRefresh?: boolean | LiveRefreshOptions;
  /** The demo generator, handed in by the shell that starts the app: lets the app reset its own demo (sessionDemo.ts). */
  demo?: DemoControl;
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

function summaryOf(
  loaded: LoadedWorkspace,
  destinations: DestinationEntry[],
  issues: Issue[],
  listReadAt: string,
  hostsShown: boolean,
): Workspace {
  return {
    path: loaded.file ?? loaded.root,
    kind: loaded.kind,
    root: loaded.root,
    destinations,
    issues: [...issues, ...(hostsShown ? [] : hostsNotShown(loaded.hosts))],
    listReadAt,
  };
}

export class Session implements SessionContext {
  readonly state: SessionState = {};
  readonly jobs: JobRegistry;
  readonly plans = planStore();
  /** Plans made on hosts, under local ids. */
  readonly hostPlans = hostPlanStore();
  /** The open workspace's hosts and their connections, when it lists any and this Session reaches hosts. */
  private router: HostRouter | undefined;
  private readonly listeners = new Set<(event: ApiEvent) => void>();
  /** The opening of `initialWorkspace`: calls wait for it; a shell reports its failure. */
  readonly initialOpen: Promise<ApiResult<Workspace> | undefined>;
  /** Generated from the table's names: one handler per method; electron-only ones say not_available. */
  readonly handlers: HandlerTable;
  /** Undefined when live refresh is off. */
  private readonly live: LiveRefresh | undefined;
  /** The sync axis's live refresh: the configured source bundles watched (undefined when live refresh is off). */
  private readonly sourceRefresh: SourceRefresh | undefined;

  constructor(readonly options: SessionOptions) {
    this.jobs = new JobRegistry((event) => this.emit(event), { progressIntervalMs: options.progressIntervalMs });
    const live = options.liveRefresh ?? options.transport !== 'agent';
    this.live = live === false ? undefined : new LiveRefresh(this, (event) => this.emit(event), live === true ? {} : live);
    this.sourceRefresh =
      live === false
        ? undefined
        : new SourceRefresh(
            () => this.state.workspace,
            (event) => this.emit(event),
            live === true ? {} : live,
          );
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

  /** Fails the call itself (not a job later) when there is no workspace, an id is unknown, or its host is not connected. */
  private checkIds(ids: string[] | undefined): void {
    this.workspace();
    for (const id of ids ?? []) {
      const entry = this.destination(id);
      if (entry.host !== undefined) this.hostRouter().link(entry.host);
    }
  }

  private hostRouter(): HostRouter {
    if (!this.router) throw fail('not_available', 'this session does not reach hosts');
    return this.router;
  }

  /** The destination's host and its id there, when it is on a host. */
  private remote(id: string) {
    const remote = remoteIdOf(this, id);
    return remote && { ...remote, router: this.hostRouter() };
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
    const summary = summaryOf(read.loaded, destinations, read.issues, read.readAt, this.options.connectHost !== undefined);
    if (read.loaded.kind === 'file' && (await this.options.demo?.isDemo(read.loaded.root))) summary.demo = true;
    // Jobs and plans belong to the workspace they were made in.
    await this.jobs.close();
    this.plans.clear();
    this.hostPlans.clear();
    await this.router?.close();
    this.router = undefined;
    this.state.workspace = {
      summary,
      loaded: read.loaded,
      opened,
      byId: new Map(destinations.map((d) => [d.id, d])),
      scans: new Map(),
      verifies: new Map(),
      sources: new SourceManifests(),
    };
    this.syncHosts(read.loaded.hosts ?? []);
    // Not awaited: the list is shown while 10,000 watches are being set; liveRefreshStatus waits for them.
    void this.live?.follow(this.state.workspace);
    void this.sourceRefresh?.follow(this.state.workspace);
    return summary;
  }

  /** Starts, keeps, restarts or drops host connections to match the workspace's `hosts`. */
  private syncHosts(hosts: WorkspaceHost[]): void {
    const connector = this.options.connectHost;
    if (!connector) return;
    if (!this.router) {
      if (hosts.length === 0) return;
      this.router = new HostRouter([], { connector, onState: (event) => this.onHostState(event), limit: this.options.hostsParallel });
    }
    const router = this.router;
    const wanted = new Map(hosts.map((host) => [host.name, host]));
    for (const old of router.hosts()) {
      const now = wanted.get(old.name);
      if (!now || now.url !== old.url || now.agent !== old.agent) {
        this.dropHostDestinations(old.name);
        void router.remove(old.name);
      }
    }
    for (const host of hosts) if (!router.has(host.name)) router.add(host);
  }

  private dropHostDestinations(name: string): void {
    const open = this.state.workspace;
    this.hostPlans.dropHost(name);
    if (!open) return;
    const gone = open.summary.destinations.filter((entry) => entry.host === name);
    if (gone.length === 0) return;
    open.summary = { ...open.summary, destinations: open.summary.destinations.filter((entry) => entry.host !== name) };
    for (const entry of gone) {
      open.byId.delete(entry.id);
      open.scans.delete(entry.id);
      open.verifies.delete(entry.id);
    }
  }

  /** A host's new state: on (re)connect, its destinations replace the ones it had; then the event goes out. */
  private onHostState(event: HostStateEvent): void {
    const open = this.state.workspace;
    const name = event.host.name;
    if (event.host.state === 'connecting') this.hostPlans.dropHost(name);
    if (open && event.destinations) {
      const before = new Set(open.summary.destinations.filter((entry) => entry.host === name).map((entry) => entry.id));
      const now = new Set(event.destinations.map((entry) => entry.id));
      for (const id of before)
        if (!now.has(id)) {
          open.byId.delete(id);
          open.scans.delete(id);
          open.verifies.delete(id);
        }
      // A local destination keeps its id: a host's entry named the same (never from the loader) is left out.
      const added = event.destinations.filter((entry) => (open.byId.get(entry.id)?.host === undefined ? !open.byId.has(entry.id) : true));
      for (const entry of added) open.byId.set(entry.id, entry);
      open.summary = {
        ...open.summary,
        destinations: [...open.summary.destinations.filter((entry) => entry.host !== name), ...added],
      };
      this.emit({ event: 'hostState', data: { ...event, destinations: added } });
      return;
    }
    this.emit({ event: 'hostState', data: event });
  }

  /**
   * Reads the open workspace again (Rescan; live refresh when its file changes) and reconciles the list:
   * results and plans of destinations that went or changed are dropped, the others kept. A workspace
   * that no longer loads keeps its last good list, marked with the problem (file, field): nothing is lost.
   */
  async reloadWorkspace(): Promise<WorkspaceReloadAnswer> {
    const open = this.workspace();
    const reload = await reloadWorkspace(
      open.opened,
      open.summary.destinations.filter((entry) => entry.host === undefined),
    );
    // Another open while this one read the disk: its answer is about a workspace no longer shown.
    if (this.state.workspace !== open) return { workspace: this.workspace().summary, changes: noWorkspaceChanges() };
    if (!reload.ok) {
      open.summary = { ...open.summary, reloadProblem: reload.problem };
      return { workspace: open.summary, changes: noWorkspaceChanges() };
    }
    const { changes } = reload;
    // A Rescan reads the sources again too: a bundle rebuilt in place is a new decision.
    open.sources.forget();
    const destinations: DestinationEntry[] = reload.loaded.destinations.map((d) => ({ ...d }));
    for (const id of [...changes.removed, ...changes.changed]) {
      open.scans.delete(id);
      open.verifies.delete(id);
    }
    this.plans.dropFor(new Set([...changes.removed, ...changes.changed]));
    const remote = open.summary.destinations.filter((entry) => entry.host !== undefined);
    open.summary = summaryOf(
      reload.loaded,
      [...destinations, ...remote],
      reload.issues,
      reload.readAt,
      this.options.connectHost !== undefined,
    );
    open.loaded = reload.loaded;
    open.byId = new Map(open.summary.destinations.map((d) => [d.id, d]));
    this.syncHosts(reload.loaded.hosts ?? []);
    if (hasWorkspaceChanges(changes)) void this.live?.follow(open);
    void this.sourceRefresh?.follow(open);
    return { workspace: open.summary, changes };
  }

  private pool: HashPool | undefined;

  /** One pool of worker threads for the session's scans and verifies, made on first use. */
  hashPool(): HashPool {
    this.pool ??= new HashPool();
    return this.pool;
  }

  /** Keeps live refresh quiet about a destination the engine is writing; returns the release. */
  muteLiveRefresh(id: string): () => void {
    return this.live?.mute(id) ?? (() => undefined);
  }

  /** Resolves once the source bundles are watched (tests). */
  sourcesWatched(): Promise<void> {
    return this.sourceRefresh?.ready() ?? Promise.resolve();
  }

  async close(): Promise<void> {
    await this.live?.close();
    await this.sourceRefresh?.close();
    await this.jobs.close();
    await this.router?.close();
    this.router = undefined;
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
      liveRefreshStatus: async () => (this.live && this.state.workspace ? this.live.status() : LIVE_REFRESH_OFF),
      scan: async ({ destinations }) => {
        this.checkIds(destinations);
        const router = this.router;
        return {
          job: this.jobs.start('scan', (context) =>
            router ? routedReadJob('scan', this, router, destinations, context) : scanJob(this, destinations, context),
          ),
        };
      },
      inspectDestination: async ({ destination }) => {
        const remote = this.remote(destination);
        return remote ? inspectOnHost(remote.router, this, remote, destination) : inspectHandler(this, destination);
      },
      verify: async ({ destinations }) => {
        this.checkIds(destinations);
        const router = this.router;
        return {
          job: this.jobs.start('verify', (context) =>
            router ? routedReadJob('verify', this, router, destinations, context) : verifyJob(this, destinations, context),
          ),
        };
      },
      compare: async ({ destination, source, pipelineId, destinationId }) => {
        const remote = this.remote(destination);
        if (!remote) return compareHandler(this, destination, source, { pipelineId, destinationId });
        // A source path is read on the host, next to its destinations: no bytes travel.
        return forward(remote.router, remote.host, (link) =>
          link.call('compare', { destination: remote.id, source, pipelineId, destinationId }),
        );
      },
      contentDiff: async (request) => {
        const remote = this.remote(request.destination);
        if (!remote) return contentDiffHandler(this, request);
        return forward(remote.router, remote.host, (link) => link.call('contentDiff', { ...request, destination: remote.id }));
      },
      listSourceBundles: async () => listSourceBundles(this.workspace().loaded),
      planReplace: async (request) => {
        const remote = this.remote(request.destination);
        return remote
          ? this.hostPlans.plan(remote.router, remote, request.destination, 'planReplace', request)
          : this.plans.plan(this, request);
      },
      planRepair: async (request) => {
        // On a host, the agent proves the bytes from the source there: no output travels.
        const remote = this.remote(request.destination);
        return remote
          ? this.hostPlans.plan(remote.router, remote, request.destination, 'planRepair', request)
          : this.plans.planRepair(this, request);
      },
      planDiscardStaging: async (request) => {
        const remote = this.remote(request.destination);
        return remote
          ? this.hostPlans.plan(remote.router, remote, request.destination, 'planDiscardStaging', request)
          : this.plans.planDiscardStaging(this, request);
      },
      applyPlan: async ({ planId, confirm, includeNested, acceptPartial }) =>
        this.hostPlans.has(planId)
          ? this.hostPlans.apply(this, this.hostRouter(), planId, { confirm, includeNested, acceptPartial })
          : this.plans.apply(this, planId, confirm, includeNested, acceptPartial),
      hosts: async () => {
        this.workspace();
        return { hosts: this.router?.states() ?? [] };
      },
      reconnectHost: async ({ name }) => {
        this.workspace();
        return this.hostRouter().reconnect(name);
      },
      addHost: async (request) => {
        const open = this.workspace();
        if (!this.options.connectHost) throw fail('not_available', 'this session does not reach hosts');
        await addWorkspaceHost(open.loaded, request);
        const { workspace } = await this.reloadWorkspace();
        const host = this.hostRouter()
          .states()
          .find((state) => state.name === request.name.trim());
        if (!host) throw fail('internal', `host "${request.name}" was saved but is not in the workspace read again`);
        return { workspace, host };
      },
      history: async ({ destination }) => {
        if (destination !== undefined) {
          const remote = this.remote(destination);
          // A host's replaces are in the journal on that host.
          if (remote) return forward(remote.router, remote.host, (link) => link.call('history', { destination: remote.id }));
        }
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
      listBackups: async (request) => {
        const remote = request.destination !== undefined ? this.remote(request.destination) : undefined;
        if (!remote) return listBackupsHandler(this, request);
        // A host's backups are its agent's: beside the workspace file on that host, as its workspace sets them.
        return forward(remote.router, remote.host, (link) => link.call('listBackups', { destination: remote.id }));
      },
      planRestore: async (request) => {
        const remote = this.remote(request.destination);
        return remote
          ? this.hostPlans.plan(remote.router, remote, request.destination, 'planRestore', request)
          : planRestoreHandler(this, (stored) => this.plans.keepRestore(stored), request);
      },
      pruneBackups: async (request) => {
        const remote = request.destination !== undefined ? this.remote(request.destination) : undefined;
        if (!remote) return pruneBackupsHandler(this, request);
        return forward(remote.router, remote.host, (link) => link.call('pruneBackups', { destination: remote.id }));
      },
      demoResetScope: async () => {
        const dir = await openDemoDir(this.options.demo, this.workspace().summary);
        const scope = await this.options.demo!.scope(dir);
        if (!scope.ok) throw fail('refused', scope.error);
        return scope.value;
      },
      resetDemo: async () => {
        const open = this.workspace();
        const dir = await openDemoDir(this.options.demo, open.summary);
        if (this.jobs.isRunning('applyPlan'))
          throw fail('refused', 'a replace is running: wait for it to finish before resetting the demo');
        const reset = await this.options.demo!.reset(dir);
        if (!reset.ok) throw fail('refused', reset.error);
        return this.open(open.opened.target);
      },
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
