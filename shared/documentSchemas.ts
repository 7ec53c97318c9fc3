// The zod schemas of the two contract documents (CONTRACT.md): the source manifest, schema 1, and
// the destination state file `.distributor.json`, schema 1, with the shells parseDocument.ts checks
// around their big arrays. Their types (manifestSchema.ts, stateSchema.ts) are inferred from these.
// Field shapes only; rules that span fields live in documentRules.ts so they run even when a shape fails.
// Objects are loose: unknown fields survive parsing and are reported as warnings elsewhere.
//
// Imports zod. The readers of a destination never import this module: the plain predicates decide
// a valid document, and parseDocument.ts reaches these schemas through schemasOnDemand.ts, only to
// describe what is wrong with an invalid one.

import { z } from 'zod';
import { cleanPathField, httpUrlField, nonEmptyString, sha256Field, sizeField, timestampField } from './fieldSchemas';

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

export const outputKindSchema = z.enum(['source', 'generated'], { message: 'must be "source" or "generated"' });

export const outputRecordSchema = z.looseObject({
  path: cleanPathField,
  kind: outputKindSchema,
  source_path: cleanPathField,
  transform: nonEmptyString.optional(),
  url: httpUrlField.optional(),
  sha256: sha256Field,
  size: sizeField,
});

export const stateSchema = z.looseObject({
  schema_version: z.literal(1, { message: 'must be the number 1' }),
  distributor_version: z.string().optional(),
  pipeline_id: nonEmptyString,
  destination_id: nonEmptyString,
  published_at: timestampField,
  source: z.looseObject({ manifest: manifestSchema }),
  links: z.looseObject({ primary_url: httpUrlField.optional() }).optional(),
  outputs: z.array(outputRecordSchema),
});

// The big arrays (outputs, manifest files) are checked record by record (parseDocument.ts): a plain
// predicate accepts the good ones, and only the others go through zod, for its issues. Zod copying
// 100,000 objects was most of the time of a large state; the document itself is the parsed value.
const recordsChecked = z.array(z.unknown());
/** The documents without their big arrays' records (checked by checkRecords), held to the predicates by stateSchema.test.ts. */
export const manifestShell = manifestSchema.extend({ files: recordsChecked });
export const stateShell = stateSchema.extend({ source: z.looseObject({ manifest: manifestShell }), outputs: recordsChecked });
