// The renderer's one way to the engine: `invoke(method, request)` and `on(event, listener)`, typed
// from shared/api.ts. Uses the Electron preload's `window.inspector` when present, else the browser
// host over HTTP with the per-run token. Never imports Node or Electron; never throws on a failed call
// (errors come back as data).

import { type InspectorBridge } from '../../shared/api';
import { clientFromBridge, type InspectorClient } from '../../shared/apiClient';
import { createHttpBridge, type HttpBridgeOptions } from './httpBridge';

export { clientFromBridge, type InspectorClient } from '../../shared/apiClient';

declare global {
  interface Window {
    inspector?: InspectorBridge;
  }
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
