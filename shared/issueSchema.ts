// The shape of a validation issue (issues.ts), as zod: the API carries issues in its answers.
// Imports zod, so the readers of a destination import issues.ts, which only infers its types from here.

import { z } from 'zod';

export const severitySchema = z.enum(['error', 'warning']);

export const issueSchema = z.object({
  /** Where in the document, as zod gives it: keys and array indexes. */
  path: z.array(z.union([z.string(), z.number()])),
  code: z.string(),
  message: z.string(),
  severity: severitySchema,
  /**
   * Set on the one summary issue that stands for the issues of one code left out past the cap
   * (issueCap.ts): which code, and how many. Its own code is `more_like_this`.
   */
  omitted: z.object({ code: z.string(), count: z.number().int().positive() }).optional(),
  /** Where in the text, for a problem that has no JSON path yet (text that is not JSON): 1-based line and column in characters. */
  location: z.object({ line: z.number().int().positive(), column: z.number().int().positive() }).optional(),
});
