// The browser host's side of the bridge: `POST /api/<method>` and one streamed event feed, both
// carrying the per-run token in a header. The token arrives in the page URL's fragment, moves to
// sessionStorage, and leaves the address bar. Watches the feed's heartbeat: a stream that ends or
// goes quiet for http.heartbeatTimeoutMs is a lost connection, said at once (onConnection), and tried
// again every second. Never throws on a failed call; never logs the token.

import type { ApiResult, ConnectionState, InspectorBridge } from '../../shared/api';
// The names without the API table's schemas: this module is on the page's first screen (apiNames.ts).
import { apiError, helloInstance, http, isJobMethodName } from '../../shared/apiNames';
import { sseReader, type SseFrame } from './sse';

export interface HttpBridgeOptions {
  /** Where the host is; defaults to the page's own origin. */
  baseUrl?: string;
  /** Defaults to the token from the URL fragment or sessionStorage. */
  token?: string;
  /** How long a call waits for the event stream before going ahead anyway. */
  readyTimeoutMs?: number;
  /** Silence on the stream longer than this is a lost connection (default http.heartbeatTimeoutMs). */
  heartbeatTimeoutMs?: number;
  /** The wait between tries while the connection is lost. */
  retryMs?: number;
}

const TOKEN_STORAGE_KEY = 'distributor-inspector.token';

/** Reads `#token=…` once, keeps it for this tab, and removes it from the visible URL. */
export function takeToken(): string | undefined {
  if (typeof window === 'undefined') return undefined;
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const fromUrl = fragment.get(http.tokenFragmentKey);
  if (fromUrl) {
    try {
      window.sessionStorage.setItem(TOKEN_STORAGE_KEY, fromUrl);
    } catch {
      // Storage may be disabled; the token still works for this page's lifetime.
    }
    fragment.delete(http.tokenFragmentKey);
    const rest = fragment.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ''}`);
    return fromUrl;
  }
  try {
    return window.sessionStorage.getItem(TOKEN_STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createHttpBridge(options: HttpBridgeOptions = {}): InspectorBridge {
  const base = options.baseUrl ?? (typeof window !== 'undefined' ? window.location.origin : '');
  const token = options.token ?? takeToken() ?? '';
  const readyTimeoutMs = options.readyTimeoutMs ?? 3000;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? http.heartbeatTimeoutMs;
  const retryMs = options.retryMs ?? 1000;
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  let markReady: () => void = () => undefined;
  let ready = new Promise<void>((resolve) => (markReady = resolve));
  let streaming = false;

  let connection: ConnectionState = { status: 'connecting', since: new Date().toISOString() };
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  const setConnection = (status: ConnectionState['status'], instance = connection.instance) => {
    if (connection.status === status && connection.instance === instance) return;
    connection = { status, since: new Date().toISOString(), ...(instance !== undefined ? { instance } : {}) };
    if (status === 'lost') {
      // Calls made from now on wait for the stream to be back (up to readyTimeoutMs), as at the start.
      ready = new Promise<void>((resolve) => (markReady = resolve));
    }
    for (const listener of connectionListeners) {
      try {
        listener(connection);
      } catch (cause) {
        console.error('connection listener failed', cause);
      }
    }
  };
  let wake: () => void = () => undefined;

  const deliver = (frame: SseFrame) => {
    if (frame.event === http.readyEvent || frame.event === http.heartbeatEvent) {
      let instance: string | undefined;
      try {
        instance = helloInstance(JSON.parse(frame.data));
      } catch {
        // An old host's `{}`: still a sign of life.
      }
      if (frame.event === http.readyEvent) {
        setConnection('connected', instance ?? connection.instance);
        markReady();
      }
      return;
    }
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      return;
    }
    for (const listener of listeners.get(frame.event) ?? []) {
      try {
        listener(data);
      } catch (cause) {
        console.error(`listener for "${frame.event}" failed`, cause);
      }
    }
  };

  // One stream for the page's lifetime, tried again every retryMs while it is down; events while
  // disconnected are lost, which is why calls wait for the stream to be ready before starting jobs,
  // and why a lost connection ends the page's running jobs as `connection_lost` (jobs.ts).
  const stream = async () => {
    for (;;) {
      const controller = new AbortController();
      let lastHeardAt = Date.now();
      const tickMs = Math.max(50, Math.floor(heartbeatTimeoutMs / 6));
      let lastTickAt = Date.now();
      // Also covers a host that accepts the connection and never answers (stopped, hung). Silence is
      // counted only while the page could listen: a tick that comes late means the page itself was
      // blocked (a long task, a loaded machine), and the heartbeats that came meanwhile are still
      // queued behind this tick, so the stall is not taken for the host's silence.
      const watchdog = setInterval(() => {
        const now = Date.now();
        const stalled = now - lastTickAt - tickMs;
        lastTickAt = now;
        if (stalled > tickMs) lastHeardAt += stalled;
        if (now - lastHeardAt > heartbeatTimeoutMs) controller.abort();
      }, tickMs);
      try {
        const response = await fetch(`${base}${http.eventsPath}`, {
          headers: { [http.tokenHeader]: token, accept: 'text/event-stream' },
          cache: 'no-store',
          signal: controller.signal,
        });
        lastHeardAt = Date.now();
        if (response.status === 401) {
          // Refused (no or a wrong token): calls need not wait for a stream that will not come; they get the same answer.
          markReady();
          setConnection('refused');
        } else if (response.ok && response.body) {
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          const framesOf = sseReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            lastHeardAt = Date.now();
            framesOf(value).forEach(deliver);
          }
        }
      } catch {
        // Host gone, hung (the watchdog aborted) or restarting: said below, tried again.
      } finally {
        clearInterval(watchdog);
      }
      if (connection.status !== 'refused') setConnection('lost');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, retryMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => undefined;
    }
  };
  const startStream = () => {
    if (streaming) return;
    streaming = true;
    void stream();
  };

  return {
    async invoke(method, request): Promise<ApiResult<unknown>> {
      startStream();
      // A job's events come on the stream, so a job waits for it. Other calls answer in full in their
      // response and need not wait for the stream's first connection: the page's first call (appInfo)
      // goes out beside it, answered before the scan's work competes for the host's thread. While the
      // stream is lost, every call waits for it to be back, as before.
      if (isJobMethodName(method) || connection.status !== 'connecting') await Promise.race([ready, sleep(readyTimeoutMs)]);
      let response: Response;
      try {
        response = await fetch(`${base}${http.apiPrefix}${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [http.tokenHeader]: token },
          body: JSON.stringify(request ?? {}),
          cache: 'no-store',
        });
      } catch (cause) {
        return {
          ok: false,
          error: apiError('internal', `the browser host cannot be reached (${(cause as Error)?.message ?? String(cause)})`),
        };
      }
      try {
        const body = (await response.json()) as ApiResult<unknown>;
        if (body && typeof body === 'object' && typeof body.ok === 'boolean') return body;
      } catch {
        // Fall through: not the host's JSON.
      }
      return { ok: false, error: apiError('internal', `${method}: the browser host answered ${response.status} without a result`) };
    },
    on(event, listener) {
      startStream();
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
    onConnection(listener) {
      startStream();
      connectionListeners.add(listener);
      listener(connection);
      return () => void connectionListeners.delete(listener);
    },
    reconnect() {
      wake();
    },
  };
}
