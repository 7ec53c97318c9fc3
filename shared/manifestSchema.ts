// The source manifest, schema 1 (CONTRACT.md: the source manifest).
// Objects are loose: unknown fields survive parsing and are reported as warnings elsewhere.

import { z } from 'zod';
import { cleanPathField, nonEmptyString, sha256Field, sizeField, timestampField } from './fields';

export const manifestFileSchema = z.looseObject({
  path: cleanPathField,
  sha256: sha256Field,
  size: sizeField,
});

export const manifestSchema = z.looseObject({
  schema_version: z.literal(1, { message: 'must be the number 1' }),
  id: nonEmptyString,
  digest: sha256Field,
  created: timestampField,
  files: z.array(manifestFileSchema),
});

export type ManifestFile = z.infer<typeof manifestFileSchema>;
export type Manifest = z.infer<typeof manifestSchema>;

export const MANIFEST_KNOWN_FIELDS = ['schema_version', 'id', 'digest', 'created', 'files'] as const;
export const MANIFEST_FILE_KNOWN_FIELDS = ['path', 'sha256', 'size'] as const;

/** Names a manifest file may not take: the manifest itself and the destination's state file. */
export const RESERVED_SOURCE_PATHS = ['manifest.json', '.distributor.json'] as const;
