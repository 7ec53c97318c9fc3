// The shape of a failure as data (result.ts's Problem), as zod: the API carries problems in its answers.
// Imports zod, so modules that only make or pass on a Problem import result.ts instead.

import { z } from 'zod';

/** The one shape of a failure as data: a machine code, a sentence for people, and what it is about. */
export const problemSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
