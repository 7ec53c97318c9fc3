// The API's names and wire constants without its schemas, for the page's first screen: building the
// API table's zod schemas (shared/api.ts) costs the page tens of ms of CPU in the task that evaluates
// its bundle, and the first screen needs only these. The schemas stay the one source of truth:
// apiNames.test.ts pins that every list here equals what the table declares. Must never import zod,
// Node, Electron or the DOM (a type import of the schemas' types is erased).

/** The job methods (shared/api.ts `jobMethods`, derived from the table's `job` entries). */
export const JOB_METHOD_NAMES = ['scan', 'verify', 'applyPlan'] as const;

/** Every event a transport carries (shared/api.ts `eventNames`, the keys of its `events`). */
export const EVENT_NAMES = [
  'progress',
  'items',
  'result',
  'error',
  'liveRefresh',
  'hostState',
  'destinationChanges',
  'appCommand',
] as const;

export type JobMethodName = (typeof JOB_METHOD_NAMES)[number];
export type EventNameOnWire = (typeof EVENT_NAMES)[number];

export function isJobMethodName(name: unknown): name is JobMethodName {
  return typeof name === 'string' && (JOB_METHOD_NAMES as readonly string[]).includes(name);
}

export function isEventNameOnWire(name: unknown): name is EventNameOnWire {
  return typeof name === 'string' && (EVENT_NAMES as readonly string[]).includes(name);
}

/** The codes an API error may carry (shared/apiError.ts makes its schema of them). */
export const API_ERROR_CODES = [
  'bad_request', // the request does not match the method's schema; details.issues name the fields
  'unauthorized', // browser host: missing or wrong token
  'forbidden', // browser host: wrong Host or a cross-origin request
  'unknown_method',
  'not_available', // the method needs the other transport (e.g. a native dialog in a browser)
  'no_workspace', // open a workspace first
  'not_found', // an id (destination, plan, job) that this session does not know
  'invalid_workspace', // the workspace folder or file cannot be used; details.issues say why
  'invalid_source', // the source bundle cannot be read or its manifest is invalid
  'refused', // the engine refuses the action (plan refused, outside the workspace, policy)
  'stale_plan', // the destination changed on disk after the plan was made
  'confirmation_required', // a forced replace needs the destination id typed exactly
  'cancelled',
  'connection_lost', // the link was lost while a job ran (the page's to the engine, or the engine's to a host's agent): its outcome is unknown
  'host_unavailable', // a workspace host is not connected (connecting, failed, lost); details.host names it, details.state says how
  'history_unreadable', // the history journal cannot be read (not a file, a link, permission); the message names it
  'agent_protocol', // a host's agent answered a call with a reply its method's schema refuses; the message names the method and the field
  'internal', // a bug: the message says what failed, never a stack trace
] as const;

/** An API error as data (shared/apiError.ts's shape): its type is inferred, never written out here. */
export function apiError(code: (typeof API_ERROR_CODES)[number], message: string, details?: Record<string, unknown>) {
  return details === undefined ? { code, message } : { code, message, details };
}

/** The browser host's wire: `POST /api/<method>` with a JSON body, and one event stream. */
export const http = {
  apiPrefix: '/api/',
  eventsPath: '/api/events',
  /** The per-run token travels in this header, never in a URL the server sees. */
  tokenHeader: 'x-inspector-token',
  /** The page URL carries the token in its fragment (`#token=…`), which browsers never send. */
  tokenFragmentKey: 'token',
  /** The first event on a new stream: the client may start jobs once it has seen it. Data: streamHelloSchema. */
  readyEvent: 'ready',
  /**
   * Sent on the stream every heartbeatIntervalMs (data: streamHelloSchema). A page that hears nothing
   * for heartbeatTimeoutMs, or sees the stream end, has lost the host: it says so and re-inspects when
   * the stream is back. The instance tells a host that came back apart from a restarted one.
   */
  heartbeatEvent: 'heartbeat',
  heartbeatIntervalMs: 500,
  heartbeatTimeoutMs: 1500,
} as const;

/** The longest host instance id streamHelloSchema accepts. */
const INSTANCE_MAX_LENGTH = 200;

/** The host's run that a `ready` or `heartbeat` names, when its data is streamHelloSchema's shape; else undefined. */
export function helloInstance(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const instance = (data as { instance?: unknown }).instance;
  return typeof instance === 'string' && instance.length >= 1 && instance.length <= INSTANCE_MAX_LENGTH ? instance : undefined;
}
