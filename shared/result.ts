// The one result type of the app: a value, or a reason as data. Every fallible step that does not
// throw returns this, with a Problem (`{code, message, details?}`, declared as zod in
// problemSchema.ts) or a narrower error. Types and one helper; never imports Node, Electron or the
// DOM, and no zod at run time (every reader loads this module).

import type { z } from 'zod';
import type { problemSchema } from './problemSchema';

export type Problem = z.infer<typeof problemSchema>;

/** What every fallible step returns: a value, or the reason it has none. */
export type Result<T, E = Problem> = { ok: true; value: T } | { ok: false; error: E };

/** A step that failed, with its reason: the failing half of Result, for helpers that only refuse. */
export type Failed<E = Problem> = { ok: false; error: E };

/** A failed step whose reason is a Problem of this code. */
export function failed(code: string, message: string, details?: Record<string, unknown>): Failed {
  return { ok: false, error: problem(code, message, details) };
}

export function problem(code: string, message: string, details?: Record<string, unknown>): Problem {
  return details === undefined ? { code, message } : { code, message, details };
}
