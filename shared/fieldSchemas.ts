// Field-level zod schemas shared by the state file, the source manifest and the workspace file.
// Each refinement tags its issue with a domain code (params.code) that zodIssues.ts reads.
// Each wraps the plain predicate of fields.ts, so the hot path and the schema cannot disagree.
// Imports zod: keep it off the modules a destination's reader loads (see schemasOnDemand.ts).

import { z } from 'zod';
import { cleanPathProblem } from './cleanPath';
import { httpUrlProblem, isSha256, sizeProblem } from './fields';
import { parseRfc3339 } from './rfc3339';

/** A string schema whose check returns a problem (or null), reported under a domain code. */
function checkedString(code: string, problemOf: (text: string) => string | null) {
  return z.string().superRefine((text, ctx) => {
    const problem = problemOf(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code } });
  });
}

export const sha256Field = checkedString('invalid_sha256', (text) =>
  isSha256(text) ? null : 'must be "sha256:" followed by 64 lowercase hex digits',
);

export const sizeField = z.number().superRefine((size, ctx) => {
  const problem = sizeProblem(size);
  if (problem) ctx.addIssue({ code: 'custom', message: problem.message, params: { code: problem.code } });
});

export const nonEmptyString = z.string().min(1, { message: 'must not be empty' });

export const timestampField = checkedString('invalid_timestamp', (text) => {
  const parsed = parseRfc3339(text);
  return parsed.ok ? null : parsed.error;
});

export const cleanPathField = checkedString('unclean_path', (path) => {
  const problem = cleanPathProblem(path);
  return problem ? `is not a clean relative path: it ${problem}` : null;
});

export const httpUrlField = checkedString('invalid_url', httpUrlProblem);
