// Errors as data at the API: the codes it names, its error (the one Problem shape of shared/result.ts
// with one of those codes), and the failure a handler or a use case throws on purpose.
// Pure; never imports Node, Electron or the DOM. No stack trace ever goes into one of these.

import { z } from 'zod';
import { problemSchema } from './problemSchema';
import type { Result } from './result';
import { API_ERROR_CODES, apiError } from './apiNames';

export { apiError };

export const apiErrorCodeSchema = z.enum(API_ERROR_CODES);
export type ApiErrorCode = z.infer<typeof apiErrorCodeSchema>;

/** A problem whose code is one the API names. */
export const apiErrorSchema = problemSchema.extend({ code: apiErrorCodeSchema });
export type ApiError = z.infer<typeof apiErrorSchema>;

export type ApiResult<T> = Result<T, ApiError>;

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
