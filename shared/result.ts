// The one result type of the app: a value, or a reason as data. Every fallible step that does not
// throw returns this, with a Problem (`{code, message, details?}`) or a narrower error. Pure zod and
// types; never imports Node, Electron or the DOM.

import { z } from 'zod';

/** The one shape of a failure as data: a machine code, a sentence for people, and what it is about. */
export const problemSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

/** What every fallible step returns: a value, or the reason it has none. */
export type Result<T, E = Problem> = { ok: true; value: T } | { ok: false; error: E };

export function problem(code: string, message: string, details?: Record<string, unknown>): Problem {
  return details === undefined ? { code, message } : { code, message, details };
}
