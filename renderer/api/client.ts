// The renderer's one way to the engine: `invoke(method, request)` and `on(event, listener)`, typed
// from shared/api.ts. Uses the Electron preload's `window.inspector` when present, else the browser
// host over HTTP with the per-run token. Never imports Node or Electron; never throws on a failed call
// (errors come back as data).

import {
  apiError,
  eventNames,
  isEventName,
  type ApiResult,
  type ConnectionState,
  type EventName,
  type EventOf,
  type InspectorBridge,
  type MethodName,
  type RequestOf,
  type ResponseOf,
  type Transport,
} from '../../shared/api';
import { createHttpBridge, type HttpBridgeOptions } from './httpBridge';

export interface InspectorClient {
  transport: Transport;
  invoke<M extends MethodName>(method: M, request: RequestOf<M>): Promise<ApiResult<ResponseOf<M>>>;
  on<E extends EventName>(event: E, listener: (data: EventOf<E>) => void): () => void;
  /** The link's health, now and at each change; a bridge that cannot lose its engine (IPC) is always connected. */
  onConnection(listener: (state: ConnectionState) => void): () => void;
  /** Tries a lost link again now. */
  reconnect(): void;
}

declare global {
  interface Window {
    inspector?: InspectorBridge;
  }
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
    if (!isEventName(event)) throw new Error(`unknown event "${String(event)}"; known: ${eventNames.join(', ')}`);
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

/** The client for this page: Electron's preload bridge if there is one, else the browser host. */
export function createClient(options: HttpBridgeOptions = {}): InspectorClient {
  if (typeof window !== 'undefined' && window.inspector) return clientFromBridge(window.inspector, 'electron');
  return clientFromBridge(createHttpBridge(options), 'http');
}

let shared: InspectorClient | undefined;

/** The page's single client (one event stream per page). */
export function getClient(): InspectorClient {
  shared ??= createClient();
  return shared;
}
