import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCleanRelativePath } from './cleanPath';
import { baseUrlProblem, choosePrimaryOutput, outputRuleFor, outputUrl } from './publishRules';

describe('outputRuleFor', () => {
  it('turns a .md file into a generated .html with the markdown_to_html transform', () => {
    expect(outputRuleFor('pages/report.md')).toEqual({ path: 'pages/report.html', kind: 'generated', transform: 'markdown_to_html' });
  });

  it('copies every other file as a source output under the same path', () => {
    expect(outputRuleFor('data/table.csv')).toEqual({ path: 'data/table.csv', kind: 'source' });
    expect(outputRuleFor('notes.MD')).toEqual({ path: 'notes.MD', kind: 'source' });
    expect(outputRuleFor('page.html')).toEqual({ path: 'page.html', kind: 'source' });
  });

  it('keeps every clean source path clean', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9 ._-]{1,8}$/).filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean(), (segments, markdown) => {
        const source = segments.join('/') + (markdown ? '.md' : '');
        fc.pre(isCleanRelativePath(source));
        expect(isCleanRelativePath(outputRuleFor(source).path)).toBe(true);
      }),
    );
  });
});

describe('outputUrl', () => {
  it('joins the base and the path with one slash, each segment URL-encoded', () => {
    expect(outputUrl('https://example.com/archive', 'pages/a b#1.html')).toBe('https://example.com/archive/pages/a%20b%231.html');
    expect(outputUrl('https://example.com/archive/', 'report.html')).toBe('https://example.com/archive/report.html');
  });

  it('gives back the path when the segments are decoded, for any path', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !s.includes('/')),
          { minLength: 1, maxLength: 3 },
        ),
        (segments) => {
          const url = outputUrl('https://example.com/base/', segments.join('/'));
          const rest = url.slice('https://example.com/base/'.length);
          expect(rest.split('/').map(decodeURIComponent)).toEqual(segments);
        },
      ),
    );
  });

  it('refuses base URLs that are not absolute http(s) or carry a query or fragment', () => {
    expect(baseUrlProblem('https://example.com/a')).toBeNull();
    expect(baseUrlProblem('ftp://example.com/a')).toContain('http');
    expect(baseUrlProblem('https://example.com/a?x=1')).toContain('query');
    expect(baseUrlProblem('/relative')).not.toBeNull();
  });
});

describe('choosePrimaryOutput', () => {
  const outputs = [
    { path: 'index.html', kind: 'source' as const },
    { path: 'report.html', kind: 'generated' as const },
  ];

  it('takes the configured output path', () => {
    expect(choosePrimaryOutput(outputs, 'report.html')).toEqual({ ok: true, value: 'report.html' });
  });

  it('refuses a configured path that is not an output', () => {
    expect(choosePrimaryOutput(outputs, 'missing.html')).toMatchObject({ ok: false });
  });

  it('defaults to index.html, else the only generated output, else none', () => {
    expect(choosePrimaryOutput(outputs)).toEqual({ ok: true, value: 'index.html' });
    expect(choosePrimaryOutput(outputs.slice(1))).toEqual({ ok: true, value: 'report.html' });
    expect(choosePrimaryOutput([...outputs.slice(1), { path: 'b.html', kind: 'generated' }])).toEqual({ ok: true, value: undefined });
    expect(choosePrimaryOutput([{ path: 'a.csv', kind: 'source' }])).toEqual({ ok: true, value: undefined });
  });
});
