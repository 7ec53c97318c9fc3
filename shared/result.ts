// The one result type of the app: a value, or a reason as data. Every fallible step that does not
// throw returns this, with a Problem (`{code, message, details?}`, declared as zod in
// problemSchema.ts) or a narrower error. Types and one helper; never imports Node, Electron or the
// DOM, and no zod at run time (every reader loads this module).

import type { z } from 'zod';
import type { problemSchema } from './problemSchema';

export type Problem = z.infer<typeof problemSchema>;

/** What every fallible step returns: a value, or the reason it has none. */
export type Result<T, E = Problem> = { ok: true; value: T } | { ok: false; error: E };

export function problem(code: string, message: string, details?: Record<string, unknown>): Problem {
  return details === undefined ? { code, message } : { code, message, details };
}
