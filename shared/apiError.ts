// Errors as data at the API: the codes it names, its error (the one Problem shape of shared/result.ts
// with one of those codes), and the failure a handler or a use case throws on purpose.
// Pure; never imports Node, Electron or the DOM. No stack trace ever goes into one of these.

import { z } from 'zod';
import { problemSchema } from './problemSchema';
import type { Result } from './result';

export const apiErrorCodeSchema = z.enum([
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
]);
export type ApiErrorCode = z.infer<typeof apiErrorCodeSchema>;

/** A problem whose code is one the API names. */
export const apiErrorSchema = problemSchema.extend({ code: apiErrorCodeSchema });
export type ApiError = z.infer<typeof apiErrorSchema>;

export type ApiResult<T> = Result<T, ApiError>;

export function apiError(code: ApiErrorCode, message: string, details?: Record<string, unknown>): ApiError {
  return details === undefined ? { code, message } : { code, message, details };
}

/** A failure a handler, a use case or a job reports on purpose: it crosses the boundary as this error, as is. */
export class ApiFailure extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
    this.name = 'ApiFailure';
  }
}

export const fail = (...args: Parameters<typeof apiError>): ApiFailure => new ApiFailure(apiError(...args));

/** Whatever was thrown, as the one error shape the API knows: a deliberate failure as is, an abort as cancelled, else internal. */
export function errorOf(cause: unknown, signal?: AbortSignal): ApiError {
  if (cause instanceof ApiFailure) return cause.error;
  if (signal?.aborted || (cause as Error | undefined)?.name === 'AbortError') return apiError('cancelled', 'cancelled');
  return apiError('internal', (cause as Error | undefined)?.message ?? String(cause));
}
