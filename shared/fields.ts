// The field rules shared by the state file, the source manifest and the workspace file, as plain
// predicates and problem messages: the hot path over 50,000 records calls them, and fieldSchemas.ts
// wraps the same functions as zod schemas, so the two cannot disagree. No zod here: the readers of a
// destination (inspect, the scan's workers) load this module at every start.

export const SHA256_PATTERN = /^sha256:[0-9a-f]{64}$/;

// 1 for the code units of lowercase hex digits: a digest's 64 are checked without a branch each.
const LOWER_HEX = new Uint8Array(128);
for (const digit of '0123456789abcdef') LOWER_HEX[digit.charCodeAt(0)] = 1;

/**
 * What SHA256_PATTERN matches, by a table over the code units: faster than the pattern, and the
 * scan checks a digest per output of every state (fields.test.ts holds the two to agree).
 */
export function isSha256(text: string): boolean {
  if (text.length !== 71 || !text.startsWith('sha256:')) return false;
  let hex = 1;
  for (let at = 7; at < 71; at++) {
    const code = text.charCodeAt(at);
    hex &= code < 128 ? LOWER_HEX[code]! : 0;
  }
  return hex === 1;
}

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

// An http(s) URL of the usual form, which URL.canParse always accepts (property-tested): a host of
// ASCII labels, none starting "xn--" (it would have to be valid Punycode), the last one starting with
// a letter (a last label that is a number makes the host an IPv4 address, which may not parse), a
// port of at most 4 digits, then printable ASCII but "\\". Checked first: ~3x cheaper than the rules
// above with their URL parse, and it only ever says yes to what they accept.
const PLAIN_HTTP_URL = /^https?:\/\/(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z][a-z0-9-]*(?::[0-9]{1,4})?(?:[/?#][!-[\]-~]*)?$/;

/** True only for what PLAIN_HTTP_URL matches; exported for the property tests. */
export function matchesPlainHttpUrl(text: string): boolean {
  return PLAIN_HTTP_URL.test(text);
}

export function isHttpUrl(text: string): boolean {
  return PLAIN_HTTP_URL.test(text) || httpUrlProblem(text) === null;
}
