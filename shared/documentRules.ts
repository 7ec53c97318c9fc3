// Rules that span fields of a state file or manifest, checked on the raw JSON value.
// They run even when a field's shape is wrong, so one read reports every problem; they never throw.

import { error, warning, type Issue, type IssuePath } from './issues';
import { MANIFEST_FILE_KNOWN_FIELDS, MANIFEST_KNOWN_FIELDS, RESERVED_SOURCE_PATHS } from './manifestSchema';
import {
  LINKS_KNOWN_FIELDS,
  OUTPUT_KNOWN_FIELDS,
  SOURCE_KNOWN_FIELDS,
  STATE_FILE_NAME,
  STATE_KNOWN_FIELDS,
} from './stateSchema';

type JsonObject = Record<string, unknown>;

function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

const ASCII = /^[\x00-\x7f]*$/;

/** The key two names collide under on case-insensitive file systems. */
function foldCase(path: string): string {
  return (ASCII.test(path) ? path : path.normalize('NFC')).toLowerCase();
}

function unknownFields(value: unknown, known: readonly string[], path: IssuePath, issues: Issue[]): void {
  const object = asObject(value);
  if (!object) return;
  for (const key of Object.keys(object)) {
    if (!known.includes(key)) {
      issues.push(warning([...path, key], 'unknown_field', `unknown field "${key}" is kept and shown; the publisher may be newer than this inspector`));
    }
  }
}

/**
 * Unique paths byte for byte (error), paths equal but for letter case (warning), reserved names.
 * `entries` are the objects of an array; `field` the key holding each path.
 */
function pathSetRules(
  entries: unknown[],
  arrayPath: IssuePath,
  field: string,
  reserved: readonly string[],
  what: string,
  issues: Issue[],
): void {
  const reservedByFolded = new Map(reserved.map((name) => [foldCase(name), name]));
  const firstIndexOfPath = new Map<string, number>();
  const firstIndexOfFolded = new Map<string, number>();
  entries.forEach((entry, index) => {
    const path = asObject(entry)?.[field];
    if (typeof path !== 'string') return;
    const at = (): IssuePath => [...arrayPath, index, field];
    const folded = foldCase(path);
    const reservedMatch = reservedByFolded.get(folded);
    if (reservedMatch === path) issues.push(error(at(), 'reserved_path', `${what} "${path}" is reserved and may not be used`));
    else if (reservedMatch) issues.push(warning(at(), 'case_collision', `${what} "${path}" differs from the reserved name "${reservedMatch}" only by letter case: they collide on macOS and Windows`));
    const earlier = firstIndexOfPath.get(path);
    if (earlier !== undefined) {
      issues.push(error(at(), 'duplicate_path', `${what} "${path}" is listed twice (also at index ${earlier})`));
      return;
    }
    firstIndexOfPath.set(path, index);
    const earlierFolded = firstIndexOfFolded.get(folded);
    if (earlierFolded !== undefined) {
      const other = asObject(entries[earlierFolded])?.[field] as string;
      issues.push(warning(at(), 'case_collision', `${what} "${path}" and "${other}" (index ${earlierFolded}) differ only by letter case: they collide on macOS and Windows`));
    } else {
      firstIndexOfFolded.set(folded, index);
    }
  });
}

export function manifestRules(manifest: unknown, path: IssuePath): Issue[] {
  const issues: Issue[] = [];
  unknownFields(manifest, MANIFEST_KNOWN_FIELDS, path, issues);
  const files = asArray(asObject(manifest)?.files);
  files.forEach((file, index) => unknownFields(file, MANIFEST_FILE_KNOWN_FIELDS, [...path, 'files', index], issues));
  pathSetRules(files, [...path, 'files'], 'path', RESERVED_SOURCE_PATHS, 'file path', issues);
  return issues;
}

export function stateRules(state: unknown): Issue[] {
  const issues: Issue[] = [];
  const root = asObject(state);
  if (!root) return issues;
  unknownFields(root, STATE_KNOWN_FIELDS, [], issues);
  unknownFields(root.source, SOURCE_KNOWN_FIELDS, ['source'], issues);
  unknownFields(root.links, LINKS_KNOWN_FIELDS, ['links'], issues);
  const manifest = asObject(root.source)?.manifest;
  issues.push(...manifestRules(manifest, ['source', 'manifest']));

  const manifestPaths = new Set<string>();
  for (const file of asArray(asObject(manifest)?.files)) {
    const filePath = asObject(file)?.path;
    if (typeof filePath === 'string') manifestPaths.add(filePath);
  }
  const hasManifestFiles = Array.isArray(asObject(manifest)?.files);

  const outputs = asArray(root.outputs);
  outputs.forEach((entry, index) => {
    const output = asObject(entry);
    if (!output) return;
    const at: IssuePath = ['outputs', index];
    unknownFields(output, OUTPUT_KNOWN_FIELDS, at, issues);
    if (output.kind === 'generated' && output.transform === undefined) {
      issues.push(error([...at, 'transform'], 'missing_transform', 'a generated output must name its "transform"'));
    }
    if (output.kind === 'source' && output.transform !== undefined) {
      issues.push(error([...at, 'transform'], 'unexpected_transform', 'a copied source output must not have a "transform"'));
    }
    if (hasManifestFiles && typeof output.source_path === 'string' && !manifestPaths.has(output.source_path)) {
      issues.push(error([...at, 'source_path'], 'unknown_source_path', `"source_path" "${output.source_path}" is not a file of the embedded source manifest`));
    }
  });
  pathSetRules(outputs, ['outputs'], 'path', [STATE_FILE_NAME], 'output path', issues);
  return issues;
}
