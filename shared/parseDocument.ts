// Parsing of the two JSON documents of the contract: `.distributor.json` and `manifest.json`.
// Never throws, whatever the bytes: every problem becomes an issue naming the field.

import type { z } from 'zod';
import { manifestRules, stateRules } from './documentRules';
import { IssueCollector, type IssueSink } from './issueCap';
import { error, type Issue, type IssuePath } from './issues';
import { isValidManifestFile, isValidManifestShell, type Manifest } from './manifestSchema';
import { manifestFileCodes, outputRecordCodes, type RecordCode } from './recordCodes';
import { schemasOnDemand, type OnDemandSchemas } from './schemasOnDemand';
import { isValidOutputRecord, isValidStateShell, type State } from './stateSchema';
import { findJsonSyntaxError } from './jsonSyntax';
import { isCleanState } from './cleanState';
import { literalIssues } from './literalRules';
import type { Result } from './result';
import { fromZodIssues } from './zodIssues';

/** A parsed JSON object and its decoded `text`, for the rules that read how values are written (literalRules.ts). */
export interface JsonDocument {
  json: Record<string, unknown>;
  text: string;
}

/** A JSON object, or the one issue that stops the document from being one. */
export type JsonParse = Result<JsonDocument, Issue>;

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
      return { ok: false, error: error([], 'not_utf8', 'the file is not valid UTF-8') };
    }
  }
  if (text.trim() === '') return { ok: false, error: error([], 'empty_file', 'the file is empty') };
  if (text.charCodeAt(0) === 0xfeff)
    return { ok: false, error: error([], 'invalid_json', 'the file starts with a byte order mark, which JSON does not allow') };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    return { ok: false, error: invalidJsonIssue(text, cause) };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    const kind = json === null ? 'null' : Array.isArray(json) ? 'an array' : `a ${typeof json}`;
    return { ok: false, error: error([], 'not_object', `the top level must be a JSON object, not ${kind}`) };
  }
  return { ok: true, value: { json: json as Record<string, unknown>, text } };
}

// The big arrays (outputs, manifest files) are checked record by record below: a plain predicate
// accepts the good ones, and only the others go through zod, for its issues. Zod copying 100,000
// objects was most of the time of a large state; the document itself is the parsed value.
// The schemas are named, not held: a valid document never loads them (schemasOnDemand.ts).
type SchemaName = keyof OnDemandSchemas;
const stateShellCheck = { schema: 'stateShell', isValid: isValidStateShell } as const;
const manifestShellCheck = { schema: 'manifestShell', isValid: isValidManifestShell } as const;

/** Zod's issues for a value the plain predicates refused (none when zod accepts it after all). */
function zodIssuesOf(schema: SchemaName, value: unknown): readonly z.core.$ZodIssue[] {
  const result = schemasOnDemand()[schema].safeParse(value);
  return result.success ? [] : result.error.issues;
}

function checkRecords(
  root: unknown,
  records: unknown,
  at: IssuePath,
  isValid: (value: unknown) => boolean,
  schema: SchemaName,
  codesOf: (value: unknown) => RecordCode[],
  issues: IssueSink,
): void {
  if (!Array.isArray(records)) return;
  for (let index = 0; index < records.length; index++) {
    const record: unknown = records[index];
    if (isValid(record)) continue;
    // Past the cap a bad record is only counted: its codes come from the plain predicates, and zod
    // (a few microseconds and a dozen objects a record) runs only for issues that will be shown.
    const codes = codesOf(record);
    if (codes.every(({ code }) => !issues.wants(code, 'error'))) {
      for (const { key, code } of codes) issues.count(code, 'error', key === undefined ? [...at, index] : [...at, index, key]);
      continue;
    }
    for (const issue of fromZodIssues(zodIssuesOf(schema, record), root, [...at, index])) issues.add(issue);
  }
}

function objectAt(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

/** The issues of the shape check, with the same paths zod would give for the whole document. */
function shapeIssues(
  root: Record<string, unknown>,
  shell: { schema: SchemaName; isValid: (value: unknown) => boolean },
  manifest: unknown,
  manifestAt: IssuePath,
  issues: IssueSink,
  outputs?: unknown,
): void {
  // The plain predicate accepts a good shell; zod runs only on the others, for its issues.
  if (!shell.isValid(root)) for (const issue of fromZodIssues(zodIssuesOf(shell.schema, root), root)) issues.add(issue);
  const filesAt = [...manifestAt, 'files'];
  checkRecords(root, objectAt(manifest, 'files'), filesAt, isValidManifestFile, 'manifestFileSchema', manifestFileCodes, issues);
  checkRecords(root, outputs, ['outputs'], isValidOutputRecord, 'outputRecordSchema', outputRecordCodes, issues);
}

export type StateParse =
  | { status: 'managed'; state: State; json: Record<string, unknown>; issues: Issue[] }
  | { status: 'invalid'; json?: Record<string, unknown>; issues: Issue[] };

/**
 * Never holds more than ISSUES_KEPT_PER_CODE issues of one code (issueCap.ts): the rest are counted
 * into one summary issue per code, so a state of millions of bad records gives a few thousand issues.
 */
export function parseState(input: Uint8Array | string): StateParse {
  const parsed = parseJsonObject(input);
  if (!parsed.ok) return { status: 'invalid', issues: [parsed.error] };
  const { json, text } = parsed.value;
  // Most states have nothing to report: proven so in one quick pass (cleanState.ts), they skip the
  // checks below, which find and word each issue.
  if (isCleanState(json, text)) return { status: 'managed', state: json as State, json, issues: [] };
  return checkState(json, text);
}

/** parseState's checks of a parsed state, rule by rule: what the quick proof of cleanState.ts is held to. */
export function checkState(json: Record<string, unknown>, text: string): StateParse {
  const manifest = objectAt(json.source, 'manifest');
  const issues = new IssueCollector();
  shapeIssues(json, stateShellCheck, manifest, ['source', 'manifest'], issues, json.outputs);
  stateRules(json, issues);
  literalIssues(text, 'state', issues, json);
  // Every shape problem is an error issue, so no error means the schema accepts the document as it is.
  if (!issues.hasErrors()) return { status: 'managed', state: json as State, json, issues: issues.issues() };
  return { status: 'invalid', json, issues: issues.issues() };
}

export type ManifestParse = { ok: true; manifest: Manifest; issues: Issue[] } | { ok: false; issues: Issue[] };

function checkManifest(json: unknown, issues: IssueCollector): void {
  if (json !== null && typeof json === 'object' && !Array.isArray(json))
    shapeIssues(json as Record<string, unknown>, manifestShellCheck, json, [], issues);
  else for (const issue of fromZodIssues(zodIssuesOf('manifestSchema', json), json)) issues.add(issue);
  manifestRules(json, [], issues);
}

/** Checks an already-parsed JSON value as a source manifest (issues capped as in parseState). */
export function validateManifest(json: unknown): ManifestParse {
  const issues = new IssueCollector();
  checkManifest(json, issues);
  if (!issues.hasErrors()) return { ok: true, manifest: json as Manifest, issues: issues.issues() };
  return { ok: false, issues: issues.issues() };
}

export function parseManifest(input: Uint8Array | string): ManifestParse {
  const parsed = parseJsonObject(input);
  if (!parsed.ok) return { ok: false, issues: [parsed.error] };
  const { json, text } = parsed.value;
  const issues = new IssueCollector();
  checkManifest(json, issues);
  literalIssues(text, 'manifest', issues, json);
  if (!issues.hasErrors()) return { ok: true, manifest: json as Manifest, issues: issues.issues() };
  return { ok: false, issues: issues.issues() };
}
