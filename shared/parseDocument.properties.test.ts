// Property tests of the parsers: they never throw, and their verdict is exactly the contract's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasErrors } from './issues';
import { manifestSchema, stateSchema } from './documentSchemas';
import { parseManifest, parseState } from './parseDocument';
import { jsonSlots, sampleManifest, sampleState } from './sampleDocuments';

type Json = Record<string | number, unknown>;

// Values that are nearly right are the ones that find bugs: wrong types, edge numbers, near-paths.
const replacement = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    '',
    '..',
    'a//b',
    '/etc/passwd',
    '.distributor.json',
    'manifest.json',
    'REPORT.html',
    'report.md',
    'report.html',
    'sha256:' + 'A'.repeat(64),
    'sha256:' + 'a'.repeat(64),
    '2026-02-30T00:00:00Z',
    '2026-06-04T12:00:00.000000001Z',
    'https://example.com/x',
    'ftp://example.com',
    'source',
    'generated',
    'markdown_to_html',
    -1,
    1.5,
    2 ** 53,
    Number.MAX_SAFE_INTEGER,
    0,
    1,
    null,
    true,
    [],
    {},
  ),
);

const mutation = fc.record({ pick: fc.nat(), remove: fc.boolean(), value: replacement });

/** A valid state with a few fields deleted or replaced anywhere in it. */
const mutatedState = fc.array(mutation, { minLength: 1, maxLength: 4 }).map((mutations) => {
  const state: Json = sampleState({ extraFiles: 3 });
  for (const { pick, remove, value } of mutations) {
    const all = jsonSlots(state);
    const [container, key] = all[pick % all.length] as [Json, string | number];
    if (remove && !Array.isArray(container)) delete container[key];
    else container[key] = value;
  }
  return state;
});

const mutatedManifest = fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
  const manifest: Json = sampleManifest({ extraFiles: 3 });
  for (const { pick, remove, value } of mutations) {
    const all = jsonSlots(manifest);
    const [container, key] = all[pick % all.length] as [Json, string | number];
    if (remove && !Array.isArray(container)) delete container[key];
    else container[key] = value;
  }
  return manifest;
});

function expectWellFormed(parsed: ReturnType<typeof parseState>): void {
  expect(parsed.status === 'managed').toBe(!hasErrors(parsed.issues));
  for (const issue of parsed.issues) {
    expect(Array.isArray(issue.path)).toBe(true);
    expect(issue.path.every((key) => typeof key === 'string' || typeof key === 'number')).toBe(true);
    expect(issue.code).toMatch(/^[a-z0-9_]+$/);
    expect(issue.message.length).toBeGreaterThan(0);
    expect(['error', 'warning']).toContain(issue.severity);
  }
}

describe('parseState never throws and means what it says', () => {
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => expectWellFormed(parseState(text))),
      { numRuns: 1000 },
    );
  });

  it('on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => expectWellFormed(parseState(bytes))),
      { numRuns: 1000 },
    );
  });

  it('on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => expectWellFormed(parseState(JSON.stringify(value) ?? ''))),
      { numRuns: 500 },
    );
  });

  it('on valid states with fields deleted or replaced at random, and is managed iff it has no error', () => {
    const statuses = new Set<string>();
    fc.assert(
      fc.property(mutatedState, (state) => {
        const text = JSON.stringify(state);
        const parsed = parseState(text);
        expectWellFormed(parsed);
        statuses.add(parsed.status);
        // The fast path never accepts what the whole zod schema refuses: every shape problem zod finds is reported.
        expect(parsed.status === 'managed' && !stateSchema.safeParse(JSON.parse(text)).success).toBe(false);
      }),
      { numRuns: 1000 },
    );
    // Both verdicts were reached, so neither half of the property holds by default.
    expect([...statuses].sort()).toEqual(['invalid', 'managed']);
  });

  it('on valid states cut short at any byte', () => {
    const bytes = new TextEncoder().encode(JSON.stringify(sampleState({ extraFiles: 1 })));
    fc.assert(
      fc.property(fc.nat({ max: bytes.length - 1 }), (end) => {
        expect(parseState(bytes.subarray(0, end)).status).toBe('invalid');
      }),
    );
  });
});

describe('parseManifest agrees with the manifest schema', () => {
  it('on valid manifests with fields deleted or replaced at random', () => {
    const verdicts = new Set<boolean>();
    fc.assert(
      fc.property(mutatedManifest, (manifest) => {
        const text = JSON.stringify(manifest);
        const parsed = parseManifest(text);
        verdicts.add(parsed.ok);
        expect(parsed.ok).toBe(!hasErrors(parsed.issues));
        // Never accepts what the whole zod schema refuses.
        expect(parsed.ok && !manifestSchema.safeParse(JSON.parse(text)).success).toBe(false);
      }),
      { numRuns: 1000 },
    );
    expect([...verdicts].sort()).toEqual([false, true]);
  });
});
