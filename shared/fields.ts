// Field-level zod schemas shared by the state file, the source manifest and the workspace file.
// Each refinement tags its issue with a domain code (params.code) that zodIssues.ts reads.
// Each rule is also a plain predicate, for the hot path over 50,000 records; the schema and the
// predicate share the same function, so they cannot disagree.

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

export function isSha256(text: string): boolean {
  return SHA256_PATTERN.test(text);
}

export const sha256Field = checkedString('invalid_sha256', (text) =>
  isSha256(text) ? null : 'must be "sha256:" followed by 64 lowercase hex digits',
);

/** Why a number is not a byte size, with its code, or null. 2^53-1 is the largest integer JSON readers agree on. */
export function sizeProblem(size: number): { code: string; message: string } | null {
  if (!Number.isInteger(size)) return { code: 'not_integer', message: `must be a whole number of bytes, not ${size}` };
  if (size < 0) return { code: 'negative_size', message: `must be 0 or more, not ${size}` };
  if (size > Number.MAX_SAFE_INTEGER) return { code: 'size_too_large', message: `must be at most 2^53-1 (9007199254740991), not ${size}` };
  return null;
}

export function isValidSize(size: unknown): boolean {
  return typeof size === 'number' && Number.isInteger(size) && size >= 0 && size <= Number.MAX_SAFE_INTEGER;
}

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

// Spaces, control characters and "\" are never part of a URL (RFC 3986); WHATWG parsers would
// silently encode or reinterpret them, so they are refused rather than guessed at.
const URL_FORBIDDEN_CHARACTER = /[\s\u0000-\u001f\u007f-\u009f\\]/;
// "//" and a first host character are required: WHATWG reads "http:host" and "http:///host" as
// http://host/, but neither is an absolute URL with an authority.
const HTTP_URL_START = /^https?:\/\/[^/?#]/i;

export function httpUrlProblem(text: string): string | null {
  if (text === '') return 'must be an absolute http or https URL, not empty';
  if (URL_FORBIDDEN_CHARACTER.test(text)) return 'must be an absolute http or https URL without spaces, control characters or "\\"';
  if (!HTTP_URL_START.test(text)) {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1];
    return scheme && !/^https?$/i.test(scheme)
      ? `must use http or https, not ${scheme.toLowerCase()}`
      : 'must be an absolute http or https URL, starting "http://" or "https://" and a host';
  }
  // For http and https a parse succeeds only with a non-empty, valid host.
  if (!URL.canParse(text)) return 'must be an absolute http or https URL (it does not parse as one)';
  return null;
}

export function isHttpUrl(text: string): boolean {
  return httpUrlProblem(text) === null;
}

export const httpUrlField = checkedString('invalid_url', httpUrlProblem);
