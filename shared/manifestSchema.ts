// The source manifest, schema 1 (CONTRACT.md: the source manifest): its types, inferred from the zod
// schemas of documentSchemas.ts, its known fields, and the plain predicates of the hot path.
// No zod at run time (type imports only): the readers of a destination load this module at every start.

import type { z } from 'zod';
import { isCleanRelativePath } from './cleanPath';
import type { manifestFileSchema, manifestSchema } from './documentSchemas';
import { isSha256, isValidSize } from './fields';
import { isRfc3339 } from './rfc3339';

export type ManifestFile = z.infer<typeof manifestFileSchema>;
export type Manifest = z.infer<typeof manifestSchema>;

export const MANIFEST_KNOWN_FIELDS = ['schema_version', 'id', 'digest', 'created', 'files'] as const;
export const MANIFEST_FILE_KNOWN_FIELDS = ['path', 'sha256', 'size'] as const;

/** Names a manifest file may not take: the manifest itself and the destination's state file. */
export const RESERVED_SOURCE_PATHS = ['manifest.json', '.distributor.json'] as const;

/** A JSON object, as zod's object schemas see one: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True only when manifestFileSchema accepts the value: the fast path for manifests of 100,000 files.
 * A false here sends the record to the schema, which stays the judge (property-tested to agree).
 */
export function isValidManifestFile(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const { path, sha256, size } = value;
  return typeof path === 'string' && isCleanRelativePath(path) && typeof sha256 === 'string' && isSha256(sha256) && isValidSize(size);
}

/**
 * True only when manifestSchema, with `files` checked as an array only, accepts the value: the shape
 * around the records, which parseDocument.ts otherwise hands to zod for every state of a scan.
 * A false here sends the document to zod, which stays the judge (property-tested to agree).
 */
export function isValidManifestShell(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  const { schema_version: schemaVersion, id, digest, created, files } = value;
  return (
    schemaVersion === 1 &&
    typeof id === 'string' &&
    id !== '' &&
    typeof digest === 'string' &&
    isSha256(digest) &&
    typeof created === 'string' &&
    isRfc3339(created) &&
    Array.isArray(files)
  );
}
