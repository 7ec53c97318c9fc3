import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { httpUrlProblem, isHttpUrl, isSha256, isValidSize, matchesPlainHttpUrl, SHA256_PATTERN, sizeProblem } from './fields';
import { httpUrlField, sha256Field, sizeField } from './fieldSchemas';

const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;

describe('sha256 fields', () => {
  it('accepts "sha256:" and 64 lowercase hex digits', () => {
    expect(isSha256(digest)).toBe(true);
    expect(sha256Field.safeParse(digest).success).toBe(true);
  });

  it.each([
    ['uppercase hex', digest.toUpperCase().replace('SHA256', 'sha256')],
    ['63 digits', digest.slice(0, -1)],
    ['65 digits', `${digest}0`],
    ['no prefix', digest.slice(7)],
    ['another prefix', digest.replace('sha256:', 'sha512:')],
    ['a non-hex digit', `${digest.slice(0, -1)}g`],
    ['a trailing newline', `${digest}\n`],
    ['spaces', ` ${digest}`],
  ])('refuses %s', (_, candidate) => {
    expect(isSha256(candidate)).toBe(false);
    const result = sha256Field.safeParse(candidate);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe('custom');
  });

  it('answers as the pattern does on any text, digests with one unit changed among them (property)', () => {
    // One code unit of a digest replaced: near misses of every kind, past 127 and lone surrogates too.
    const nearDigest = fc
      .tuple(fc.nat({ max: 70 }), fc.integer({ min: 0, max: 0xffff }))
      .map(([at, code]) => `${digest.slice(0, at)}${String.fromCharCode(code)}${digest.slice(at + 1)}`);
    const text = fc.oneof(nearDigest, fc.string(), fc.constant(digest), fc.stringMatching(/^sha256:[0-9a-g]{63,65}$/));
    fc.assert(
      fc.property(text, (candidate) => {
        expect(isSha256(candidate)).toBe(SHA256_PATTERN.test(candidate));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('size fields', () => {
  it.each([0, 1, 1234, 2 ** 32, Number.MAX_SAFE_INTEGER])('accepts %d', (size) => {
    expect(sizeProblem(size)).toBeNull();
    expect(isValidSize(size)).toBe(true);
    expect(sizeField.safeParse(size).success).toBe(true);
  });

  it.each([
    [1.5, 'not_integer'],
    [0.1, 'not_integer'],
    [-1, 'negative_size'],
    [2 ** 53, 'size_too_large'],
    [1e300, 'size_too_large'],
  ])('refuses %d as %s, with one issue', (size, code) => {
    expect(sizeProblem(size)?.code).toBe(code);
    expect(isValidSize(size)).toBe(false);
    const result = sizeField.safeParse(size);
    expect(result.error?.issues).toHaveLength(1);
    expect((result.error?.issues[0] as { params?: { code?: string } } | undefined)?.params?.code).toBe(code);
  });

  it('refuses what is not a number: strings, NaN, infinities, booleans', () => {
    for (const value of ['1', Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, true, null]) {
      expect(isValidSize(value)).toBe(false);
      expect(sizeField.safeParse(value).success).toBe(false);
    }
  });

  it('has a predicate that agrees with the schema on every number', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.maxSafeInteger(), fc.constantFrom(2 ** 53, 2 ** 53 + 2, -0)), (size) => {
        expect(isValidSize(size)).toBe(sizeField.safeParse(size).success);
      }),
    );
  });
});

describe('http and https url fields', () => {
  it.each([
    'https://reports.example.com/archive/report.html',
    'http://example.com',
    'HTTPS://Example.com/a?b=c#d',
    'http://127.0.0.1:8080/x',
    'http://[::1]/',
    'https://example.com/a%20b',
  ])('accepts %s', (url) => {
    expect(httpUrlProblem(url)).toBeNull();
    expect(httpUrlField.safeParse(url).success).toBe(true);
  });

  it.each([
    ['', 'not empty'],
    ['report.html', 'starting "http://"'],
    ['/archive/report.html', 'starting "http://"'],
    ['//example.com/x', 'starting "http://"'],
    ['ftp://example.com/x', 'not ftp'],
    ['file:///etc/passwd', 'not file'],
    ['javascript:alert(1)', 'not javascript'],
    ['http:example.com', 'starting "http://"'],
    ['http:///example.com', 'starting "http://"'],
    ['http://', 'starting "http://"'],
    ['https://exa mple.com', 'without spaces'],
    [' https://example.com', 'without spaces'],
    ['https://example.com/\n', 'without spaces'],
    ['https://example.com\\x', '"\\"'],
    ['http://1.2.3.999/', 'does not parse'],
    ['http://example.com:99999/', 'does not parse'],
  ])('refuses %j (%s)', (url, because) => {
    expect(httpUrlProblem(url)).toContain(because);
    expect(isHttpUrl(url)).toBe(false);
    expect(httpUrlField.safeParse(url).success).toBe(false);
  });
});

describe('the plain http url of the quick path', () => {
  const label = fc.oneof(
    fc.stringMatching(/^[a-z0-9-]{1,8}$/),
    fc.constantFrom('xn--', 'xn--a', 'xn--zca', '0x1f', '0x', '255', '256', '1', 'a', '-', '--', 'localhost', 'A'),
  );
  const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
  const rest = fc.oneof(
    fc.constant(''),
    fc.stringMatching(/^:[0-9]{0,6}$/),
    fc.string({ maxLength: 12 }).map((text) => `/${text}`),
    fc
      .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 12 })
      .map((text) => `/${text}`),
    fc.constantFrom('/a%zz', '?q=1#f', '#', '/\\x', '/ x', '/[x]', '/%', ':99999'),
  );
  const nearPlainUrl = fc
    .tuple(fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'https:/'), host, rest, rest)
    .map(([scheme, name, first, second]) => `${scheme}${name}${first}${second}`);

  it('is a URL the full rules accept whenever it matches', () => {
    let matched = 0;
    fc.assert(
      fc.property(fc.oneof({ arbitrary: nearPlainUrl, weight: 4 }, { arbitrary: fc.string(), weight: 1 }), (url) => {
        if (!matchesPlainHttpUrl(url)) return;
        matched++;
        expect(URL.canParse(url), url).toBe(true);
        expect(httpUrlProblem(url), url).toBeNull();
      }),
      { numRuns: 5000 },
    );
    expect(matched).toBeGreaterThan(150);
  });

  it('takes the usual URL, and leaves an IPv4 address or a Punycode label to the full rules', () => {
    expect(matchesPlainHttpUrl('https://reports.example.com/archive/report.html?x=1#top')).toBe(true);
    expect(matchesPlainHttpUrl('http://127.0.0.1:8080/x')).toBe(false);
    expect(matchesPlainHttpUrl('https://xn--bcher-kva.example/')).toBe(false);
    expect(isHttpUrl('http://127.0.0.1:8080/x')).toBe(true);
  });
});
