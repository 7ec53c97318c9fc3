// Field-level zod schemas shared by the state file, the source manifest and the workspace file.
// Each refinement tags its issue with a domain code (params.code) that zodIssues.ts reads.

import { z } from 'zod';
import { cleanPathProblem } from './cleanPath';
import { parseRfc3339 } from './rfc3339';

export const SHA256_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** A string schema whose check returns a problem (or null), reported under a domain code. */
function checkedString(code: string, problemOf: (text: string) => string | null) {
  return z.string().superRefine((text, ctx) => {
    const problem = problemOf(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code } });
  });
}

export const sha256Field = checkedString('invalid_sha256', (text) =>
  SHA256_PATTERN.test(text) ? null : 'must be "sha256:" followed by 64 lowercase hex digits',
);

export const sizeField = z
  .number()
  .int({ message: 'must be a whole number of bytes' })
  .min(0, { message: 'must be 0 or more' })
  .max(Number.MAX_SAFE_INTEGER, { message: 'must be at most 2^53-1' });

export const nonEmptyString = z.string().min(1, { message: 'must not be empty' });

export const timestampField = checkedString('invalid_timestamp', (text) => {
  const parsed = parseRfc3339(text);
  return parsed.ok ? null : parsed.problem;
});

export const cleanPathField = checkedString('unclean_path', (path) => {
  const problem = cleanPathProblem(path);
  return problem ? `is not a clean relative path: it ${problem}` : null;
});

export function httpUrlProblem(text: string): string | null {
  if (text.trim() !== text || text === '') return 'must be an absolute http or https URL without surrounding spaces';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must use http or https, not ${url.protocol.replace(/:$/, '')}`;
  if (url.hostname === '') return 'must name a host';
  return null;
}

export const httpUrlField = checkedString('invalid_url', httpUrlProblem);
