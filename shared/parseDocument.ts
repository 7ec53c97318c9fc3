// Parsing of the two JSON documents of the contract: `.distributor.json` and `manifest.json`.
// Never throws, whatever the bytes: every problem becomes an issue naming the field.

import { manifestRules, stateRules } from './documentRules';
import { error, hasErrors, sortIssues, type Issue } from './issues';
import { manifestSchema, type Manifest } from './manifestSchema';
import { stateSchema, type State } from './stateSchema';
import { fromZodIssues } from './zodIssues';

export type JsonParse = { ok: true; json: Record<string, unknown> } | { ok: false; issue: Issue };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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
  if (text.charCodeAt(0) === 0xfeff) return { ok: false, issue: error([], 'invalid_json', 'the file starts with a byte order mark, which JSON does not allow') };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    return { ok: false, issue: error([], 'invalid_json', `the file is not valid JSON: ${(cause as Error).message}`) };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    const kind = json === null ? 'null' : Array.isArray(json) ? 'an array' : `a ${typeof json}`;
    return { ok: false, issue: error([], 'not_object', `the top level must be a JSON object, not ${kind}`) };
  }
  return { ok: true, json: json as Record<string, unknown> };
}

export type StateParse =
  | { status: 'managed'; state: State; json: Record<string, unknown>; issues: Issue[] }
  | { status: 'invalid'; json?: Record<string, unknown>; issues: Issue[] };

export function parseState(input: Uint8Array | string): StateParse {
  const parsed = parseJsonObject(input);
  if (!parsed.ok) return { status: 'invalid', issues: [parsed.issue] };
  const shape = stateSchema.safeParse(parsed.json);
  const issues = [...(shape.success ? [] : fromZodIssues(shape.error.issues, parsed.json)), ...stateRules(parsed.json)];
  sortIssues(issues);
  if (shape.success && !hasErrors(issues)) return { status: 'managed', state: shape.data, json: parsed.json, issues };
  return { status: 'invalid', json: parsed.json, issues };
}

export type ManifestParse = { ok: true; manifest: Manifest; issues: Issue[] } | { ok: false; issues: Issue[] };

/** Checks an already-parsed JSON value as a source manifest. */
export function validateManifest(json: unknown): ManifestParse {
  const shape = manifestSchema.safeParse(json);
  const issues = [...(shape.success ? [] : fromZodIssues(shape.error.issues, json)), ...manifestRules(json, [])];
  sortIssues(issues);
  if (shape.success && !hasErrors(issues)) return { ok: true, manifest: shape.data, issues };
  return { ok: false, issues };
}

export function parseManifest(input: Uint8Array | string): ManifestParse {
  const parsed = parseJsonObject(input);
  if (!parsed.ok) return { ok: false, issues: [parsed.issue] };
  return validateManifest(parsed.json);
}
