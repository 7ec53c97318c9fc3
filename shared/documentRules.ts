// Rules that span fields of a state file or manifest, checked on the raw JSON value.
// They run even when a field's shape is wrong, so one read reports every problem; they never throw.
// Hot path (50,000 outputs): one pass per array, one map per path set, no allocation per record
// unless it has a finding; past the cap (issueCap.ts) a finding is counted, its message never built.

import { isCleanRelativePath, portabilityProblem } from './cleanPath';
import { describeNameCollision } from './nameCollision';
import type { IssueSink } from './issueCap';
import { error, warning, type IssuePath, type Severity } from './issues';
import { MANIFEST_FILE_KNOWN_FIELDS, MANIFEST_KNOWN_FIELDS, RESERVED_SOURCE_PATHS } from './manifestSchema';
import { LINKS_KNOWN_FIELDS, OUTPUT_KNOWN_FIELDS, SOURCE_KNOWN_FIELDS, STATE_FILE_NAME, STATE_KNOWN_FIELDS } from './stateSchema';

type JsonObject = Record<string, unknown>;

/** One finding: built only when the sink keeps issues of its code, otherwise only counted. */
function report(issues: IssueSink, severity: Severity, path: IssuePath, code: string, message: () => string): void {
  if (issues.wants(code, severity)) issues.add((severity === 'error' ? error : warning)(path, code, message()));
  else issues.count(code, severity, path);
}

function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

const NON_ASCII = /[^\x00-\x7f]/;
// An uppercase ASCII letter or anything beyond ASCII: without one, a path is its own folded form,
// and no new string is made (most paths; allocating 100,000 copies was the slowest part here).
const MAY_FOLD = /[A-Z\u0080-\uffff]/;

/** The key two names collide under on case-insensitive file systems (which also normalize Unicode). */
export function foldCase(path: string): string {
  if (!MAY_FOLD.test(path)) return path;
  return (NON_ASCII.test(path) ? path.normalize('NFC') : path).toLowerCase();
}

/** `index`, when given, follows `at`: records of a big array pass it instead of allocating a path each. */
function unknownFields(value: unknown, known: ReadonlySet<string>, at: IssuePath, issues: IssueSink, index?: number): void {
  const object = asObject(value);
  if (!object) return;
  for (const key in object) {
    if (!known.has(key) && Object.prototype.hasOwnProperty.call(object, key)) {
      const path = index === undefined ? [...at, key] : [...at, index, key];
      report(
        issues,
        'warning',
        path,
        'unknown_field',
        () => `unknown field "${key}" is kept and shown; the publisher may be newer than this inspector`,
      );
    }
  }
}

const STATE_FIELDS = new Set<string>(STATE_KNOWN_FIELDS);
const SOURCE_FIELDS = new Set<string>(SOURCE_KNOWN_FIELDS);
const LINKS_FIELDS = new Set<string>(LINKS_KNOWN_FIELDS);
const OUTPUT_FIELDS = new Set<string>(OUTPUT_KNOWN_FIELDS);
const MANIFEST_FIELDS = new Set<string>(MANIFEST_KNOWN_FIELDS);
const MANIFEST_FILE_FIELDS = new Set<string>(MANIFEST_FILE_KNOWN_FIELDS);

function pathAt(entries: unknown[], index: number): unknown {
  return asObject(entries[index])?.path;
}

/**
 * Unique paths byte for byte (error), paths equal but for letter case or Unicode normalization
 * (warning, nameCollision.ts says which), reserved names.
 * `entries` are the objects of an array, each holding its path under "path".
 */
function pathSetRules(entries: unknown[], arrayPath: IssuePath, reserved: readonly string[], what: string, issues: IssueSink): PathSet {
  const reservedByFolded = new Map(reserved.map((name) => [foldCase(name), name]));
  // Folded path → index of the first entry of each distinct spelling. Almost always one index.
  const byFolded = new Map<string, number | number[]>();
  for (let index = 0; index < entries.length; index++) {
    const path = pathAt(entries, index);
    if (typeof path !== 'string') continue;
    const notPortable = portabilityProblem(path);
    // An unclean path already has its error; a clean one may still not survive Windows: a warning.
    if (notPortable && isCleanRelativePath(path))
      report(issues, 'warning', [...arrayPath, index, 'path'], 'not_portable', () => `${what} "${path}" ${notPortable}`);
    const folded = foldCase(path);
    const reservedMatch = reservedByFolded.get(folded);
    if (reservedMatch === path)
      report(issues, 'error', [...arrayPath, index, 'path'], 'reserved_path', () => `${what} "${path}" is reserved and may not be used`);
    else if (reservedMatch) {
      const collision = describeNameCollision(path, reservedMatch);
      report(
        issues,
        'warning',
        [...arrayPath, index, 'path'],
        collision.code,
        () => `${what} "${path}" and the reserved name "${reservedMatch}" ${collision.words}`,
      );
    }

    const earlier = byFolded.get(folded);
    if (earlier === undefined) {
      byFolded.set(folded, index);
      continue;
    }
    const spellings = typeof earlier === 'number' ? [earlier] : earlier;
    const same = spellings.find((other) => pathAt(entries, other) === path);
    if (same !== undefined) {
      report(
        issues,
        'error',
        [...arrayPath, index, 'path'],
        'duplicate_path',
        () => `${what} "${path}" is listed twice (also at index ${same})`,
      );
      continue;
    }
    const first = spellings[0] as number;
    const firstPath = String(pathAt(entries, first));
    const collision = describeNameCollision(path, firstPath);
    report(
      issues,
      'warning',
      [...arrayPath, index, 'path'],
      collision.code,
      () => `${what} "${path}" and "${firstPath}" (index ${first}) ${collision.words}`,
    );
    byFolded.set(folded, [...spellings, index]);
  }
  return { entries, byFolded };
}

/** The paths of one array, by folded path: reused to look paths up, so no second set is built. */
interface PathSet {
  entries: unknown[];
  byFolded: Map<string, number | number[]>;
}

function hasPath(set: PathSet, path: string): boolean {
  const found = set.byFolded.get(foldCase(path));
  if (found === undefined) return false;
  if (typeof found === 'number') return pathAt(set.entries, found) === path;
  return found.some((index) => pathAt(set.entries, index) === path);
}

function checkManifest(manifest: unknown, path: IssuePath, issues: IssueSink): PathSet {
  unknownFields(manifest, MANIFEST_FIELDS, path, issues);
  const files = asArray(asObject(manifest)?.files);
  const filesAt = [...path, 'files'];
  for (let index = 0; index < files.length; index++) unknownFields(files[index], MANIFEST_FILE_FIELDS, filesAt, issues, index);
  return pathSetRules(files, filesAt, RESERVED_SOURCE_PATHS, 'file path', issues);
}

export function manifestRules(manifest: unknown, path: IssuePath, issues: IssueSink): void {
  checkManifest(manifest, path, issues);
}

const OUTPUTS_AT: IssuePath = ['outputs'];

export function stateRules(state: unknown, issues: IssueSink): void {
  const root = asObject(state);
  if (!root) return;
  unknownFields(root, STATE_FIELDS, [], issues);
  unknownFields(root.source, SOURCE_FIELDS, ['source'], issues);
  unknownFields(root.links, LINKS_FIELDS, ['links'], issues);
  const manifest = asObject(root.source)?.manifest;
  const manifestPaths = checkManifest(manifest, ['source', 'manifest'], issues);
  // Without a files array there is nothing to hold source_path against; the schema reports the array.
  const hasManifestFiles = Array.isArray(asObject(manifest)?.files);

  const outputs = asArray(root.outputs);
  for (let index = 0; index < outputs.length; index++) {
    const output = asObject(outputs[index]);
    if (!output) continue;
    unknownFields(output, OUTPUT_FIELDS, OUTPUTS_AT, issues, index);
    if (output.kind === 'generated' && output.transform === undefined)
      report(issues, 'error', ['outputs', index, 'transform'], 'missing_transform', () => 'a generated output must name its "transform"');
    if (output.kind === 'source' && output.transform !== undefined)
      report(
        issues,
        'error',
        ['outputs', index, 'transform'],
        'unexpected_transform',
        () => 'a copied source output must not have a "transform"',
      );
    const sourcePath = output.source_path;
    if (hasManifestFiles && typeof sourcePath === 'string' && !hasPath(manifestPaths, sourcePath)) {
      report(
        issues,
        'error',
        ['outputs', index, 'source_path'],
        'unknown_source_path',
        () => `"source_path" "${sourcePath}" is not a file of the embedded source manifest`,
      );
    }
  }
  pathSetRules(outputs, OUTPUTS_AT, [STATE_FILE_NAME], 'output path', issues);
}
