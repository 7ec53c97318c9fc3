// Parsing of the two JSON documents of the contract: `.distributor.json` and `manifest.json`.
// Never throws, whatever the bytes: every problem becomes an issue naming the field.

import { z } from 'zod';
import { manifestRules, stateRules } from './documentRules';
import { error, hasErrors, sortIssues, type Issue, type IssuePath } from './issues';
import { isValidManifestFile, manifestFileSchema, manifestSchema, type Manifest } from './manifestSchema';
import { isValidOutputRecord, outputRecordSchema, stateSchema, type State } from './stateSchema';
import { findJsonSyntaxError } from './jsonSyntax';
import { literalIssues } from './literalRules';
import { fromZodIssues } from './zodIssues';

/** `text` is the decoded text, for the rules that read how values are written (literalRules.ts). */
export type JsonParse = { ok: true; json: Record<string, unknown>; text: string } | { ok: false; issue: Issue };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Names the line and column, from our own scan of the text: V8's message gives a UTF-16 offset only. */
function invalidJsonIssue(text: string, cause: unknown): Issue {
  const found = findJsonSyntaxError(text);
  if (!found) return error([], 'invalid_json', `the file is not valid JSON: ${(cause as Error).message}`);
  return {
    ...error([], 'invalid_json', `the file is not valid JSON: line ${found.line}, column ${found.column}: ${found.reason}`),
    location: { line: found.line, column: found.column },
  };
}

/** UTF-8 bytes (or already-decoded text) to a JSON object, or the one issue that stops it. */
export function parseJsonObject(input: Uint8Array | string): JsonParse {
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    try {
      text = utf8.decode(input);
    } catch {
      return { ok: false, issue: error([], 'not_utf8', 'the file is not valid UTF-8') };
    }
  }
  if (text.trim() === '') return { ok: false, issue: error([], 'empty_file', 'the file is empty') };
  if (text.charCodeAt(0) === 0xfeff)
    return { ok: false, issue: error([], 'invalid_json', 'the file starts with a byte order mark, which JSON does not allow') };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    return { ok: false, issue: invalidJsonIssue(text, cause) };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    const kind = json === null ? 'null' : Array.isArray(json) ? 'an array' : `a ${typeof json}`;
    return { ok: false, issue: error([], 'not_object', `the top level must be a JSON object, not ${kind}`) };
  }
  return { ok: true, json: json as Record<string, unknown>, text };
}

// The big arrays (outputs, manifest files) are checked record by record below: a plain predicate
// accepts the good ones, and only the others go through zod, for its issues. Zod copying 100,000
// objects was most of the time of a large state; the document itself is the parsed value.
const recordsChecked = z.array(z.unknown());
const manifestShell = manifestSchema.extend({ files: recordsChecked });
const stateShell = stateSchema.extend({ source: z.looseObject({ manifest: manifestShell }), outputs: recordsChecked });

function checkRecords(
  root: unknown,
  records: unknown,
  at: IssuePath,
  isValid: (value: unknown) => boolean,
  schema: z.ZodType,
  issues: Issue[],
): void {
  if (!Array.isArray(records)) return;
  for (let index = 0; index < records.length; index++) {
    if (isValid(records[index])) continue;
    const result = schema.safeParse(records[index]);
    if (!result.success) issues.push(...fromZodIssues(result.error.issues, root, [...at, index]));
  }
}

function objectAt(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

/** The issues of the shape check, with the same paths zod would give for the whole document. */
function shapeIssues(
  root: Record<string, unknown>,
  shell: z.ZodType,
  manifest: unknown,
  manifestAt: IssuePath,
  outputs?: unknown,
): Issue[] {
  const shape = shell.safeParse(root);
  const issues = shape.success ? [] : fromZodIssues(shape.error.issues, root);
  checkRecords(root, objectAt(manifest, 'files'), [...manifestAt, 'files'], isValidManifestFile, manifestFileSchema, issues);
  checkRecords(root, outputs, ['outputs'], isValidOutputRecord, outputRecordSchema, issues);
  return issues;
}

export type StateParse =
  | { status: 'managed'; state: State; json: Record<string, unknown>; issues: Issue[] }
  | { status: 'invalid'; json?: Record<string, unknown>; issues: Issue[] };

export function parseState(input: Uint8Array | string): StateParse {
  const parsed = parseJsonObject(input);
  if (!parsed.ok) return { status: 'invalid', issues: [parsed.issue] };
  const { json } = parsed;
  const manifest = objectAt(json.source, 'manifest');
  const issues = [
    ...shapeIssues(json, stateShell, manifest, ['source', 'manifest'], json.outputs),
    ...stateRules(json),
    ...literalIssues(parsed.text, 'state'),
  ];
  sortIssues(issues);
  // Every shape problem is an error issue, so no error means the schema accepts the document as it is.
  if (!hasErrors(issues)) return { status: 'managed', state: json as State, json, issues };
  return { status: 'invalid', json, issues };
}

export type ManifestParse = { ok: true; manifest: Manifest; issues: Issue[] } | { ok: false; issues: Issue[] };

/** Checks an already-parsed JSON value as a source manifest. */
export function validateManifest(json: unknown): ManifestParse {
  const issues =
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? shapeIssues(json as Record<string, unknown>, manifestShell, json, [])
      : fromZodIssues(manifestSchema.safeParse(json).error?.issues ?? [], json);
  issues.push(...manifestRules(json, []));
  sortIssues(issues);
  if (!hasErrors(issues)) return { ok: true, manifest: json as Manifest, issues };
  return { ok: false, issues };
}

export function parseManifest(input: Uint8Array | string): ManifestParse {
  const parsed = parseJsonObject(input);
  if (!parsed.ok) return { ok: false, issues: [parsed.issue] };
  const validated = validateManifest(parsed.json);
  const written = literalIssues(parsed.text, 'manifest');
  if (written.length === 0) return validated;
  const issues = sortIssues([...validated.issues, ...written]);
  return hasErrors(issues) ? { ok: false, issues } : { ok: true, manifest: parsed.json as Manifest, issues };
}
