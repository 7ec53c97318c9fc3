// The destination state file `.distributor.json`, schema 1 (CONTRACT.md: the state file): its name
// and limits, its types, inferred from the zod schemas of documentSchemas.ts, its known fields, and
// the plain predicates of the hot path. No zod at run time (type imports only): the readers of a
// destination load this module at every start.

import type { z } from 'zod';
import { isCleanRelativePath } from './cleanPath';
import type { outputKindSchema, outputRecordSchema, stateSchema } from './documentSchemas';
import { isHttpUrl, isSha256, isValidSize } from './fields';
import { isJsonObject, isValidManifestShell } from './manifestSchema';
import { isRfc3339 } from './rfc3339';

export const STATE_FILE_NAME = '.distributor.json';

/**
 * A state file larger than this is not parsed (an invalid state, `state_too_large`): its text
 * alone would be most of what one JavaScript string can hold, and its parsed form several times
 * that. 100,000 outputs take about 50 MiB.
 */
export const STATE_FILE_MAX_BYTES = 256 * 1024 * 1024;

/**
 * An invalid state file larger than this is checked, but its text and JSON are not handed on (to a
 * scan row, the API, the raw view): the issues say what is wrong, and nobody reads 170 MB of it.
 */
export const INVALID_STATE_SHOWN_MAX_BYTES = 16 * 1024 * 1024;

export type OutputKind = z.infer<typeof outputKindSchema>;
export type OutputRecord = z.infer<typeof outputRecordSchema>;
export type State = z.infer<typeof stateSchema>;

export const STATE_KNOWN_FIELDS = [
  'schema_version',
  'distributor_version',
  'pipeline_id',
  'destination_id',
  'published_at',
  'source',
  'links',
  'outputs',
] as const;
export const SOURCE_KNOWN_FIELDS = ['manifest'] as const;
export const LINKS_KNOWN_FIELDS = ['primary_url'] as const;
export const OUTPUT_KNOWN_FIELDS = ['path', 'kind', 'source_path', 'transform', 'url', 'sha256', 'size'] as const;

/**
 * True only when outputRecordSchema accepts the value: the fast path for 50,000 outputs.
 * A false here sends the record to the schema, which stays the judge (property-tested to agree).
 */
export function isValidOutputRecord(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const { path, kind, source_path: sourcePath, transform, url, sha256, size } = value;
  return (
    typeof path === 'string' &&
    isCleanRelativePath(path) &&
    (kind === 'source' || kind === 'generated') &&
    typeof sourcePath === 'string' &&
    isCleanRelativePath(sourcePath) &&
    (transform === undefined || (typeof transform === 'string' && transform !== '')) &&
    (url === undefined || (typeof url === 'string' && isHttpUrl(url))) &&
    typeof sha256 === 'string' &&
    isSha256(sha256) &&
    isValidSize(size)
  );
}

/**
 * True only when stateSchema, with `outputs` and the manifest's `files` checked as arrays only,
 * accepts the value: the shape around the records (parseDocument.ts's shell). Zod ran this for every
 * state of a scan, ~5 µs each (a third of the validation besides the records); a false here sends the
 * document to zod, which stays the judge and names the fields (property-tested to agree).
 */
export function isValidStateShell(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const {
    schema_version: schemaVersion,
    distributor_version: distributorVersion,
    pipeline_id: pipelineId,
    destination_id: destinationId,
    published_at: publishedAt,
    source,
    links,
    outputs,
  } = value;
  if (links !== undefined) {
    if (!isJsonObject(links)) return false;
    const primaryUrl = links.primary_url;
    if (primaryUrl !== undefined && !(typeof primaryUrl === 'string' && isHttpUrl(primaryUrl))) return false;
  }
  return (
    schemaVersion === 1 &&
    (distributorVersion === undefined || typeof distributorVersion === 'string') &&
    typeof pipelineId === 'string' &&
    pipelineId !== '' &&
    typeof destinationId === 'string' &&
    destinationId !== '' &&
    typeof publishedAt === 'string' &&
    isRfc3339(publishedAt) &&
    isJsonObject(source) &&
    isValidManifestShell(source.manifest) &&
    Array.isArray(outputs)
  );
}
