import { describe, expect, it } from 'vitest';
import type { Issue } from './issues';
import { parseJsonObject, parseManifest, parseState, validateManifest } from './parseDocument';
import { MORE_LIKE_THIS } from './issueCap';
import { countIssues } from './issues';
import { sampleBadOutputsStateText, sampleManifest, sampleSha256, sampleState, type EditableJson as Json } from './sampleDocuments';

function stateWith(change: (state: Json) => void): string {
  const state: Json = sampleState({ extraFiles: 2 });
  change(state);
  return JSON.stringify(state);
}

const errorsOf = (issues: Issue[]) => issues.filter((issue) => issue.severity === 'error');
const brief = (issues: Issue[]) => issues.map((issue) => ({ path: issue.path, code: issue.code, severity: issue.severity }));

describe('parseState: the state file, schema 1', () => {
  it('accepts the contract example, made valid, with no issues', () => {
    const parsed = parseState(stateWith(() => {}));
    expect(parsed.status).toBe('managed');
    expect(parsed.issues).toEqual([]);
    expect(parsed.status === 'managed' && parsed.state.outputs[0]?.path).toBe('report.html');
  });

  it.each<[string, (state: Json) => void]>([
    ['no distributor_version', (s) => delete s.distributor_version],
    ['no links', (s) => delete s.links],
    ['links without primary_url', (s) => (s.links = {})],
    ['empty outputs', (s) => (s.outputs = [])],
    [
      'a source output without transform',
      (s) => (s.outputs[0] = { path: 'report.md', kind: 'source', source_path: 'report.md', sha256: sampleSha256(9), size: 0 }),
    ],
    ['an output without url', (s) => delete s.outputs[0].url],
    ['an output of size 2^53-1', (s) => (s.outputs[0].size = Number.MAX_SAFE_INTEGER)],
    ['a nanosecond published_at at an offset', (s) => (s.published_at = '2026-06-04T14:00:00.123456789+02:00')],
    ['an empty manifest file list and no outputs', (s) => ((s.source.manifest.files = []), (s.outputs = []))],
    ['two outputs from one source file', (s) => s.outputs.push({ ...s.outputs[0], path: 'report-copy.html' })],
    ['a transform other than markdown_to_html (the publisher may be newer)', (s) => (s.outputs[0].transform = 'minify')],
    [
      'non-ASCII ids and paths',
      (s) => ((s.pipeline_id = 'rapports-été'), (s.source.manifest.files[0].path = 'été.md'), (s.outputs[0].source_path = 'été.md')),
    ],
  ])('accepts %s', (_, change) => {
    const parsed = parseState(stateWith(change));
    expect(brief(parsed.issues)).toEqual([]);
    expect(parsed.status).toBe('managed');
  });

  it.each<[string, (state: Json) => void, (string | number)[], string]>([
    ['schema_version missing', (s) => delete s.schema_version, ['schema_version'], 'missing_field'],
    ['schema_version as a string', (s) => (s.schema_version = '1'), ['schema_version'], 'invalid_value'],
    ['schema_version 2', (s) => (s.schema_version = 2), ['schema_version'], 'invalid_value'],
    ['pipeline_id missing', (s) => delete s.pipeline_id, ['pipeline_id'], 'missing_field'],
    ['pipeline_id empty', (s) => (s.pipeline_id = ''), ['pipeline_id'], 'too_small'],
    ['destination_id a number', (s) => (s.destination_id = 7), ['destination_id'], 'invalid_type'],
    ['distributor_version a number', (s) => (s.distributor_version = 1), ['distributor_version'], 'invalid_type'],
    ['published_at missing', (s) => delete s.published_at, ['published_at'], 'missing_field'],
    ['published_at on 30 February', (s) => (s.published_at = '2026-02-30T12:00:00Z'), ['published_at'], 'invalid_timestamp'],
    ['published_at without offset', (s) => (s.published_at = '2026-06-04T12:00:00'), ['published_at'], 'invalid_timestamp'],
    ['source missing', (s) => delete s.source, ['source'], 'missing_field'],
    ['source.manifest missing', (s) => (s.source = {}), ['source', 'manifest'], 'missing_field'],
    ['links a string', (s) => (s.links = 'https://example.com'), ['links'], 'invalid_type'],
    ['links.primary_url relative', (s) => (s.links.primary_url = 'report.html'), ['links', 'primary_url'], 'invalid_url'],
    ['links.primary_url ftp', (s) => (s.links.primary_url = 'ftp://example.com/report.html'), ['links', 'primary_url'], 'invalid_url'],
    ['outputs missing', (s) => delete s.outputs, ['outputs'], 'missing_field'],
    ['outputs an object', (s) => (s.outputs = {}), ['outputs'], 'invalid_type'],
    ['an output that is a number', (s) => (s.outputs[1] = 5), ['outputs', 1], 'invalid_type'],
    ['an output path with ".."', (s) => (s.outputs[0].path = '../report.html'), ['outputs', 0, 'path'], 'unclean_path'],
    ['an output path missing', (s) => delete s.outputs[0].path, ['outputs', 0, 'path'], 'missing_field'],
    ['an output kind "copy"', (s) => (s.outputs[0].kind = 'copy'), ['outputs', 0, 'kind'], 'invalid_value'],
    ['an output kind missing', (s) => delete s.outputs[0].kind, ['outputs', 0, 'kind'], 'missing_field'],
    ['a generated output without transform', (s) => delete s.outputs[1].transform, ['outputs', 1, 'transform'], 'missing_transform'],
    ['a source output with a transform', (s) => (s.outputs[0].kind = 'source'), ['outputs', 0, 'transform'], 'unexpected_transform'],
    ['an empty transform', (s) => (s.outputs[0].transform = ''), ['outputs', 0, 'transform'], 'too_small'],
    ['an output url that is relative', (s) => (s.outputs[0].url = 'archive/report.html'), ['outputs', 0, 'url'], 'invalid_url'],
    ['an output url with a mailto scheme', (s) => (s.outputs[0].url = 'mailto:a@example.com'), ['outputs', 0, 'url'], 'invalid_url'],
    ['an uppercase sha256', (s) => (s.outputs[0].sha256 = sampleSha256(1).toUpperCase()), ['outputs', 0, 'sha256'], 'invalid_sha256'],
    ['a short sha256', (s) => (s.outputs[0].sha256 = 'sha256:abc'), ['outputs', 0, 'sha256'], 'invalid_sha256'],
    ['a sha256 without prefix', (s) => (s.outputs[0].sha256 = sampleSha256(1).slice(7)), ['outputs', 0, 'sha256'], 'invalid_sha256'],
    ['a size of 1.5', (s) => (s.outputs[0].size = 1.5), ['outputs', 0, 'size'], 'not_integer'],
    ['a size of -1', (s) => (s.outputs[0].size = -1), ['outputs', 0, 'size'], 'negative_size'],
    ['a size of 2^53', (s) => (s.outputs[0].size = 2 ** 53), ['outputs', 0, 'size'], 'size_too_large'],
    ['a size as a string', (s) => (s.outputs[0].size = '12'), ['outputs', 0, 'size'], 'invalid_type'],
    [
      'a source_path not in the manifest',
      (s) => (s.outputs[2].source_path = 'other.md'),
      ['outputs', 2, 'source_path'],
      'unknown_source_path',
    ],
    ['a source_path that is not clean', (s) => (s.outputs[0].source_path = '/report.md'), ['outputs', 0, 'source_path'], 'unclean_path'],
    ['two outputs with one path', (s) => (s.outputs[2].path = s.outputs[0].path), ['outputs', 2, 'path'], 'duplicate_path'],
    ['an output named .distributor.json', (s) => (s.outputs[0].path = '.distributor.json'), ['outputs', 0, 'path'], 'reserved_path'],
    [
      'an embedded manifest with schema_version 2',
      (s) => (s.source.manifest.schema_version = 2),
      ['source', 'manifest', 'schema_version'],
      'invalid_value',
    ],
    ['an embedded manifest with an empty id', (s) => (s.source.manifest.id = ''), ['source', 'manifest', 'id'], 'too_small'],
    [
      'an embedded manifest digest in uppercase',
      (s) => (s.source.manifest.digest = sampleSha256(3).toUpperCase()),
      ['source', 'manifest', 'digest'],
      'invalid_sha256',
    ],
    [
      'an embedded manifest created in month 13',
      (s) => (s.source.manifest.created = '2026-13-04T11:55:00Z'),
      ['source', 'manifest', 'created'],
      'invalid_timestamp',
    ],
    ['an embedded manifest without files', (s) => delete s.source.manifest.files, ['source', 'manifest', 'files'], 'missing_field'],
    [
      'an embedded manifest file with a bad size',
      (s) => (s.source.manifest.files[1].size = -3),
      ['source', 'manifest', 'files', 1, 'size'],
      'negative_size',
    ],
    [
      'an embedded manifest listing manifest.json',
      (s) => (s.source.manifest.files[1].path = 'manifest.json'),
      ['source', 'manifest', 'files', 1, 'path'],
      'reserved_path',
    ],
    [
      'an embedded manifest listing a file twice',
      (s) => s.source.manifest.files.push({ ...s.source.manifest.files[0] }),
      ['source', 'manifest', 'files', 3, 'path'],
      'duplicate_path',
    ],
  ])('refuses %s', (_, change, path, code) => {
    const parsed = parseState(stateWith(change));
    expect(parsed.status).toBe('invalid');
    expect(brief(errorsOf(parsed.issues))).toContainEqual({ path, code, severity: 'error' });
  });

  it('names the field in every message', () => {
    const parsed = parseState(stateWith((s) => ((s.outputs[0].size = -1), delete s.pipeline_id, (s.outputs[1].kind = 'copy'))));
    const messages = parsed.issues.map((issue) => issue.message);
    expect(messages).toContain('required field "pipeline_id" is missing');
    expect(messages).toContain('"size" must be 0 or more, not -1');
    expect(messages).toContain('"kind" must be "source" or "generated", not the string "copy"');
  });

  it('reports every problem of one file in one read, errors first, in document order', () => {
    const parsed = parseState(
      stateWith((s) => {
        s.outputs[2].sha256 = 'x';
        s.outputs[0].size = 1.5;
        s.outputs[1].path = s.outputs[0].path;
        s.extra = true;
      }),
    );
    expect(brief(parsed.issues)).toEqual([
      { path: ['outputs', 0, 'size'], code: 'not_integer', severity: 'error' },
      { path: ['outputs', 1, 'path'], code: 'duplicate_path', severity: 'error' },
      { path: ['outputs', 2, 'sha256'], code: 'invalid_sha256', severity: 'error' },
      { path: ['extra'], code: 'unknown_field', severity: 'warning' },
    ]);
  });

  it('orders issue paths by index as numbers: outputs[2] before outputs[10]', () => {
    const parsed = parseState(
      stateWith((s) => {
        for (let i = 0; i < 12; i++) s.outputs.push({ ...s.outputs[0], path: `p${i}.html`, size: -1 });
      }),
    );
    const indexes = parsed.issues.map((issue) => issue.path[1]);
    expect(indexes).toEqual([...indexes].sort((a, b) => Number(a) - Number(b)));
  });

  it('keeps unknown fields everywhere and reports each as a warning, not an error', () => {
    const parsed = parseState(
      stateWith((s) => {
        s.signature = 'x';
        s.source.origin = 'git';
        s.links.secondary_url = 'https://example.com';
        s.outputs[0].mode = 420;
        s.source.manifest.generator = 'make';
        s.source.manifest.files[0].mtime = 1;
      }),
    );
    expect(parsed.status).toBe('managed');
    expect(brief(parsed.issues)).toEqual(
      [
        { path: ['signature'], code: 'unknown_field', severity: 'warning' },
        { path: ['source', 'origin'], code: 'unknown_field', severity: 'warning' },
        { path: ['source', 'manifest', 'generator'], code: 'unknown_field', severity: 'warning' },
        { path: ['source', 'manifest', 'files', 0, 'mtime'], code: 'unknown_field', severity: 'warning' },
        { path: ['links', 'secondary_url'], code: 'unknown_field', severity: 'warning' },
        { path: ['outputs', 0, 'mode'], code: 'unknown_field', severity: 'warning' },
      ].sort((a, b) => (JSON.stringify(a.path) < JSON.stringify(b.path) ? -1 : 1)),
    );
    expect(parsed.status === 'managed' && (parsed.state as Json).outputs[0].mode).toBe(420);
  });

  it('warns, without refusing, about output paths that differ only by letter case', () => {
    const parsed = parseState(stateWith((s) => (s.outputs[2].path = 'REPORT.html')));
    expect(parsed.status).toBe('managed');
    expect(brief(parsed.issues)).toEqual([{ path: ['outputs', 2, 'path'], code: 'case_collision', severity: 'warning' }]);
    expect(parsed.issues[0]?.message).toContain('"REPORT.html" and "report.html" (index 0)');
  });

  it('warns about an output named like the state file but for case, and refuses the exact name', () => {
    expect(brief(parseState(stateWith((s) => (s.outputs[0].path = '.Distributor.JSON'))).issues)).toEqual([
      { path: ['outputs', 0, 'path'], code: 'case_collision', severity: 'warning' },
    ]);
    const exact = parseState(stateWith((s) => (s.outputs[0].path = '.distributor.json')));
    expect(exact.status).toBe('invalid');
    // Only the top-level name is the state file's; one in a folder is an ordinary output.
    expect(parseState(stateWith((s) => (s.outputs[0].path = 'sub/.distributor.json'))).status).toBe('managed');
  });

  it('tells a byte-for-byte duplicate from a case collision, whichever comes first', () => {
    const parsed = parseState(
      stateWith((s) => {
        s.outputs[1].path = 'A.html';
        s.outputs[2].path = 'a.html';
        s.outputs.push({ ...s.outputs[0], path: 'a.html' });
      }),
    );
    expect(brief(parsed.issues)).toEqual([
      { path: ['outputs', 3, 'path'], code: 'duplicate_path', severity: 'error' },
      { path: ['outputs', 2, 'path'], code: 'case_collision', severity: 'warning' },
    ]);
    expect(parsed.issues[0]?.message).toContain('also at index 2');
  });

  it('accepts the contract\'s "..." and " " segments and warns they are not portable to Windows, never refusing', () => {
    const parsed = parseState(
      stateWith((s) => {
        s.outputs[1].path = 'notes/.../report.html';
        s.outputs[2].path = 'docs/ /report.html';
      }),
    );
    expect(parsed.status).toBe('managed');
    expect(brief(parsed.issues)).toEqual([
      { path: ['outputs', 1, 'path'], code: 'not_portable', severity: 'warning' },
      { path: ['outputs', 2, 'path'], code: 'not_portable', severity: 'warning' },
    ]);
    expect(parsed.issues[0]?.message).toContain('"..."');
  });

  it('calls composed and decomposed accents a Unicode normalization collision, not a letter case one', () => {
    const parsed = parseState(
      stateWith((s) => {
        s.outputs[1].path = 'caf\u00e9.html';
        s.outputs[2].path = 'cafe\u0301.html';
      }),
    );
    expect(parsed.status).toBe('managed');
    expect(brief(parsed.issues)).toEqual([{ path: ['outputs', 2, 'path'], code: 'normalization_collision', severity: 'warning' }]);
    expect(parsed.issues[0]?.message).toBe(
      'output path "cafe\u0301.html" and "caf\u00e9.html" (index 1) are one name in two Unicode normalization forms (U+0065 U+0301 in the one, U+00E9 in the other): they collide on macOS, which treats canonically equivalent names as the same',
    );
    expect(parsed.issues[0]?.message).not.toContain('letter case');
  });

  it('calls the Kelvin sign beside the letter K a normalization collision, and beside k both kinds', () => {
    const kelvin = parseState(
      stateWith((s) => {
        s.outputs[1].path = 'K.html';
        s.outputs[2].path = '\u212a.html';
      }),
    );
    expect(brief(kelvin.issues)).toEqual([{ path: ['outputs', 2, 'path'], code: 'normalization_collision', severity: 'warning' }]);
    expect(kelvin.issues[0]?.message).toContain('(U+212A in the one, U+004B in the other)');
    const lower = parseState(
      stateWith((s) => {
        s.outputs[1].path = 'k.html';
        s.outputs[2].path = '\u212a.html';
      }),
    );
    expect(brief(lower.issues)).toEqual([{ path: ['outputs', 2, 'path'], code: 'case_collision', severity: 'warning' }]);
    expect(lower.issues[0]?.message).toBe(
      'output path "\u212a.html" and "k.html" (index 1) differ by letter case and Unicode normalization (U+212A in the one, U+006B in the other): they collide on macOS, which ignores case and treats canonically equivalent names as the same',
    );
  });

  it('still calls a plain letter case difference letter case', () => {
    const parsed = parseState(stateWith((s) => (s.outputs[2].path = String(s.outputs[1].path).toUpperCase())));
    expect(parsed.issues[0]?.message).toMatch(/differ only by letter case: they collide on macOS and Windows$/);
  });
});

describe('parseState: the bytes of the file', () => {
  const valid = stateWith(() => {});

  it('accepts UTF-8 bytes and text alike', () => {
    expect(parseState(new TextEncoder().encode(valid)).status).toBe('managed');
    expect(parseState(valid).status).toBe('managed');
  });

  it.each<[string, Uint8Array | string, string]>([
    ['bytes that are not UTF-8', Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]), 'not_utf8'],
    ['an overlong UTF-8 encoding', Uint8Array.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), 'not_utf8'],
    ['an empty file', new Uint8Array(0), 'empty_file'],
    ['a file of whitespace', ' \n\t', 'empty_file'],
    ['a byte order mark', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(valid)]), 'invalid_json'],
    ['invalid JSON', '{"schema_version": 1,', 'invalid_json'],
    ['trailing garbage', `${valid} x`, 'invalid_json'],
    ['a top-level array', '[]', 'not_object'],
    ['a top-level null', 'null', 'not_object'],
    ['a top-level string', '"state"', 'not_object'],
    ['a top-level number', '1', 'not_object'],
  ])('refuses %s as invalid state', (_, input, code) => {
    const parsed = parseState(input);
    expect(parsed.status).toBe('invalid');
    expect(brief(parsed.issues)).toEqual([{ path: [], code, severity: 'error' }]);
    expect(parsed.json).toBeUndefined();
  });

  it('says why a byte order mark is refused', () => {
    const result = parseJsonObject(`\ufeff${valid}`);
    expect(!result.ok && result.error.message).toContain('byte order mark');
  });

  it('gives the decoded text beside the object, as the rules that read how values are written need it', () => {
    const bytes = new TextEncoder().encode('{"size": 12.0, "name": "é"}');
    expect(parseJsonObject(bytes)).toEqual({ ok: true, value: { json: { size: 12, name: 'é' }, text: '{"size": 12.0, "name": "é"}' } });
  });

  it('keeps the parsed JSON of an invalid state, for the raw view', () => {
    const parsed = parseState('{"schema_version": 2}');
    expect(parsed.json).toEqual({ schema_version: 2 });
  });

  it('takes a "__proto__" key as an unknown field, without touching any prototype', () => {
    const parsed = parseState(stateWith(() => {}).replace(/^\{/, '{"__proto__": {"polluted": true},'));
    expect(parsed.status).toBe('managed');
    expect(brief(parsed.issues)).toEqual([{ path: ['__proto__'], code: 'unknown_field', severity: 'warning' }]);
    expect(({} as Json).polluted).toBeUndefined();
  });
});

describe('parseState: how sizes and keys are written in the text', () => {
  /** The sample state as text, with the first output's size written as `literal`. */
  const withSizeWritten = (literal: string, at: 'output' | 'file' = 'output') => {
    const state = sampleState({ extraFiles: 1 });
    const record = at === 'output' ? state.outputs[0]! : state.source.manifest.files[0]!;
    record.size = 777_777;
    return JSON.stringify(state, null, 2).replace('777777', literal);
  };

  it.each(['12.0', '1e0', '1.2e1', '-0', '1e-400', '4503599627370497.5', '1E3', '0.0'])(
    'refuses an output size written as %s, which JSON.parse would have turned into a whole number',
    (literal) => {
      const parsed = parseState(withSizeWritten(literal));
      expect(parsed.status).toBe('invalid');
      expect(brief(parsed.issues)).toEqual([{ path: ['outputs', 0, 'size'], code: 'size_not_integer_literal', severity: 'error' }]);
      expect(parsed.issues[0]!.message).toContain(`not ${literal}`);
    },
  );

  it('refuses a manifest file size written as 1.0 inside the state too', () => {
    const parsed = parseState(withSizeWritten('1.0', 'file'));
    expect(brief(parsed.issues)).toEqual([
      { path: ['source', 'manifest', 'files', 0, 'size'], code: 'size_not_integer_literal', severity: 'error' },
    ]);
  });

  it('gives a size of 1.5 or -1 its one issue from the size rule, not a second one', () => {
    expect(brief(parseState(withSizeWritten('1.5')).issues).map((issue) => issue.code)).toEqual(['not_integer']);
    expect(brief(parseState(withSizeWritten('-1')).issues).map((issue) => issue.code)).toEqual(['negative_size']);
  });

  it('accepts sizes written as plain integers, and any spelling of numbers elsewhere (unknown fields)', () => {
    const state: Json = sampleState({ extraFiles: 1 });
    state.outputs[0].size = 0;
    state.build = { seconds: 12.5 };
    const text = JSON.stringify(state).replace('"seconds":12.5', '"seconds":1.25e1');
    const parsed = parseState(text);
    expect(parsed.status).toBe('managed');
    expect(parsed.issues.map((issue) => issue.code)).toEqual(['unknown_field']);
  });

  it('warns about a key written twice in one object, at its path, and keeps the last value as the publisher does', () => {
    const text = stateWith(() => {}).replace('"pipeline_id":"reports"', '"pipeline_id":"old","pipeline_id":"reports"');
    const parsed = parseState(text);
    expect(parsed.status).toBe('managed');
    expect(brief(parsed.issues)).toEqual([{ path: ['pipeline_id'], code: 'duplicate_key', severity: 'warning' }]);
    expect(parsed.issues[0]!.message).toBe(
      'the key "pipeline_id" appears twice in this object: only the last one counts, as in the publisher\'s decoder',
    );
    if (parsed.status === 'managed') expect(parsed.state.pipeline_id).toBe('reports');
  });

  it('warns about a key repeated inside an output record, with the record in the path', () => {
    const text = stateWith(() => {}).replace('"kind":"generated"', '"kind":"generated","kind":"generated","kind":"generated"');
    expect(brief(parseState(text).issues)).toEqual([{ path: ['outputs', 0, 'kind'], code: 'duplicate_key', severity: 'warning' }]);
    expect(parseState(text).issues[0]!.message).toContain('appears 3 times');
  });
});

describe('parseManifest: how sizes and keys are written in the text', () => {
  it('refuses a file size written as 1e0 and warns about a repeated key', () => {
    const manifest = sampleManifest();
    manifest.files[0]!.size = 777_777;
    const text = JSON.stringify(manifest).replace('777777', '1e0').replace('"id":', '"id":"x","id":');
    const parsed = parseManifest(text);
    expect(parsed.ok).toBe(false);
    expect(brief(parsed.issues)).toEqual([
      { path: ['files', 0, 'size'], code: 'size_not_integer_literal', severity: 'error' },
      { path: ['id'], code: 'duplicate_key', severity: 'warning' },
    ]);
  });
});

describe('parseManifest: the source manifest, schema 1', () => {
  const manifestWith = (change: (m: Json) => void) => {
    const manifest: Json = sampleManifest({ extraFiles: 2 });
    change(manifest);
    return JSON.stringify(manifest);
  };

  it('accepts a valid manifest, also with no files', () => {
    expect(parseManifest(manifestWith(() => {}))).toMatchObject({ ok: true, issues: [] });
    expect(parseManifest(manifestWith((m) => (m.files = [])))).toMatchObject({ ok: true, issues: [] });
  });

  it.each<[string, (m: Json) => void, (string | number)[], string]>([
    ['schema_version 2', (m) => (m.schema_version = 2), ['schema_version'], 'invalid_value'],
    ['an id missing', (m) => delete m.id, ['id'], 'missing_field'],
    ['an empty id', (m) => (m.id = ''), ['id'], 'too_small'],
    ['a digest of another form', (m) => (m.digest = 'md5:abc'), ['digest'], 'invalid_sha256'],
    ['created on 31 April', (m) => (m.created = '2026-04-31T00:00:00Z'), ['created'], 'invalid_timestamp'],
    ['created at hour 25', (m) => (m.created = '2026-06-04T25:00:00Z'), ['created'], 'invalid_timestamp'],
    ['files that are not an array', (m) => (m.files = 'report.md'), ['files'], 'invalid_type'],
    ['a file path with a backslash', (m) => (m.files[0].path = 'pages\\a.md'), ['files', 0, 'path'], 'unclean_path'],
    ['a file path with a drive letter', (m) => (m.files[0].path = 'C:report.md'), ['files', 0, 'path'], 'unclean_path'],
    ['a file path with NUL', (m) => (m.files[0].path = 'report\u0000.md'), ['files', 0, 'path'], 'unclean_path'],
    ['a file path ending in "/"', (m) => (m.files[0].path = 'pages/'), ['files', 0, 'path'], 'unclean_path'],
    ['a file sha256 missing', (m) => delete m.files[2].sha256, ['files', 2, 'sha256'], 'missing_field'],
    ['a file size that is not whole', (m) => (m.files[1].size = 0.5), ['files', 1, 'size'], 'not_integer'],
    ['a file listed twice', (m) => (m.files[2].path = m.files[1].path), ['files', 2, 'path'], 'duplicate_path'],
    ['a file named manifest.json', (m) => (m.files[0].path = 'manifest.json'), ['files', 0, 'path'], 'reserved_path'],
    ['a file named .distributor.json', (m) => (m.files[0].path = '.distributor.json'), ['files', 0, 'path'], 'reserved_path'],
  ])('refuses %s', (_, change, path, code) => {
    const parsed = parseManifest(manifestWith(change));
    expect(parsed.ok).toBe(false);
    expect(brief(errorsOf(parsed.issues))).toContainEqual({ path, code, severity: 'error' });
  });

  it('warns about unknown fields and names equal but for case, without refusing', () => {
    const parsed = parseManifest(
      manifestWith((m) => ((m.tool = 'x'), (m.files[1].path = 'Report.md'), (m.files[2].path = 'MANIFEST.JSON'))),
    );
    expect(parsed.ok).toBe(true);
    expect(brief(parsed.issues)).toEqual([
      { path: ['files', 1, 'path'], code: 'case_collision', severity: 'warning' },
      { path: ['files', 2, 'path'], code: 'case_collision', severity: 'warning' },
      { path: ['tool'], code: 'unknown_field', severity: 'warning' },
    ]);
  });

  it('refuses a manifest that is not an object, naming the document', () => {
    expect(parseManifest('[]')).toMatchObject({ ok: false, issues: [{ code: 'not_object' }] });
    expect(validateManifest(null)).toMatchObject({
      ok: false,
      issues: [{ path: [], code: 'invalid_type', message: 'the document must be an object, not null' }],
    });
  });
});

describe('parseState at scale', () => {
  it('parses a state of 50,000 outputs and 50,000 manifest files, and finds the one bad record (time logged)', () => {
    const state: Json = sampleState({ extraFiles: 49_999 });
    const good = JSON.stringify(state);
    state.outputs[31_337].sha256 = 'sha256:nope';
    const bad = JSON.stringify(state);
    const started = performance.now();
    const parsed = parseState(good);
    const elapsedMs = performance.now() - started;
    console.log(`parseState on 50,000 outputs (${(good.length / 1e6).toFixed(1)} MB): ${elapsedMs.toFixed(0)} ms`);
    expect(parsed.status).toBe('managed');
    expect(brief(parseState(bad).issues)).toEqual([{ path: ['outputs', 31_337, 'sha256'], code: 'invalid_sha256', severity: 'error' }]);
  });

  it('keeps 100 issues per code of a state of 200,000 bad outputs, and counts the rest exactly in one summary per code', () => {
    const text = sampleBadOutputsStateText(200_000);
    const started = performance.now();
    const parsed = parseState(text);
    console.log(`parseState on 200,000 bad outputs (${(text.length / 1e6).toFixed(1)} MB): ${(performance.now() - started).toFixed(0)} ms`);
    expect(parsed.status).toBe('invalid');
    const codes = ['invalid_value', 'unknown_source_path', 'invalid_sha256', 'size_not_integer_literal', 'unknown_field'];
    for (const code of codes) expect(parsed.issues.filter((issue) => issue.code === code)).toHaveLength(100);
    const summaries = parsed.issues.filter((issue) => issue.code === MORE_LIKE_THIS);
    expect(summaries.map((issue) => [issue.omitted?.code, issue.omitted?.count]).sort()).toEqual(
      codes.map((code) => [code, 199_900]).sort(),
    );
    expect(parsed.issues).toHaveLength(codes.length * 101);
    // Counts stay exact: five findings on each of the 200,000 records, one of them a warning.
    expect(countIssues(parsed.issues)).toEqual({ errors: 800_000, warnings: 200_000 });
    const sha = summaries.find((issue) => issue.omitted?.code === 'invalid_sha256')!;
    expect(sha.path).toEqual(['outputs']);
    expect(sha.message).toBe(
      'and 199,900 more like this (invalid_sha256, under outputs): only the first 100 issues of each code are listed',
    );
    // Each summary follows the last issue of its code.
    const index = parsed.issues.indexOf(sha);
    expect(parsed.issues[index - 1]).toMatchObject({ code: 'invalid_sha256', path: ['outputs', 99, 'sha256'] });
    // Past the literal scan's own limit too, the summary says where they all are.
    expect(summaries.find((issue) => issue.omitted?.code === 'size_not_integer_literal')?.path).toEqual(['outputs']);
  });
});
