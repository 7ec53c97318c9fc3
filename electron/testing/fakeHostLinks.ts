// Hosts for tests of the CLI's Session (scan, inspect over hosts): each host a real agent Session in
// this process behind a stand-in link (no ssh), counting what it was asked and how many connected at
// once. Tests only.

import type { ApiEvent, ApiResult } from '../../shared/api';
import type { HostConnector, HostFailure, HostJobHandlers, HostLink } from '../service/hostLink';
import { Session } from '../service/session';

/** A link to an agent Session of this process; its items reach the client as they come. */
export function agentLink(
  name: string,
  asked: string[],
  onClose: () => void,
  failJob?: (method: string) => HostFailure | undefined,
): HostLink {
  const agent = new Session({ transport: 'agent', liveRefresh: false, statCacheFile: false, progressIntervalMs: 0 });
  return {
    hello: { version: 'test', host: name, platform: 'linux' },
    lost: undefined,
    ended: new Promise(() => {}),
    call: (async (method: string, request: unknown) => {
      asked.push(method);
      return agent.call(method, request);
    }) as HostLink['call'],
    job: (async (method: string, request: unknown, handlers: HostJobHandlers<'scan'> = {}) => {
      asked.push(method);
      const lost = failJob?.(method);
      if (lost) throw lost;
      const started = (await agent.call(method, request)) as ApiResult<{ job: string }>;
      if (!started.ok) return started;
      return new Promise((resolve) => {
        const off = agent.onEvent((event: ApiEvent) => {
          if (!('job' in event.data) || event.data.job !== started.value.job) return;
          if (event.event === 'items') for (const item of event.data.items) handlers.onItem?.(item as never);
          if (event.event === 'result') resolve({ ok: true, value: event.data.result });
          if (event.event === 'error') resolve({ ok: false, error: event.data.error });
          if (event.event === 'result' || event.event === 'error') off();
        });
      });
    }) as unknown as HostLink['job'],
    close: async () => {
      onClose();
      await agent.close();
    },
  };
}

/** Hosts by name: a folder of destinations (its agent answers), a failure, or a wait that ends when released. */
export type HostPlan = { folder: string } | { failure: HostFailure } | { hang: Promise<HostFailure> };

export function countingConnector(plans: Record<string, HostPlan>, failJob?: (host: string, method: string) => HostFailure | undefined) {
  const seen = { connects: {} as Record<string, number>, closes: 0, connecting: 0, mostAtOnce: 0, asked: {} as Record<string, string[]> };
  const connector: HostConnector = async (host) => {
    seen.connects[host.name] = (seen.connects[host.name] ?? 0) + 1;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, ++seen.connecting);
    try {
      // ssh takes a while: the connects that the bound lets run at once overlap.
      await new Promise((resolve) => setImmediate(resolve));
      const plan = plans[host.name]!;
      if ('failure' in plan) throw plan.failure;
      if ('hang' in plan) throw await plan.hang;
      return agentLink(host.name, (seen.asked[host.name] ??= []), () => seen.closes++, failJob && ((method) => failJob(host.name, method)));
    } finally {
      seen.connecting--;
    }
  };
  return { connector, seen };
}
