// The engine side of the API, transport-free: the open workspace, destination ids resolved to paths,
// plans kept under opaque ids, jobs with progress and cancel. IPC and HTTP both call `session.call`.
// Must never act on a path the renderer sends for a destructive action (only ids it resolves), and
// never let an exception cross the boundary: every failure is an ApiError.

import { installedCommand } from './installedCommand';
import path from 'node:path';
import type { ZodType } from 'zod';
import {
  apiError,
  checkOutgoing,
  isMethodName,
  methods,
  parseRequest,
  type ApiEvent,
  type ApiResult,
  type DestinationEntry,
  type DestinationRead,
  type Workspace,
} from '../../shared/api';

import { APP_VERSION } from '../engine/appVersion';
import { HashPool } from '../engine/hashPool';
import { SourceManifests } from './workspaceSync';
import { errorOf, fail } from '../../shared/apiError';
import { JobRegistry } from './jobRegistry';
import { destinationPage, firstOfWorkspace, summaryOf, type WorkspaceReloadAnswer } from './workspaceSummary';
import { exportReport } from './report';
import { compareHandler, contentDiffHandler, inspectHandler, scanJob, verifyJob, verifyPass } from './sessionDestinations';
import { StatCache, userStatCacheFile } from '../engine/statCache';
import type { OpenWorkspace, SessionContext, SessionState } from './sessionContext';
import { planStore } from './sessionPlans';
import { LiveRefresh } from './sessionLiveRefresh';
import { SessionChangeFeed } from './changeFeed';
import { SourceRefresh } from './sessionSourceRefresh';
import { demoHandlers } from './sessionDemo';
import { readWorkspace, reloadWorkspace, type WorkspaceTarget } from '../operations/reloadWorkspace';
import { hasWorkspaceChanges, noWorkspaceChanges } from '../../shared/workspaceReload';
import { LIVE_REFRESH_OFF } from '../../shared/liveRefresh';
import { readPreferences, savePreferences } from './preferencesFile';

/** What the switch says where nothing is watched (the ssh agent): nothing to re-verify by itself. */
const AUTO_VERIFY_WITHOUT_LIVE_REFRESH = { enabled: false, fixedBy: 'live refresh is off here, so nothing is verified again by itself' };

import { listBackupsHandler, planRestoreHandler, pruneBackupsHandler } from './sessionBackups';
import { historyOf } from './sessionStorage';
import { notAvailableHandlers, typedPathIn } from './sessionPaths';
import { listSourceBundles } from '../engine/sourceBundles';

import { HostConnections, hostHandlers } from './hostConnections';
import { HostWatches } from './hostWatch';
import { placeReload } from './sessionReload';
import { hostPlanStore } from './sessionHosts';
import { routedByHost } from './hostRouting';
import { isSshUrl } from '../../shared/sshUrl';

export type { Transport } from '../../shared/api';
export type { OpenWorkspace, RequestValue, SessionState } from './sessionContext';
export type { WorkspaceReloadAnswer } from './workspaceSummary';

export type { ElectronOnlyMethod, Handler, HandlerTable, SessionOptions } from './sessionOptions';
import type { ElectronOnlyMethod, HandlerTable, SessionOptions } from './sessionOptions';

export class Session implements SessionContext {
  readonly state: SessionState = {};
  readonly jobs: JobRegistry;
  readonly plans = planStore();
  /** Plans made on hosts, under local ids. */
  readonly hostPlans = hostPlanStore();
  /** The open workspace's hosts and their connections (hostConnections.ts). */
  private readonly hostLinks: HostConnections;
  private readonly listeners = new Set<(event: ApiEvent) => void>();
  /** The opening of `initialWorkspace`: calls wait for it; a shell reports its failure. */
  readonly initialOpen: Promise<ApiResult<Workspace> | undefined>;
  /** Generated from the table's names: one handler per method; electron-only ones say not_available. */
  readonly handlers: HandlerTable;
  /** Undefined when live refresh is off. */
  private readonly live: LiveRefresh | undefined;
  private readonly sourceRefresh: SourceRefresh | undefined; // the configured source bundles watched (sessionSourceRefresh.ts)
  /** A host's agent: its destinations watched for its client, once asked (changeFeed.ts). */
  private readonly feed: SessionChangeFeed;

  constructor(readonly options: SessionOptions) {
    this.jobs = new JobRegistry((event) => this.emit(event), {
      progressIntervalMs: options.progressIntervalMs,
      checkAnswers: options.checkAnswers,
    });
    // The agent's and the command line's clients ask when they want to know: nothing to watch for them.
    const live = options.liveRefresh ?? (options.transport !== 'agent' && options.transport !== 'cli');
    this.live = live === false ? undefined : new LiveRefresh(this, (event) => this.emit(event), live === true ? {} : live);
    const watch = this.live && new HostWatches(this, (event) => this.emit(event), this.live);
    this.hostLinks = new HostConnections(this.state, this.hostPlans, options, (event) => this.emit(event), watch);
    this.sourceRefresh = live === false ? undefined : new SourceRefresh(this, (event) => this.emit(event), live === true ? {} : live);
    this.feed = new SessionChangeFeed((event) => this.emit(event), options.changeFeed, this.live !== undefined);
    const saved = options.preferencesFile ? readPreferences(options.preferencesFile).autoVerify : undefined;
    if (saved !== undefined) this.live?.setAutoVerify(saved);
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
    // The engine's answer is checked too: a wiring bug shows up as a clear error, not a broken UI;
    // a client in this process takes it as it is (SessionOptions.checkAnswers).
    if (this.options.checkAnswers === false) return { ok: true, value };
    return checkOutgoing(methods[method].response as ZodType, value, `${method}: the engine's response`);
  }

  workspace(): OpenWorkspace {
    if (!this.state.workspace) throw fail('no_workspace', 'no workspace is open: open a folder or a distributor-inspector.json file first');
    return this.state.workspace;
  }

  /** The journal and the backups need an open workspace, unless this Session was given places of its own (the CLI). */
  private workspaceOrStorage(): void {
    if (!this.options.storage) this.workspace();
  }

  destination(id: string): DestinationEntry {
    const entry = this.workspace().byId.get(id);
    if (!entry) throw fail('not_found', `no destination "${id}" in the open workspace`);
    return entry;
  }

  typedPath(typed: string, what: 'workspace' | 'source'): string {
    return typedPathIn(this.state.workspace?.summary.root, typed, what);
  }

  /** Fails the call itself (not a job later) when there is no workspace, an id is unknown, or its host is not connected. */
  private checkIds(ids: string[] | undefined): void {
    this.workspace();
    for (const id of ids ?? []) {
      const entry = this.destination(id);
      if (entry.host !== undefined) this.hostLinks.required().link(entry.host);
    }
  }

  /** `asDestination`: the folder is the workspace's one destination, whatever it holds. */
  async open(target: string, asDestination = false): Promise<Workspace> {
    // Opening another workspace cancels its jobs; a replace is left to finish rather than stopped half-way.
    if (this.jobs.isRunning('applyPlan'))
      throw fail('refused', 'a replace is running: wait for it to finish before opening another workspace');
    const opened: WorkspaceTarget = { target: isSshUrl(target) ? target : path.resolve(target), asDestination };
    const read = await readWorkspace(opened);
    if (!read.ok) throw fail('invalid_workspace', read.problem.message, { issues: read.problem.issues, file: read.problem.file });
    const destinations: DestinationEntry[] = read.loaded.destinations.map((d) => ({ ...d }));
    const summary = summaryOf(read.loaded, destinations, read.issues, read.readAt, this.options.connectHost !== undefined);
    if (read.loaded.kind === 'file' && (await this.options.demo?.isDemo(read.loaded.root))) summary.demo = true;
    // Jobs and plans belong to the workspace they were made in.
    await this.jobs.close();
    this.plans.clear();
    this.hostPlans.clear();
    await this.hostLinks.close();
    this.state.workspace = {
      summary,
      loaded: read.loaded,
      opened,
      byId: new Map(destinations.map((d) => [d.id, d])),
      scans: new Map(),
      verifies: new Map(),
      sources: new SourceManifests(),
    };
    this.hostLinks.sync(read.loaded.hosts ?? []);
    // Not awaited: the list is shown while 10,000 watches are being set; liveRefreshStatus waits for them.
    void this.live?.follow(this.state.workspace);
    void this.sourceRefresh?.follow(this.state.workspace);
    this.feed.follow(this.state.workspace);
    return summary;
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
    placeReload(open, reload, this.plans, this.options.connectHost !== undefined);
    this.hostLinks.sync(reload.loaded.hosts ?? []);
    if (hasWorkspaceChanges(changes)) {
      void this.live?.follow(open);
      this.feed.follow(open);
    }
    void this.sourceRefresh?.follow(open);
    return { workspace: open.summary, changes };
  }

  private pool: HashPool | undefined;
  private statCacheLoad: Promise<StatCache | undefined> | undefined;

  /** Live refresh's auto-verify: these destinations verified again through the stat cache, outside any job. */
  async verifyQuietly(open: OpenWorkspace, ids: string[]): Promise<DestinationRead[]> {
    const reads: DestinationRead[] = [];
    const destinations = ids.map((id) => open.byId.get(id)).filter((d): d is DestinationEntry => d !== undefined);
    await verifyPass(this, open, destinations, { onRead: (read) => reads.push(read) });
    return reads;
  }

  async hasCachedSignatures(destinationPath: string): Promise<boolean> {
    return (await this.statCache())?.known(destinationPath) !== undefined;
  }

  /** The verify stat cache (docs/verify-freshness.md), loaded on first use; none when the options say false. */
  statCache(): Promise<StatCache | undefined> {
    const file = this.options.statCacheFile ?? userStatCacheFile();
    if (file === false) return Promise.resolve(undefined);
    this.statCacheLoad ??= StatCache.load(file).then(({ cache }) => cache);
    return this.statCacheLoad;
  }

  /** One pool of worker threads for the session's scans and verifies, made on first use. */
  hashPool(): HashPool {
    this.pool ??= new HashPool();
    return this.pool;
  }

  /** Keeps live refresh quiet about a destination the engine is writing; returns the release. */
  muteLiveRefresh(id: string): () => void {
    const releases = [this.live?.mute(id), this.feed.mute(id)];
    return () => releases.forEach((release) => release?.());
  }

  /** Resolves once the source bundles are watched (tests). */
  sourcesWatched = (): Promise<void> => this.sourceRefresh?.ready() ?? Promise.resolve();

  async close(): Promise<void> {
    await this.live?.close();
    await this.sourceRefresh?.close();
    this.feed.close();
    await this.jobs.close();
    await this.hostLinks.close();
    await this.pool?.close();
    this.pool = undefined;
  }

  private makeHandlers(): HandlerTable {
    // Every electron-only method of the table answers not_available here; the Electron shell overrides them.
    const electronOnly = notAvailableHandlers() as Partial<HandlerTable>;
    const handlers: Omit<HandlerTable, ElectronOnlyMethod | 'scan' | 'verify'> = {
      appInfo: async ({ firstDestinations }) => ({
        version: APP_VERSION,
        transport: this.options.transport,
        command: installedCommand(),
        initialWorkspace: this.options.initialWorkspace,
        ...firstOfWorkspace(this.state.workspace?.summary, firstDestinations),
      }),
      workspaceDestinations: async ({ from, count }) => destinationPage(this.workspace().summary, from, count),
      openWorkspace: async ({ path, asDestination }) =>
        this.open(isSshUrl(path) ? path : this.typedPath(path, 'workspace'), asDestination === true),
      reloadWorkspace: async () => this.reloadWorkspace(),
      watchDestinations: async () => this.feed.subscribe(this.workspace()),
      liveRefreshStatus: async () => (this.live && this.state.workspace ? this.live.status() : LIVE_REFRESH_OFF),
      autoVerifySetting: async () => this.live?.autoVerifySetting() ?? AUTO_VERIFY_WITHOUT_LIVE_REFRESH,
      setAutoVerify: async ({ enabled }) => {
        if (!this.live) return AUTO_VERIFY_WITHOUT_LIVE_REFRESH;
        const setting = this.live.setAutoVerify(enabled);
        if (this.options.preferencesFile && setting.fixedBy === undefined)
          await savePreferences(this.options.preferencesFile, { autoVerify: enabled });
        return setting;
      },
      inspectDestination: async ({ destination }) => inspectHandler(this, destination),
      compare: async ({ destination, source, pipelineId, destinationId }) =>
        compareHandler(this, destination, source, { pipelineId, destinationId }),
      contentDiff: async (request) => contentDiffHandler(this, request),
      listSourceBundles: async () => listSourceBundles(this.workspace().loaded),
      planReplace: async (request) => this.plans.plan(this, request),
      planRepair: async (request) => this.plans.planRepair(this, request),
      planDiscardStaging: async (request) => this.plans.planDiscardStaging(this, request),
      compareFolder: async (request) => this.plans.compareFolder(this, request),
      planAdopt: async (request) => this.plans.planAdopt(this, request),
      applyPlan: async ({ planId, ...consent }) => this.plans.apply(this, planId, consent),
      ...hostHandlers(this, this.hostLinks),
      history: async ({ destination, cursor, limit }) => {
        this.workspaceOrStorage();
        return historyOf(this, destination === undefined ? undefined : this.destination(destination), { cursor, limit });
      },
      listBackups: async (request) => {
        this.workspaceOrStorage();
        return listBackupsHandler(this, request);
      },
      planRestore: async (request) => planRestoreHandler(this, (stored) => this.plans.keepRestore(stored), request),
      pruneBackups: async (request) => {
        this.workspaceOrStorage();
        return pruneBackupsHandler(this, request);
      },
      ...demoHandlers(this.options.demo, this),
      cancelJob: async ({ job }) => ({ cancelled: this.jobs.cancel(job) }),
      exportReport: async ({ format }) => exportReport(this.workspace(), format),
    };
    // One wrapper decides where each destination's call goes: its host's agent, or the handlers above.
    const routed = routedByHost(
      handlers,
      {
        scan: (ids, context) => scanJob(this, ids, context),
        verify: (ids, context) => verifyJob(this, ids, context),
      },
      { session: this, hosts: this.hostLinks, hostPlans: this.hostPlans, checkIds: (ids) => this.checkIds(ids) },
    );
    return { ...electronOnly, ...handlers, ...routed } as HandlerTable;
  }
}
