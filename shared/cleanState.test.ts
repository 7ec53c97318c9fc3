// The quick proof of a clean state (cleanState.ts) against the full checks it lets parseState skip:
// whatever the document, a yes from it must be exactly what the full checks answer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCleanState } from './cleanState';
import { checkState, parseJsonObject, parseState } from './parseDocument';
import { jsonSlots, sampleSha256, sampleState, type EditableJson } from './sampleDocuments';

/** A state as the bench and the publisher's copies write it: source outputs, each with its URL. */
function copiedState(files: number): EditableJson {
  const state: EditableJson = sampleState();
  state.source.manifest.files = Array.from({ length: files }, (_, i) => ({
    path: `page-${i}.html`,
    sha256: sampleSha256(i),
    size: 4096 + i,
  }));
  state.outputs = state.source.manifest.files.map((file: EditableJson) => ({
    path: file.path,
    kind: 'source',
    source_path: file.path,
    url: `https://bench.example.com/d1/${file.path}`,
    sha256: file.sha256,
    size: file.size,
  }));
  return state;
}

/** More outputs than files: several outputs of one source file, the manifest's other files not published. */
function fannedOutState(outputs: number, files: number): EditableJson {
  const state = copiedState(Math.max(1, files));
  state.outputs = Array.from({ length: outputs }, (_, i) => ({
    path: `out/${i}.html`,
    kind: 'generated',
    source_path: 'page-0.html',
    transform: 'markdown_to_html',
    sha256: sampleSha256(100 + i),
    size: i,
  }));
  return state;
}

/** What parseState would answer from the full checks alone. */
function fullVerdict(text: string) {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) return undefined;
  return { json: parsed.value.json, verdict: checkState(parsed.value.json, text) };
}

// Near misses of every rule the proof stands in for: case, device names, reserved and repeated paths,
// URLs at the edge of the plain pattern, timestamps, digests, sizes, colons inside values.
const nearValue = fc.oneof(
  fc.constantFrom(
    'page-0.html',
    'page-1.html',
    'Page-0.html',
    'con.html',
    'pages/aux',
    'a.',
    'a ',
    '.distributor.json',
    'manifest.json',
    'report.md',
    'x:y',
    ':',
    '',
    'https://bench.example.com:8080/a:b',
    'https://xn--a.example/',
    'http://1.2.3.4/',
    'https://a.b.1/',
    'HTTPS://Example.com/',
    'https://example.com/a b',
    'ftp://example.com/',
    '2026-06-04T12:00:00.123456789Z',
    '2026-06-04T14:00:00+02:00',
    '2026-02-30T00:00:00Z',
    sampleSha256(0),
    sampleSha256(7),
    'sha256:' + 'A'.repeat(64),
    'sha256:' + 'a'.repeat(63),
    'source',
    'generated',
    'markdown_to_html',
    'a:b:c',
    0,
    1,
    -1,
    1.5,
    2 ** 53,
    Number.MAX_SAFE_INTEGER,
    null,
    true,
    [],
    {},
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

const urls = [
  'https://bench.example.com/d1/page-0.html',
  'https://bench.example.com:8080/a:b',
  'https://xn--a.example/',
  'http://1.2.3.4/',
  'https://a.b.1/',
  'HTTPS://Example.com/',
  'https://example.com/a b',
  'ftp://example.com/',
];
const timestamps = [
  '2026-06-04T12:00:00Z',
  '2026-06-04T12:00:00.123456789Z',
  '2026-06-04T14:00:00+02:00',
  '2026-02-30T00:00:00Z',
  '2026-06-04',
];
const digests = [sampleSha256(0), sampleSha256(100), 'sha256:' + 'A'.repeat(64), 'sha256:' + 'a'.repeat(63), 'a:b'];
const ids = ['', 'a:b', 'reports', ':'];
/** For each known field, the values that sit at the edge of its rule. */
const nearByField: Record<string, unknown[]> = {
  path: [
    'page-0.html',
    'page-1.html',
    'Page-0.html',
    'con.html',
    'pages/aux',
    'a.',
    '.distributor.json',
    'manifest.json',
    'x:y',
    'out/0.html',
  ],
  kind: ['source', 'generated', 'Source'],
  source_path: ['page-0.html', 'page-1.html', 'report.md', 'Page-0.html', 'a:b', 'nope.md'],
  transform: ['markdown_to_html', '', 'a:b'],
  url: urls,
  primary_url: urls,
  sha256: digests,
  digest: digests,
  size: [0, 1, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, '1'],
  schema_version: [1, 2, '1'],
  id: ids,
  pipeline_id: ids,
  distributor_version: ids,
  created: timestamps,
  published_at: timestamps,
  files: [[], {}, null],
  outputs: [[], {}, null],
};

const valueEdit = fc.record({
  how: fc.constantFrom('set field', 'set field', 'set field', 'replace', 'unknown field', 'repeat element', 'drop element'),
  // Independent draws: which object or slot, which field, which near value.
  pick: fc.nat(),
  fieldPick: fc.nat(),
  valuePick: fc.nat(),
  value: nearValue,
});

type ValueEdit = { how: string; pick: number; fieldPick: number; valuePick: number; value: unknown };

function objectsIn(value: unknown, found: EditableJson[] = []): EditableJson[] {
  if (value !== null && typeof value === 'object') {
    if (!Array.isArray(value)) found.push(value as EditableJson);
    for (const child of Object.values(value)) objectsIn(child, found);
  }
  return found;
}

/** A known field of any object set to a value at the edge of its rule (or another), or deleted. */
function setField(state: EditableJson, { pick, fieldPick, valuePick }: ValueEdit, value: unknown): void {
  const objects = objectsIn(state);
  const target = objects[pick % objects.length]!;
  // Half the time one of the object's own fields, which reaches each record's rules more often.
  const own = Object.keys(target).filter((key) => key in nearByField);
  const fields = own.length > 0 && fieldPick % 2 === 0 ? own : Object.keys(nearByField);
  const field = fields[Math.floor(fieldPick / 2) % fields.length]!;
  const near = nearByField[field]!;
  const choice = valuePick % (near.length + 2);
  if (choice === near.length) delete target[field];
  else target[field] = choice < near.length ? structuredClone(near[choice]) : value;
}

function editValue(state: EditableJson, edit: ValueEdit): void {
  // A copy: fast-check hands the same constant object to every run.
  const value: unknown = structuredClone(edit.value);
  const { pick, how } = edit;
  if (how === 'set field') return setField(state, edit, value);
  const all = jsonSlots(state);
  const [container, key] = all[pick % all.length]!;
  const target = container[key];
  if (how === 'unknown field' && target !== null && typeof target === 'object' && !Array.isArray(target)) target.extra = value;
  else if (how === 'repeat element' && Array.isArray(target) && target.length > 0)
    target.push(JSON.parse(JSON.stringify(target[pick % target.length])));
  else if (how === 'drop element' && Array.isArray(target)) target.splice(pick % Math.max(1, target.length), 1);
  else container[key] = value;
}

// Edits of the text that JSON.parse forgets: a key written twice, a number written another way, an
// escape, spaces around a colon. The text is parsed again after them; one that is no longer JSON is
// left to the other tests.
const textEdit = fc.record({
  pick: fc.nat(),
  how: fc.constantFrom('repeat key', 'number form', 'escape', 'spaces'),
  form: fc.constantFrom('.0', 'e0', '0e-1', '-', 'E+0', '-0', '0.0', '1e-400', '0'),
  repeated: fc.constantFrom('"path":"page-0.html",', '"size":1,', '"size":1.0,', '"url":"a:b",', '"kind":"source",', '"extra":1,'),
});

function nth(text: string, pattern: RegExp, pick: number): RegExpExecArray | undefined {
  const found = [...text.matchAll(pattern)];
  return found.length === 0 ? undefined : found[pick % found.length];
}

function editText(text: string, edit: { pick: number; how: string; form: string; repeated: string }): string {
  const at = (match: RegExpExecArray | undefined, replace: (found: string) => string) =>
    match ? text.slice(0, match.index) + replace(match[0]) + text.slice(match.index + match[0].length) : text;
  switch (edit.how) {
    case 'repeat key':
      return at(nth(text, /\{\s*"/g, edit.pick), (found) => found.replace('{', `{${edit.repeated}`));
    case 'number form':
      return at(nth(text, /:\s*[0-9]+/g, edit.pick), (found) => {
        if (edit.form === '-') return found.replace(/[0-9]/, '-$&');
        // A whole new token: -0, 0.0 and 1e-400 all parse to 0, a valid size.
        if (/^-?[0-9]/.test(edit.form)) return found.replace(/[0-9]+/, edit.form);
        return `${found}${edit.form}`;
      });
    case 'escape':
      return at(nth(text, /[a-z]/g, edit.pick), (found) => `\\u00${found.charCodeAt(0).toString(16)}`);
    default:
      return at(nth(text, /:/g, edit.pick), () => ' : ');
  }
}

const layout = fc.constantFrom<(value: unknown) => string>(
  (value) => JSON.stringify(value),
  (value) => JSON.stringify(value, null, 2),
  (value) => `${JSON.stringify(value, null, '\t')}\n`,
  (value) => JSON.stringify(value, null, 2).replace(/\n\s*/g, '\r\n '),
);

const documentText = fc
  .record({
    base: fc.oneof(
      fc.nat({ max: 12 }).map((files) => copiedState(files)),
      fc.tuple(fc.nat({ max: 5 }), fc.nat({ max: 4 })).map(([outputs, files]) => fannedOutState(outputs, files)),
      fc.nat({ max: 4 }).map((extraFiles) => sampleState({ extraFiles }) as EditableJson),
    ),
    // Mostly one edit, so that a document is often clean but for the one rule it tests.
    values: fc.oneof({ arbitrary: fc.array(valueEdit, { minLength: 1, maxLength: 1 }), weight: 3 }, fc.array(valueEdit, { maxLength: 3 })),
    write: layout,
    texts: fc.oneof({ arbitrary: fc.constant([]), weight: 2 }, fc.array(textEdit, { maxLength: 2 })),
  })
  .map(({ base, values, write, texts }) => {
    for (const edit of values) editValue(base, edit);
    let text = write(base);
    for (const edit of texts) text = editText(text, edit);
    return text;
  });

describe('the quick proof of a clean state', () => {
  it('says yes only where the full checks find nothing, and parseState then answers just what they do', () => {
    const seen = { proven: 0, managedWithout: 0, withIssues: 0 };
    fc.assert(
      fc.property(documentText, (text) => {
        const full = fullVerdict(text);
        if (!full) return;
        const { json, verdict } = full;
        const proven = isCleanState(json, text);
        if (proven) {
          seen.proven++;
          expect(verdict).toEqual({ status: 'managed', state: json, json, issues: [] });
        } else if (verdict.status === 'managed' && verdict.issues.length === 0) seen.managedWithout++;
        else seen.withIssues++;
        expect(parseState(text)).toEqual(verdict);
      }),
      { numRuns: 2000 },
    );
    // Every side was reached, so neither half of the property holds by default.
    expect(seen.proven).toBeGreaterThan(200);
    expect(seen.withIssues).toBeGreaterThan(200);
    expect(seen.managedWithout).toBeGreaterThan(10);
  });

  it('proves the states the bench, the publisher and the inspector write, however they are spaced', () => {
    for (const state of [copiedState(10), copiedState(0), sampleState({ extraFiles: 3 })]) {
      for (const text of [
        JSON.stringify(state),
        `${JSON.stringify(state, null, 2)}\n`,
        JSON.stringify(state, null, 2).replace(/":/g, '" :'),
      ])
        expect(isCleanState(JSON.parse(text) as Record<string, unknown>, text), text).toBe(true);
    }
  });

  it.each([
    ['a key written twice with the same value', (text: string) => text.replace('{', '{"pipeline_id":"reports",'), 'duplicate_key'],
    ['a size written as 4096.0', (text: string) => text.replace('"size":4096', '"size":4096.0'), 'size_not_integer_literal'],
    ['a size written as 4.096e3', (text: string) => text.replace('"size":4096', '"size":4.096e3'), 'size_not_integer_literal'],
    ['an unknown field', (text: string) => text.replace('{', '{"extra":1,'), 'unknown_field'],
    [
      'an unknown field in a copied output',
      (text: string) => text.replace('"kind":"source"', '"kind":"source","extra":"x"'),
      'unknown_field',
    ],
    ['an unknown field beside the primary URL', (text: string) => text.replace('"links":{', '"links":{"extra":1,'), 'unknown_field'],
    [
      'a key written twice in a copied output',
      (text: string) => text.replace('"kind":"source"', '"kind":"source","kind":"source"'),
      'duplicate_key',
    ],
    [
      "an output at the state file's own path",
      (text: string) => text.replace('"path":"page-1.html","kind"', '"path":".distributor.json","kind"'),
      'reserved_path',
    ],
    [
      'a manifest file named manifest.json',
      (text: string) => text.replace('"files":[', '"files":[{"path":"manifest.json","sha256":"sha256:' + '0'.repeat(64) + '","size":1},'),
      'reserved_path',
    ],
    [
      'a transform on a copied output',
      (text: string) => text.replace('"kind":"source"', '"kind":"source","transform":"x"'),
      'unexpected_transform',
    ],
    [
      'an output path only differing by case',
      (text: string) => text.replace('"path":"page-1.html","kind"', '"path":"Page-0.html","kind"'),
      'case_collision',
    ],
  ])('leaves %s to the full checks, which report it', (_, edit, code) => {
    const text = edit(JSON.stringify(copiedState(3)));
    const parsed = parseJsonObject(text);
    if (!parsed.ok) throw new Error('the edit keeps the text JSON');
    expect(isCleanState(parsed.value.json, text)).toBe(false);
    expect(parseState(text).issues.map((issue) => issue.code)).toContain(code);
  });

  it("leaves an output without a digest, past the manifest's files, to the full checks", () => {
    const state = fannedOutState(3, 1);
    delete state.outputs[2].sha256;
    const text = JSON.stringify(state);
    expect(isCleanState(JSON.parse(text) as Record<string, unknown>, text)).toBe(false);
    expect(parseState(text).issues.map((issue) => issue.code)).toContain('missing_field');
  });

  it('leaves a text with an escape to the full checks, though its value is clean', () => {
    const text = JSON.stringify(copiedState(2)).replace('"reports"', '"\\u0072eports"');
    const parsed = parseJsonObject(text);
    if (!parsed.ok) throw new Error('an escape keeps the text JSON');
    expect(isCleanState(parsed.value.json, text)).toBe(false);
    expect(parseState(text)).toEqual({ status: 'managed', state: parsed.value.json, json: parsed.value.json, issues: [] });
  });
});
