// The Session's calls about destinations on workspace hosts (issue 15): routed to that host's agent
// with the host's own ids, answers renamed `NAME:ID` so nothing is confused with a local destination.
// A scan or a verify runs this machine's part and every host's part at once; a host lost mid-job
// leaves the others' results in and ends the job as connection_lost ("outcome unknown: re-inspect").
// Must never forward a forced replace without the operator having typed the host-named id, nor
// report a remote apply as done when its connection was lost.

import type { DestinationRead, JobMethod, JobResultOf, RequestOf, ResponseOf, ScanEntry, VerifyEntry } from '../../shared/api';
import type { RestorePlan } from '../../shared/backupSchema';
import { ApiFailure, fail } from '../../shared/apiError';
import { idOnHost, remoteDestinationId } from '../../shared/hostState';
import type { ConfirmationLevel, ReplacePlan } from '../../shared/plan';
import { requireConsent, type Consent } from './consentGate';
import type { HostFailure, HostLink } from './hostLink';
import { HostItemGuard } from './hostItems';
import type { HostRouter } from './hostRouter';
import type { JobContext } from './jobRegistry';
import { opaqueId } from './opaqueId';
import type { RequestValue, SessionContext } from './sessionContext';
import { keepReread, keepVerify, scanJob, verifyJob } from './sessionDestinations';

/** A destination id split into its host and the host's own id; undefined for this machine's. */
export interface RemoteId {
  host: string;
  id: string;
}

export function remoteIdOf(session: SessionContext, id: string): RemoteId | undefined {
  const entry = session.destination(id);
  if (entry.host === undefined) return undefined;
  return { host: entry.host, id: idOnHost(entry.host, id) ?? id };
}

function isHostFailure(cause: unknown): cause is HostFailure {
  return (
    !(cause instanceof ApiFailure) &&
    typeof (cause as HostFailure | undefined)?.code === 'string' &&
    typeof (cause as HostFailure).message === 'string'
  );
}

/** A lost connection as the API names it: connection_lost, its outcome unknown. */
function lostError(host: string, cause: HostFailure): ApiFailure {
  return fail('connection_lost', `${host}: ${cause.message}`, { host, remote: cause.code });
}

/** One call on a host's agent; its own failure as is, a lost connection as connection_lost. */
export async function forward<T>(
  router: HostRouter,
  host: string,
  call: (link: HostLink) => Promise<{ ok: true; value: T } | { ok: false; error: ApiFailure['error'] }>,
): Promise<T> {
  const link = router.link(host);
  let answer: Awaited<ReturnType<typeof call>>;
  try {
    answer = await call(link);
  } catch (cause) {
    if (isHostFailure(cause)) throw lostError(host, cause);
    throw cause;
  }
  if (!answer.ok) throw new ApiFailure({ ...answer.error, message: `${host}: ${answer.error.message}` });
  return answer.value;
}

function renamedScan(host: string, entry: ScanEntry): ScanEntry {
  return { ...entry, destination: remoteDestinationId(host, entry.destination) };
}

function renamedVerify(host: string, entry: VerifyEntry): VerifyEntry {
  return { ...entry, destination: remoteDestinationId(host, entry.destination) };
}

export async function inspectOnHost(
  router: HostRouter,
  session: SessionContext,
  remote: RemoteId,
  id: string,
): Promise<ResponseOf<'inspectDestination'>> {
  const answer = await forward(router, remote.host, (link) => link.call('inspectDestination', { destination: remote.id }));
  return { ...answer, destination: session.destination(id) };
}

// ---------------------------------------------------------------------------------------------
// Scan and verify across this machine and the hosts

type ReadMethod = Extract<JobMethod, 'scan' | 'verify'>;

interface Part {
  done: number;
  total: number;
  bytes: number;
}

/**
 * Runs this machine's part and each host's at once. `ids` undefined: every destination (the hosts'
 * connected ones); the hosts that are not connected are left out (their state says why).
 */
export async function routedReadJob<M extends ReadMethod>(
  method: M,
  session: SessionContext,
  router: HostRouter,
  ids: string[] | undefined,
  context: JobContext<M>,
): Promise<JobResultOf<M>> {
  const open = session.workspace();
  const local: string[] = [];
  const byHost = new Map<string, string[] | undefined>();
  if (ids === undefined) {
    for (const entry of open.summary.destinations) if (entry.host === undefined) local.push(entry.id);
    for (const host of router.hosts()) if (router.isConnected(host.name)) byHost.set(host.name, undefined);
  } else {
    for (const id of ids) {
      const remote = remoteIdOf(session, id);
      if (!remote) local.push(id);
      else byHost.set(remote.host, [...(byHost.get(remote.host) ?? []), remote.id]);
    }
  }
  const parts: Part[] = [];
  const report = () => {
    const sum = parts.reduce(
      (total, part) => ({ done: total.done + part.done, total: total.total + part.total, bytes: total.bytes + part.bytes }),
      { done: 0, total: 0, bytes: 0 },
    );
    context.progress(sum.done, sum.total, sum.bytes);
  };
  const partContext = (): JobContext<M> => {
    const part: Part = { done: 0, total: 0, bytes: 0 };
    parts.push(part);
    return {
      signal: context.signal,
      item: context.item,
      progress: (done, total, bytes) => {
        Object.assign(part, { done, total, bytes });
        report();
      },
    };
  };
  const runs: Promise<JobResultOf<M>>[] = [];
  if (local.length > 0 || ids === undefined) {
    const sub = partContext();
    runs.push(
      (method === 'scan' ? scanJob(session, local, sub as never) : verifyJob(session, local, sub as never)) as Promise<JobResultOf<M>>,
    );
  }
  const lost: string[] = [];
  for (const [host, hostIds] of byHost) {
    const sub = partContext();
    const link = router.link(host);
    const guard = new HostItemGuard(host, method, new Set(hostIds ?? listedOn(router, host)));
    // A refused item stops this host's part only: the agent is asked to cancel it.
    const stop = new AbortController();
    runs.push(
      link
        .job(method, (hostIds === undefined ? {} : { destinations: hostIds }) as never, {
          signal: AbortSignal.any([context.signal, stop.signal]),
          onProgress: ({ done, total, bytes }) => sub.progress(done, total, bytes),
          onItem: (item) => {
            const read = method === 'scan' ? { entry: item as ScanEntry } : (item as DestinationRead);
            if (!guard.admit(read.entry.destination)) return stop.abort();
            const entry = renamedScan(host, read.entry);
            keepReread(open, entry);
            if (method === 'scan') return sub.item(entry as never);
            // The host's row and its verify from the one read there, kept and passed on as one item.
            const verify = read.verify && keepVerify(open, entry.destination, read.verify.report, read.verify.stamp);
            sub.item((verify ? { entry, verify } : { entry }) as never);
          },
        })
        .then(
          async (ending) => {
            if (guard.refusal) throw guard.refusal;
            if (ending.ok) return ending.value;
            // The agent cancels its jobs when its input ends: a cancel nobody asked for is the connection going.
            if (ending.error.code === 'cancelled' && !context.signal.aborted) {
              await Promise.race([link.ended, new Promise((resolve) => setTimeout(resolve, 5000))]);
              if (link.lost) {
                lost.push(`${host}: ${link.lost.message}`);
                throw lostError(host, link.lost);
              }
            }
            throw new ApiFailure({ ...ending.error, message: `${host}: ${ending.error.message}` });
          },
          (cause: unknown) => {
            if (guard.refusal) throw guard.refusal;
            if (!isHostFailure(cause)) throw cause;
            lost.push(`${host}: ${cause.message}`);
            throw lostError(host, cause);
          },
        ),
    );
  }
  const settled = await Promise.allSettled(runs);
  context.signal.throwIfAborted();
  if (lost.length > 0)
    throw fail('connection_lost', `${lost.join('; ')}${settled.length > lost.length ? ' (the results of the other hosts are in)' : ''}`, {
      hosts: lost.length,
    });
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const results = settled.map((outcome) => (outcome as PromiseFulfilledResult<JobResultOf<M>>).value);
  return sumResults(results) as JobResultOf<M>;
}

/** The host's own ids of the destinations its agent listed when it connected. */
function listedOn(router: HostRouter, host: string): string[] {
  return router.destinations().flatMap((entry) => (entry.host === host ? [idOnHost(host, entry.id) ?? entry.id] : []));
}

/** Adds counts key by key (scan's `counts`, verify's intact/drifted/skipped). */
function sumResults(results: unknown[]): unknown {
  const add = (a: unknown, b: unknown): unknown => {
    if (typeof a === 'number' && typeof b === 'number') return a + b;
    if (a && b && typeof a === 'object' && typeof b === 'object')
      return Object.fromEntries(
        Object.keys({ ...a, ...b }).map((key) => [
          key,
          add((a as Record<string, unknown>)[key] ?? 0, (b as Record<string, unknown>)[key] ?? 0),
        ]),
      );
    return a ?? b;
  };
  return results.reduce(add);
}

// ---------------------------------------------------------------------------------------------
// Plans and applies on a host

/** The plan methods routed to a host; each answer is kept here under a local id. */
type HostPlanMethod = 'planReplace' | 'planRepair' | 'planDiscardStaging' | 'planAdopt' | 'planRestore';

interface HostPlanBase {
  host: string;
  destination: string;
  remotePlanId: string;
  /** How the host's service asks the operator to confirm it (its backup settings decide, there). */
  confirmation: ConfirmationLevel;
  /** `NAME:ID` the operator types (the host's own confirmText, named by its host). */
  confirmText?: string;
  remoteConfirm?: string;
}

/** A replace, forced replace, repair or discard of staging (the agent's ReplacePlan), or a restore of a backup. */
type HostPlan = HostPlanBase & { plan: ReplacePlan | RestorePlan };

/** The plans made on hosts, under local opaque ids: a remote plan id never reaches the renderer. */
export function hostPlanStore() {
  const plans = new Map<string, HostPlan>();
  return {
    has: (planId: string) => plans.has(planId),
    clear: () => plans.clear(),
    dropFor: (ids: ReadonlySet<string>) => {
      for (const [planId, stored] of plans) if (ids.has(stored.destination)) plans.delete(planId);
    },
    dropHost: (host: string) => {
      for (const [planId, stored] of plans) if (stored.host === host) plans.delete(planId);
    },

    /**
     * Plans on the host (the agent reads the destination and its source there) and keeps the answer:
     * the renderer gets a local id, and a confirmText named by the host (`NAME:ID`).
     */
    async plan<M extends HostPlanMethod>(
      router: HostRouter,
      remote: RemoteId,
      id: string,
      method: M,
      request: RequestValue<M>,
    ): Promise<ResponseOf<M>> {
      const answer = (await forward(router, remote.host, (link) =>
        link.call(method, { ...request, destination: remote.id } as RequestOf<M>),
      )) as { planId: string; plan: ReplacePlan | RestorePlan; confirmText?: string; confirmation: ConfirmationLevel };
      const planId = opaqueId('plan');
      const confirmText = answer.confirmText === undefined ? undefined : remoteDestinationId(remote.host, answer.confirmText);
      const base = {
        host: remote.host,
        destination: id,
        remotePlanId: answer.planId,
        confirmation: answer.confirmation,
        confirmText,
        remoteConfirm: answer.confirmText,
      };
      plans.set(planId, { ...base, plan: answer.plan });
      return {
        planId,
        plan: answer.plan,
        confirmation: answer.confirmation,
        ...(confirmText !== undefined ? { confirmText } : {}),
      } as ResponseOf<M>;
    },

    /** The same checks as a local apply, before anything is sent: the typed `NAME:ID`, the nested and partial acknowledgements, one apply at a time. */
    apply(
      session: SessionContext,
      router: HostRouter,
      planId: string,
      consent: Consent & { reportAfter?: boolean | undefined },
    ): ResponseOf<'applyPlan'> {
      const stored = plans.get(planId)!;
      // The client's own checks, before anything is sent; the agent checks its own plan again (its
      // typed id, the stale-plan check) when it gets the apply.
      requireConsent({ ...stored, busy: session.jobs.isRunning('applyPlan') }, consent);
      const link = router.link(stored.host);
      // One plan, one apply: a second click cannot send it again.
      plans.delete(planId);
      const open = session.workspace();
      const guard = new HostItemGuard(stored.host, 'apply', new Set([idOnHost(stored.host, stored.destination) ?? stored.destination]));
      const job = session.jobs.start('applyPlan', async (context) => {
        let ending;
        try {
          ending = await link.job(
            'applyPlan',
            {
              planId: stored.remotePlanId,
              ...(stored.remoteConfirm !== undefined ? { confirm: stored.remoteConfirm } : {}),
              // The client's gate checked the operator's answer; the agent's gate asks the same level again.
              confirmed: true,
              ...(consent.includeNested !== undefined ? { includeNested: consent.includeNested } : {}),
              ...(consent.acceptPartial !== undefined ? { acceptPartial: consent.acceptPartial } : {}),
              ...(consent.keep !== undefined ? { keep: [...consent.keep] } : {}),
              ...(consent.reportAfter !== undefined ? { reportAfter: consent.reportAfter } : {}),
            },
            {
              signal: context.signal,
              onProgress: ({ done, total, bytes, step }) => context.progress(done, total, bytes, step),
              onItem: (item: DestinationRead) => {
                // An apply is never cancelled for a bad item (it may be writing): the item is dropped, the ending refused.
                if (!guard.admit(item.entry.destination)) return;
                const entry = renamedScan(stored.host, item.entry);
                open.scans.set(entry.destination, entry);
                if (!item.verify) open.verifies.delete(entry.destination);
                const verify = item.verify ? renamedVerify(stored.host, item.verify) : undefined;
                context.item(verify ? { entry, verify: keepVerify(open, entry.destination, verify.report, verify.stamp) } : { entry });
              },
            },
          );
        } catch (cause) {
          // Sent, and then the connection went: whether the host applied it is not known here.
          if (isHostFailure(cause)) throw lostError(stored.host, cause);
          throw cause;
        }
        if (guard.refusal) throw guard.refusal;
        if (!ending.ok) throw new ApiFailure({ ...ending.error, message: `${stored.host}: ${ending.error.message}` });
        return ending.value;
      });
      return { job };
    },
  };
}
