// The one place that routes a call by where its destination is (issue 25, step 2): a destination on a
// workspace host goes to that host's agent (sessionHosts.ts: its id there, the answer named `NAME:ID`,
// its plans kept under local ids), every other one to this machine's handlers. As VS Code's
// ProxyChannel makes a service and its remote proxy one interface, the table that comes out has the
// shape of the local one: the Session (and through it each transport and the command line) calls it
// without knowing where a destination is.
// Must never send a host a call about another host's destination, nor run a local handler on a
// destination that lives on a host.

import type { JobMethod, JobResultOf, RequestOf, ResponseOf } from '../../shared/api';
import type { HostConnections } from './hostConnections';
import type { JobContext } from './jobRegistry';
import type { RequestValue, SessionContext } from './sessionContext';
import { forward, inspectOnHost, remoteIdOf, routedReadJob, type hostPlanStore, type RemoteId } from './sessionHosts';
import type { HostRouter } from './hostRouter';
import { isSshUrl } from '../../shared/sshUrl';
import type { HandlerTable } from './sessionOptions';

/** Methods whose request names one destination, answered by the host as it is. */
const FORWARDED = ['compare', 'compareFolder', 'contentDiff', 'history', 'listBackups', 'pruneBackups'] as const;
/** Methods that make a plan: the host's plan is kept here under a local id (hostPlanStore). */
const PLANNED = ['planReplace', 'planRepair', 'planDiscardStaging', 'planAdopt', 'planRestore'] as const;

type ForwardedMethod = (typeof FORWARDED)[number];
type PlannedMethod = (typeof PLANNED)[number];
/** Jobs over many destinations: this machine's part and each host's run at once (routedReadJob). */
type ReadJob = 'scan' | 'verify';
type Routed = ForwardedMethod | PlannedMethod | ReadJob | 'inspectDestination' | 'applyPlan';

/** The one host of a workspace opened as an `ssh://` path (operations/reloadWorkspace.ts); undefined for any other. */
function wholeHost(session: SessionContext): string | undefined {
  const open = session.state.workspace;
  const hosts = open?.loaded.hosts ?? [];
  return open && isSshUrl(open.opened.target) && hosts.length === 1 ? hosts[0]!.name : undefined;
}

/** What a scan or a verify runs on this machine's destinations. */
export type LocalReadJobs = {
  [M in ReadJob]: (ids: string[] | undefined, context: JobContext<M>) => Promise<JobResultOf<M>>;
};

export interface HostRouting {
  session: SessionContext;
  hosts: HostConnections;
  hostPlans: ReturnType<typeof hostPlanStore>;
  /** Checks a job's ids before it starts: the call fails, not the job later. */
  checkIds: (ids: string[] | undefined) => void;
}

/**
 * The local handlers, routed: each method of `Routed` asks the destination's host when it is on one.
 * `local` answers everything else, and every destination of this machine.
 */
export function routedByHost(
  local: Pick<HandlerTable, Exclude<Routed, ReadJob>>,
  readJobs: LocalReadJobs,
  { session, hosts, hostPlans, checkIds }: HostRouting,
): Pick<HandlerTable, Routed> {
  const remote = (id: string): (RemoteId & { router: HostRouter }) | undefined => {
    const found = remoteIdOf(session, id);
    return found && { ...found, router: hosts.required() };
  };
  /** `destination` is optional for history and the backups: none means this machine's journal and backups. */
  const routeOne =
    <M extends Routed>(method: M, onHost: (at: RemoteId & { router: HostRouter }, request: RequestValue<M>) => Promise<ResponseOf<M>>) =>
    async (request: RequestValue<M>): Promise<ResponseOf<M>> => {
      const destination = (request as { destination?: string }).destination;
      const at = destination === undefined ? undefined : remote(destination);
      if (at) return onHost(at, request);
      const whole = destination === undefined ? wholeHost(session) : undefined;
      // An ssh:// path opened as a workspace of one host: its journal and backups are that host's.
      if (whole !== undefined && (FORWARDED as readonly string[]).includes(method))
        return forward(hosts.required(), whole, (link) => link.call(method as ForwardedMethod, request as never)) as Promise<ResponseOf<M>>;
      return (local[method as Exclude<Routed, ReadJob>] as unknown as (r: RequestValue<M>) => Promise<ResponseOf<M>>)(request);
    };

  const forwarded = Object.fromEntries(
    FORWARDED.map((method) => [
      method,
      routeOne(method, (at, request) =>
        forward(at.router, at.host, (link) => link.call(method, { ...request, destination: at.id } as RequestOf<typeof method>)),
      ),
    ]),
  ) as Pick<HandlerTable, ForwardedMethod>;

  const planned = Object.fromEntries(
    PLANNED.map((method) => [
      method,
      routeOne(method, (at, request) => hostPlans.plan(at.router, at, request.destination, method, request as never)),
    ]),
  ) as Pick<HandlerTable, PlannedMethod>;

  const readJob =
    <M extends ReadJob>(method: M) =>
    async ({ destinations }: { destinations?: string[] }): Promise<{ job: string }> => {
      checkIds(destinations);
      const router = hosts.router;
      const run = readJobs[method] as (ids: string[] | undefined, context: JobContext<M>) => Promise<JobResultOf<M>>;
      return {
        job: session.jobs.start(method as JobMethod, (context) =>
          router
            ? routedReadJob(method, session, router, destinations, context as JobContext<M>)
            : run(destinations, context as JobContext<M>),
        ),
      };
    };

  return {
    ...forwarded,
    ...planned,
    scan: readJob('scan'),
    verify: readJob('verify'),
    inspectDestination: routeOne('inspectDestination', (at, { destination }) => inspectOnHost(at.router, session, at, destination)),
    // A plan made on a host is known by its local id; the consent it needs is checked here before it is sent.
    applyPlan: async ({ planId, ...consent }) =>
      hostPlans.has(planId) ? hostPlans.apply(session, hosts.required(), planId, consent) : local.applyPlan({ planId, ...consent }),
  };
}
