// recordCodes must name exactly the issues zod gives a record, or the counts past the cap would lie.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manifestFileSchema, outputRecordSchema } from './documentSchemas';
import { manifestFileCodes, outputRecordCodes, type RecordCode } from './recordCodes';
import { fromZodIssues } from './zodIssues';
import type { z } from 'zod';

function zodCodes(schema: z.ZodType, value: unknown): RecordCode[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return fromZodIssues(result.error.issues, [value], [0]).map((issue) =>
    issue.path.length > 1 ? { key: String(issue.path[1]), code: issue.code } : { code: issue.code },
  );
}

// Nearly right values find the disagreements: edge numbers, near-paths, near-hashes, wrong types.
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.constantFrom(
    '',
    '..',
    'a//b',
    'a/../b',
    'report.html',
    'pages/a b.html',
    'source',
    'generated',
    'markdown_to_html',
    'https://example.com/a',
    'ftp://example.com/a',
    'http:/x',
    'sha256:' + 'a'.repeat(64),
    'sha256:' + 'A'.repeat(64),
    0,
    -0,
    -1,
    1.5,
    2 ** 53,
    2 ** 53 - 1,
    Infinity,
    -Infinity,
    null,
    undefined,
    [],
    { length: 0 },
    { length: 'x' },
  ),
);

function record(keys: readonly string[]) {
  return fc.dictionary(fc.constantFrom(...keys, 'extra'), fieldValue, { maxKeys: keys.length + 1 });
}

const OUTPUT_KEYS = ['path', 'kind', 'source_path', 'transform', 'url', 'sha256', 'size'];
const FILE_KEYS = ['path', 'sha256', 'size'];

describe('recordCodes', () => {
  it('names the same fields and codes as outputRecordSchema, in the same order, for any record', () => {
    fc.assert(
      fc.property(fc.oneof(record(OUTPUT_KEYS), fieldValue), (value) => {
        expect(outputRecordCodes(value)).toEqual(zodCodes(outputRecordSchema, value));
      }),
      { numRuns: 3000 },
    );
  });

  it('names the same fields and codes as manifestFileSchema, in the same order, for any record', () => {
    fc.assert(
      fc.property(fc.oneof(record(FILE_KEYS), fieldValue), (value) => {
        expect(manifestFileCodes(value)).toEqual(zodCodes(manifestFileSchema, value));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds nothing in a valid record', () => {
    const valid = { path: 'a.html', kind: 'source', source_path: 'a.html', sha256: 'sha256:' + '0'.repeat(64), size: 3 };
    expect(outputRecordCodes(valid)).toEqual([]);
    expect(manifestFileCodes(valid)).toEqual([]);
  });
});
