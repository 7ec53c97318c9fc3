// The browser host: the built renderer and the API over HTTP, on 127.0.0.1 only. `POST /api/<method>`
// answers `{ok, value}` or `{ok: false, error}`; `GET /api/events` streams job events (SSE).
// Every request passes the Host check; every API request the Origin, fetch-metadata and token checks.
// Must never listen on anything but loopback, and never answer an API call without the token.

import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiError, http, isMethodName, type ApiError, type ApiErrorCode } from '../../shared/api';
import type { Result } from '../../shared/result';
import type { Session } from '../service/session';
import { BROWSER_HOST_CSP, securityHeaders } from '../web/csp';
import { isAllowedFetchSite, isAllowedHost, isAllowedOrigin, tokenMatches } from './guards';
import { openEventStream } from './eventStream';
import { contentTypeOf, staticFiles } from '../web/staticFiles';

export const LOOPBACK = '127.0.0.1';
/** A request body larger than this is refused: no API request needs more than a few kilobytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

const STATUS_OF: Partial<Record<ApiErrorCode, number>> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  unknown_method: 404,
  not_found: 404,
  no_workspace: 409,
  stale_plan: 409,
  cancelled: 409,
  invalid_workspace: 422,
  invalid_source: 422,
  refused: 422,
  confirmation_required: 422,
  internal: 500,
  not_available: 501,
};

export interface HostOptions {
  session: Session;
  /** dist/renderer: the built page. */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Defaults to 32 random bytes; tests pass their own. */
  token?: string;
  /** How often the event stream says it is alive (default http.heartbeatIntervalMs). */
  heartbeatIntervalMs?: number;
}

export interface Host {
  server: Server;
  port: number;
  token: string;
  /** The address to open: the token rides in the fragment, which browsers never send to a server. */
  url: string;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: string, type: string, extra: Record<string, string> = {}): void {
  response.writeHead(status, { ...securityHeaders(BROWSER_HOST_CSP), 'content-type': type, 'cache-control': 'no-store', ...extra });
  response.end(body);
}

function sendError(response: ServerResponse, error: ApiError, status = STATUS_OF[error.code] ?? 422): void {
  send(response, status, JSON.stringify({ ok: false, error }), 'application/json; charset=utf-8');
}

function notFoundPage(response: ServerResponse): void {
  send(response, 404, 'Not found\n', 'text/plain; charset=utf-8');
}

/** Why a body was not read: the error to send, and its HTTP status (413 for one too large). */
interface BodyRefusal {
  status: number;
  problem: ApiError;
}

async function readBody(request: IncomingMessage): Promise<Result<string, BodyRefusal>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      return {
        ok: false,
        error: { status: 413, problem: apiError('bad_request', `the request body is larger than ${MAX_BODY_BYTES} bytes`) },
      };
    chunks.push(chunk as Buffer);
  }
  return { ok: true, value: Buffer.concat(chunks).toString('utf8') };
}

export async function startHost(options: HostOptions): Promise<Host> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  // This run of the host: a page that reconnects learns whether it reached the same one.
  const instance = randomUUID();
  const files = staticFiles(options.rendererDir);
  let port = 0;

  const handleApi = async (request: IncomingMessage, response: ServerResponse, pathname: string) => {
    if (!isAllowedOrigin(request.headers.origin, port) || !isAllowedFetchSite(header(request, 'sec-fetch-site'))) {
      return sendError(response, apiError('forbidden', 'cross-origin requests are refused'));
    }
    if (!tokenMatches(header(request, http.tokenHeader), token)) {
      return sendError(
        response,
        apiError('unauthorized', `missing or wrong ${http.tokenHeader} header: open the address the host printed`),
      );
    }
    if (pathname === http.eventsPath) {
      if (request.method !== 'GET') return sendError(response, apiError('bad_request', `${http.eventsPath} takes GET`), 405);
      return openEventStream(request, response, options.session, securityHeaders(BROWSER_HOST_CSP), {
        instance,
        ...(options.heartbeatIntervalMs !== undefined ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
      });
    }
    const method = pathname.slice(http.apiPrefix.length);
    if (!isMethodName(method)) return sendError(response, apiError('unknown_method', `unknown method "${method}"`));
    if (request.method !== 'POST') return sendError(response, apiError('bad_request', `${method} takes POST`), 405);
    // A JSON content type cannot be sent by a plain HTML form, so no form on another site can post here.
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      return sendError(response, apiError('bad_request', `${method}: the body must be JSON (content-type: application/json)`), 415);
    }
    const body = await readBody(request);
    if (!body.ok) return sendError(response, body.error.problem, body.error.status);
    const text = body.value;
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? {} : JSON.parse(text);
    } catch (cause) {
      return sendError(response, apiError('bad_request', `${method}: the body is not valid JSON (${(cause as Error).message})`));
    }
    const result = await options.session.call(method, parsed);
    if (result.ok) send(response, 200, JSON.stringify(result), 'application/json; charset=utf-8');
    else sendError(response, result.error);
  };

  const handleStatic = async (request: IncomingMessage, response: ServerResponse, pathname: string) => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(response, 405, 'Method not allowed\n', 'text/plain; charset=utf-8', { allow: 'GET, HEAD' });
    const file = await files.lookup(pathname);
    if (!file) {
      if (pathname === '/')
        return send(response, 503, 'The renderer is not built yet: run `npm run build`, then reload.\n', 'text/plain; charset=utf-8');
      return notFoundPage(response);
    }
    response.writeHead(200, { ...securityHeaders(BROWSER_HOST_CSP), 'content-type': contentTypeOf(file), 'cache-control': 'no-cache' });
    if (request.method === 'HEAD') return response.end();
    createReadStream(file)
      .on('error', () => response.destroy())
      .pipe(response);
  };

  const server = createServer((request, response) => {
    // DNS rebinding: a foreign name for our address is refused before anything else, pages included.
    if (!isAllowedHost(request.headers.host, port))
      return sendError(response, apiError('forbidden', 'this host answers only to 127.0.0.1 and localhost'));
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
    } catch {
      return notFoundPage(response);
    }
    const work =
      pathname === '/api' || pathname.startsWith(http.apiPrefix)
        ? handleApi(request, response, pathname)
        : handleStatic(request, response, pathname);
    work.catch((cause: unknown) => {
      if (!response.headersSent) sendError(response, apiError('internal', (cause as Error)?.message ?? String(cause)));
      else response.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    token,
    url: `http://${LOOPBACK}:${port}/#${http.tokenFragmentKey}=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Event streams never end by themselves; close them so close() does not wait forever.
        server.closeAllConnections();
      }),
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
