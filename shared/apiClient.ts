// The one typed client of the API (VS Code's ProxyChannel.toService is the model): a bridge that
// carries `invoke(method, request)` and `on(event, listener)` (Electron IPC, the browser host's HTTP,
// an in-process Session) becomes `invoke` and `on` typed from the table, and `runJob` runs a job
// method to its end over its events (a batch of items as one callback per item, in order). The
// renderer and the command line use this one client. Must
// never import Node, Electron or the DOM; never throws on a failed call (errors come back as data).

import { apiError, EVENT_NAMES, isEventNameOnWire } from './apiNames';
import { unpackScanRows } from './scanRowsWire';
import type {
  ApiResult,
  ConnectionState,
  EventName,
  EventOf,
  InspectorBridge,
  JobItemOf,
  JobMethod,
  JobResultOf,
  MethodName,
  RequestOf,
  ResponseOf,
  Transport,
} from './api';

export interface InspectorClient {
  transport: Transport;
  invoke<M extends MethodName>(method: M, request: RequestOf<M>): Promise<ApiResult<ResponseOf<M>>>;
  on<E extends EventName>(event: E, listener: (data: EventOf<E>) => void): () => void;
  /** The link's health, now and at each change; a bridge that cannot lose its engine (IPC) is always connected. */
  onConnection(listener: (state: ConnectionState) => void): () => void;
  /** Tries a lost link again now. */
  reconnect(): void;
}

export function clientFromBridge(bridge: InspectorBridge, transport: Transport): InspectorClient {
  const invoke = async <M extends MethodName>(method: M, request: RequestOf<M>): Promise<ApiResult<ResponseOf<M>>> => {
    try {
      return (await bridge.invoke(method, request)) as ApiResult<ResponseOf<M>>;
    } catch (cause) {
      // A bridge that rejects (IPC torn down, host gone) still answers with data.
      return { ok: false, error: apiError('internal', `${method} failed: ${(cause as Error)?.message ?? String(cause)}`) };
    }
  };
  const on = <E extends EventName>(event: E, listener: (data: EventOf<E>) => void): (() => void) => {
    if (!isEventNameOnWire(event)) throw new Error(`unknown event "${String(event)}"; known: ${EVENT_NAMES.join(', ')}`);
    return bridge.on(event, listener as (data: unknown) => void);
  };
  const started = new Date().toISOString();
  const onConnection = (listener: (state: ConnectionState) => void): (() => void) => {
    if (bridge.onConnection) return bridge.onConnection(listener);
    listener({ status: 'connected', since: started });
    return () => undefined;
  };
  return { transport, invoke, on, onConnection, reconnect: () => bridge.reconnect?.() };
}

// Runs one job method to its end over the client's events: progress and items as callbacks, then the
// result or the error as data. Listens before starting, so no event of the job is missed. A link that
// is lost while the job runs ends it as `connection_lost`: its outcome is unknown, never shown as running.

export interface JobHandlers<M extends JobMethod> {
  /** Called once the engine has accepted the job: keep the id to cancel it. */
  onStart?: (job: string) => void;
  onProgress?: (progress: EventOf<'progress'>) => void;
  onItem?: (item: JobItemOf<M>) => void;
}

export type JobOutcome<M extends JobMethod> = ApiResult<JobResultOf<M>>;

export function runJob<M extends JobMethod>(
  client: InspectorClient,
  method: M,
  request: RequestOf<M>,
  handlers: JobHandlers<M> = {},
): Promise<JobOutcome<M>> {
  return new Promise((resolve) => {
    let job: string | undefined;
    // Events can arrive before the start call returns; keep them until the job id is known.
    const early: { event: 'progress' | 'items' | 'result' | 'error'; data: { job: string } }[] = [];
    const unsubscribe: (() => void)[] = [];
    let finished = false;
    const finish = (outcome: JobOutcome<M>) => {
      if (finished) return;
      finished = true;
      unsubscribe.forEach((off) => off());
      resolve(outcome);
    };
    const handle = (event: 'progress' | 'items' | 'result' | 'error', data: { job: string }) => {
      if (job === undefined) return void early.push({ event, data });
      if (data.job !== job) return;
      if (event === 'progress') handlers.onProgress?.(data as EventOf<'progress'>);
      else if (event === 'items') {
        const batch = data as unknown as { items?: JobItemOf<M>[]; rows?: unknown };
        let items = batch.items ?? [];
        // A scan's rows come packed on the transports to a page (scanRowsWire.ts).
        if (batch.rows !== undefined) {
          const unpacked = unpackScanRows(batch.rows);
          if (!unpacked.ok) {
            void client.invoke('cancelJob', { job });
            return finish({ ok: false, error: unpacked.error });
          }
          items = unpacked.value as JobItemOf<M>[];
        }
        if (handlers.onItem) for (const item of items) handlers.onItem(item);
      } else if (event === 'result') finish({ ok: true, value: (data as unknown as { result: JobResultOf<M> }).result });
      else finish({ ok: false, error: (data as EventOf<'error'>).error });
    };
    for (const event of ['progress', 'items', 'result', 'error'] as const)
      unsubscribe.push(client.on(event, (data) => handle(event, data)));
    // Only a change counts: a job started while the link is down waits for it like any call.
    let status: string | undefined;
    unsubscribe.push(
      client.onConnection((state) => {
        const was = status;
        status = state.status;
        if (was === undefined || was === state.status || (state.status !== 'lost' && state.status !== 'refused')) return;
        finish({
          ok: false,
          error: apiError(
            'connection_lost',
            `${method}: the connection to the inspector was lost while it ran (${state.since}); its outcome is unknown: re-inspect`,
            job !== undefined ? { job } : undefined,
          ),
        });
      }),
    );
    void client.invoke(method, request).then((started) => {
      if (!started.ok) return finish({ ok: false, error: started.error });
      job = (started.value as { job: string }).job;
      handlers.onStart?.(job);
      for (const { event, data } of early.splice(0)) handle(event, data);
    });
  });
}
