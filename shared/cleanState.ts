// The scan's quick proof that a state file is clean: valid, with nothing to report, not even a
// warning. parseState then answers `managed` with no issues at once, without the rule-by-rule checks
// that find and word each issue (zod's shells, documentRules.ts, literalRules.ts). One walk over the
// parsed value, with the same field predicates or narrower ones proven to imply them
// (isPlainPortablePath, the plain URL of isHttpUrl), and one over the colons of the text.
// It only ever says yes to a document those checks find nothing in: any doubt is a no, which sends
// the document the long way (parseDocument.ts), the only one that reports. Property-tested to agree.
// Allocates nothing per record: the scan runs it on every state it reads.

import { isPlainPortablePath } from './cleanPath';
import { isHttpUrl, isSha256, isValidSize } from './fields';
import { DIGIT_0, DIGIT_9, DOT, LOWER_E, MINUS, QUOTE, UPPER_E } from './jsonLiterals';
import { isJsonSpace } from './jsonSyntax';
import { isJsonObject } from './manifestSchema';
import { isRfc3339 } from './rfc3339';

/**
 * What the walk over the value counted, for the walk over the text: the known fields present, and
 * the colons inside the string values it read.
 */
interface Tally {
  keys: number;
  colons: number;
}

function colonsIn(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) count++;
  return count;
}

/** A string the full checks take as is (a non-empty id, a version): its colons are counted. */
function counted(value: unknown, tally: Tally, nonEmpty: boolean): boolean {
  if (typeof value !== 'string' || (nonEmpty && value === '')) return false;
  tally.colons += colonsIn(value);
  return true;
}

function isDigest(value: unknown, tally: Tally): boolean {
  if (typeof value !== 'string' || !isSha256(value)) return false;
  tally.colons += 1;
  return true;
}

/** An optional field: 1 when present, for the tally of keys. */
function present(value: unknown): number {
  return value === undefined ? 0 : 1;
}

// The timestamps last proven valid: a publish run stamps many destinations alike, and one source's
// manifest is recorded by all of them.
let publishedAtSeen = '';
let createdSeen = '';

/** No two equal: for plain portable paths, equal folded forms too (isPlainPortablePath). */
function allDistinct(paths: readonly string[]): boolean {
  // A few dozen compares cost less than hashing every path into a set.
  if (paths.length <= 24) {
    for (let i = 1; i < paths.length; i++) for (let j = 0; j < i; j++) if (paths[i] === paths[j]) return false;
    return true;
  }
  return new Set(paths).size === paths.length;
}

/** The manifest's files, each `{path, sha256, size}` with a plain path that is not reserved; their paths, or undefined. */
function cleanFiles(files: unknown[], tally: Tally): string[] | undefined {
  const paths = new Array<string>(files.length);
  for (let index = 0; index < files.length; index++) {
    const file = files[index];
    if (!isJsonObject(file)) return undefined;
    const { path, sha256, size } = file;
    if (typeof path !== 'string' || !isPlainPortablePath(path) || path === 'manifest.json' || path === '.distributor.json')
      return undefined;
    if (!isDigest(sha256, tally) || !isValidSize(size)) return undefined;
    tally.keys += 3;
    paths[index] = path;
  }
  return allDistinct(paths) ? paths : undefined;
}

function cleanOutputs(outputs: unknown[], files: unknown[], sourcePaths: readonly string[], tally: Tally): boolean {
  // Outputs that each stand at their own source file's path (a copy, the usual case) are as distinct
  // and as clean as the manifest's paths: no pattern and no compare of their own.
  let mirrored = outputs.length <= sourcePaths.length;
  let sources: Set<string> | undefined;
  for (let index = 0; index < outputs.length; index++) {
    const output = outputs[index];
    if (!isJsonObject(output)) return false;
    const { path, kind, source_path: sourcePath, transform, url, sha256, size } = output;
    if (typeof path !== 'string') return false;
    if (path !== sourcePaths[index]) {
      if (!isPlainPortablePath(path) || path === '.distributor.json') return false;
      mirrored = false;
    }
    if (kind === 'source') {
      if (transform !== undefined) return false;
    } else if (kind !== 'generated' || !counted(transform, tally, true)) return false;
    // A source path that is a manifest file's is clean (the manifest's are plain) and known: usually the one at the same index.
    if (typeof sourcePath !== 'string') return false;
    if (sourcePaths[index] !== sourcePath) {
      sources ??= new Set(sourcePaths);
      if (!sources.has(sourcePath)) return false;
    }
    if (url !== undefined && !(typeof url === 'string' && isHttpUrl(url) && counted(url, tally, true))) return false;
    // A copied output's digest is usually its source file's, already checked: equal strings cost less than the pattern.
    if (typeof sha256 === 'string' && sha256 === (files[index] as { sha256?: unknown } | undefined)?.sha256) tally.colons += 1;
    else if (!isDigest(sha256, tally)) return false;
    if (!isValidSize(size)) return false;
    tally.keys += 5 + present(transform) + present(url);
  }
  if (mirrored) return true;
  const paths = new Array<string>(outputs.length);
  for (let index = 0; index < outputs.length; index++) paths[index] = (outputs[index] as { path: string }).path;
  return allDistinct(paths);
}

/**
 * The text's part, for text JSON.parse accepted that holds no backslash, so that every string token
 * is written exactly as its value reads. Each colon outside a string ends a written key, so the
 * written keys are all the colons less those inside string values (which the walk over the value
 * counted, unread values aside: fewer, never more). The written keys are at least the keys JSON.parse
 * kept (more when one was written twice in an object), which are at least the known fields the walk
 * found (more when one is unknown): equality proves no key repeated and none unknown. Every number of
 * a clean state is a key's value, so a number after a key's colon (a quote, spaces aside, before it)
 * must be digits only: no sign, fraction or exponent.
 */
function isPlainText(text: string, tally: Tally): boolean {
  let colons = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) {
    colons++;
    let before = at - 1;
    let code = text.charCodeAt(before);
    while (isJsonSpace(code)) code = text.charCodeAt(--before);
    if (code !== QUOTE) continue;
    let after = at + 1;
    code = text.charCodeAt(after);
    while (isJsonSpace(code)) code = text.charCodeAt(++after);
    if (code === MINUS) return false;
    if (code >= DIGIT_0 && code <= DIGIT_9) {
      do code = text.charCodeAt(++after);
      while (code >= DIGIT_0 && code <= DIGIT_9);
      if (code === DOT || code === LOWER_E || code === UPPER_E) return false;
    }
  }
  return colons - tally.colons === tally.keys;
}

/**
 * True only when parseState's checks would find no issue at all in the state JSON.parse made of
 * `text`: then it is managed, its issues are none, and the state is the parsed value itself.
 */
export function isCleanState(json: Record<string, unknown>, text: string): boolean {
  // Without a backslash no string is escaped: the text's walk can count what the value holds.
  if (text.indexOf('\\') !== -1) return false;
  const tally: Tally = { keys: 0, colons: 0 };
  const { schema_version: schemaVersion, distributor_version: version, pipeline_id: pipelineId, destination_id: destinationId } = json;
  if (schemaVersion !== 1 || (version !== undefined && !counted(version, tally, false))) return false;
  if (!counted(pipelineId, tally, true) || !counted(destinationId, tally, true)) return false;
  const { published_at: publishedAt, source, links, outputs } = json;
  if (typeof publishedAt !== 'string') return false;
  if (publishedAt !== publishedAtSeen) {
    if (!isRfc3339(publishedAt)) return false;
    publishedAtSeen = publishedAt;
  }
  tally.colons += colonsIn(publishedAt);
  if (links !== undefined) {
    if (!isJsonObject(links)) return false;
    const primaryUrl = links.primary_url;
    if (primaryUrl !== undefined && !(typeof primaryUrl === 'string' && isHttpUrl(primaryUrl) && counted(primaryUrl, tally, true)))
      return false;
    tally.keys += present(primaryUrl);
  }
  if (!isJsonObject(source)) return false;
  const manifest = source.manifest;
  if (!isJsonObject(manifest)) return false;
  const { schema_version: manifestVersion, id, digest, created, files } = manifest;
  if (manifestVersion !== 1 || !counted(id, tally, true) || !isDigest(digest, tally)) return false;
  if (typeof created !== 'string') return false;
  if (created !== createdSeen) {
    if (!isRfc3339(created)) return false;
    createdSeen = created;
  }
  tally.colons += colonsIn(created);
  if (!Array.isArray(files) || !Array.isArray(outputs)) return false;
  // The state's six fields and its optional two, the source's one, the manifest's five.
  tally.keys += 6 + present(version) + present(links) + 1 + 5;
  const sourcePaths = cleanFiles(files, tally);
  return sourcePaths !== undefined && cleanOutputs(outputs, files, sourcePaths, tally) && isPlainText(text, tally);
}
