// One server-sent-events stream per page: every session event as `event: <name>` / `data: <json>`,
// opened with a `ready` event so the client knows it will hear the jobs it starts, and a `heartbeat`
// every http.heartbeatIntervalMs so that a page notices within seconds when the host is gone or hung.
// The frames of one turn of the event loop go out in one write (a scan of 100,000 destinations sends
// as many items, each from a callback of its own), in the order they were made; a scan's rows go
// packed (shared/scanRowsWire.ts).
// Must never keep a listener on the session after its connection is gone.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { http, type ApiEvent, type StreamHello } from '../../shared/api';
import { eventForPage } from '../../shared/scanRowsWire';
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
  let frames: string[] = [];
  let flushing: NodeJS.Immediate | undefined;
  const flush = () => {
    flushing = undefined;
    const text = frames.join('');
    frames = [];
    if (!response.destroyed) response.write(text);
  };
  const send = (frame: string) => {
    frames.push(frame);
    flushing ??= setImmediate(flush);
  };
  const unsubscribe = session.onEvent((event: ApiEvent) => {
    const onWire = eventForPage(event);
    send(sseFrame(onWire.event, onWire.data));
  });
  const hello: StreamHello = { instance: options.instance };
  send(sseFrame(http.readyEvent, hello));
  // Also keeps proxies and idle timers from closing a quiet stream.
  const keepAlive = setInterval(() => send(sseFrame(http.heartbeatEvent, hello)), options.heartbeatIntervalMs ?? http.heartbeatIntervalMs);
  keepAlive.unref();
  const stop = () => {
    clearInterval(keepAlive);
    if (flushing) clearImmediate(flushing);
    flushing = undefined;
    frames = [];
    unsubscribe();
  };
  request.on('close', stop);
  response.on('close', stop);
}
