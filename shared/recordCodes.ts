// The codes of the issues zod would report for one output record or one manifest file record, found
// with the plain predicates of fields.ts and no zod: the parser asks it for a bad record whose issues
// would all be past the cap (issueCap.ts), so that a state of millions of bad records is counted
// exactly without a zod run and an issue object per field. The schema stays the judge of every issue
// that is kept; recordCodes.test.ts holds the two to the same codes on any record. Never throws.

import { cleanPathProblem } from './cleanPath';
import { httpUrlProblem, isSha256, sizeProblem } from './fields';
import { isJsonObject } from './manifestSchema';

/** A field's check on a present value: the code of its issue (or issues), or null. */
type FieldCheck = (value: unknown) => string | readonly string[] | null;

interface FieldRule {
  key: string;
  optional: boolean;
  check: FieldCheck;
}

/** One issue as recordCodes finds it: the field (absent for the record itself) and the code. */
export interface RecordCode {
  key?: string;
  code: string;
}

const cleanPath: FieldCheck = (value) => (typeof value !== 'string' ? 'invalid_type' : cleanPathProblem(value) ? 'unclean_path' : null);
const sha256: FieldCheck = (value) => (typeof value !== 'string' ? 'invalid_type' : isSha256(value) ? null : 'invalid_sha256');
// z.number() refuses Infinity (1e400 in JSON) as a wrong type, like a string.
const size: FieldCheck = (value) =>
  typeof value !== 'number' || !Number.isFinite(value) ? 'invalid_type' : (sizeProblem(value)?.code ?? null);
const kind: FieldCheck = (value) => (value === 'source' || value === 'generated' ? null : 'invalid_value');
// z.string().min(1) runs its length check even after the type check failed, on anything with a
// `length` (an empty array, {"length": 0}): both issues, as zod reports them.
const nonEmpty: FieldCheck = (value) => {
  const length = value === null || value === undefined ? undefined : (value as { length?: unknown }).length;
  const tooShort = length !== undefined && !((length as number) >= 1);
  if (typeof value === 'string') return tooShort ? 'too_small' : null;
  return tooShort ? ['invalid_type', 'too_small'] : 'invalid_type';
};
const httpUrl: FieldCheck = (value) => (typeof value !== 'string' ? 'invalid_type' : httpUrlProblem(value) ? 'invalid_url' : null);

/** In the schema's key order, which is the order zod reports them in. */
const OUTPUT_RULES: readonly FieldRule[] = [
  { key: 'path', optional: false, check: cleanPath },
  { key: 'kind', optional: false, check: kind },
  { key: 'source_path', optional: false, check: cleanPath },
  { key: 'transform', optional: true, check: nonEmpty },
  { key: 'url', optional: true, check: httpUrl },
  { key: 'sha256', optional: false, check: sha256 },
  { key: 'size', optional: false, check: size },
];

const MANIFEST_FILE_RULES: readonly FieldRule[] = [
  { key: 'path', optional: false, check: cleanPath },
  { key: 'sha256', optional: false, check: sha256 },
  { key: 'size', optional: false, check: size },
];

function codesOf(value: unknown, rules: readonly FieldRule[]): RecordCode[] {
  if (!isJsonObject(value)) return [{ code: 'invalid_type' }];
  const codes: RecordCode[] = [];
  for (const rule of rules) {
    const present = Object.prototype.hasOwnProperty.call(value, rule.key);
    const field = value[rule.key];
    // An optional field given as undefined passes, as zod's .optional() lets it.
    if (rule.optional && field === undefined) continue;
    const found = present ? rule.check(field) : 'missing_field';
    if (typeof found === 'string') codes.push({ key: rule.key, code: found });
    else if (found) for (const code of found) codes.push({ key: rule.key, code });
  }
  return codes;
}

/** The issues outputRecordSchema gives a value, as field and code. */
export function outputRecordCodes(value: unknown): RecordCode[] {
  return codesOf(value, OUTPUT_RULES);
}

/** The issues manifestFileSchema gives a value, as field and code. */
export function manifestFileCodes(value: unknown): RecordCode[] {
  return codesOf(value, MANIFEST_FILE_RULES);
}
