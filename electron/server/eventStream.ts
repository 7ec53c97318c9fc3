// One server-sent-events stream per page: every session event as `event: <name>` / `data: <json>`,
// opened with a `ready` event so the client knows it will hear the jobs it starts, and a `heartbeat`
// every http.heartbeatIntervalMs so that a page notices within seconds when the host is gone or hung.
// Must never keep a listener on the session after its connection is gone.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { http, type ApiEvent, type StreamHello } from '../../shared/api';
import type { Session } from '../service/session';

/** One SSE frame. JSON has no raw line breaks, so the data fits one `data:` line. */
export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function openEventStream(
  request: IncomingMessage,
  response: ServerResponse,
  session: Session,
  headers: Record<string, string>,
  /** `instance`: this run of the host, in every ready and heartbeat, so a page that reconnects can tell it came back to the same one. */
  options: { instance: string; heartbeatIntervalMs?: number },
): void {
  response.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  response.flushHeaders();
  const write = (event: ApiEvent) => response.write(sseFrame(event.event, event.data));
  const unsubscribe = session.onEvent(write);
  const hello: StreamHello = { instance: options.instance };
  response.write(sseFrame(http.readyEvent, hello));
  // Also keeps proxies and idle timers from closing a quiet stream.
  const keepAlive = setInterval(
    () => response.write(sseFrame(http.heartbeatEvent, hello)),
    options.heartbeatIntervalMs ?? http.heartbeatIntervalMs,
  );
  keepAlive.unref();
  const stop = () => {
    clearInterval(keepAlive);
    unsubscribe();
  };
  request.on('close', stop);
  response.on('close', stop);
}
