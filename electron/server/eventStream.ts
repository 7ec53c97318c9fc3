// One server-sent-events stream per page: every session event as `event: <name>` / `data: <json>`,
// opened with a `ready` event so the client knows it will hear the jobs it starts, and kept alive
// with comments. Must never keep a listener on the session after its connection is gone.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { http, type ApiEvent } from '../../shared/api';
import type { Session } from '../service/session';

export const KEEP_ALIVE_MS = 15_000;

/** One SSE frame. JSON has no raw line breaks, so the data fits one `data:` line. */
export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function openEventStream(
  request: IncomingMessage,
  response: ServerResponse,
  session: Session,
  headers: Record<string, string>,
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
  response.write(sseFrame(http.readyEvent, {}));
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref();
  const stop = () => {
    clearInterval(keepAlive);
    unsubscribe();
  };
  request.on('close', stop);
  response.on('close', stop);
}
