import { describe, expect, it } from 'vitest';
import { markdownToHtml } from './markdownToHtml';

describe('markdownToHtml', () => {
  it('renders a complete HTML document with the first heading as its title', () => {
    const html = markdownToHtml('Intro\n\n# Quarterly *report*\n\n## Later\n\ntext', 'fallback');
    expect(html.startsWith('<!doctype html>\n<html>\n<head>')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<title>Quarterly report</title>');
    expect(html).toContain('<h1>Quarterly <em>report</em></h1>');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('escapes raw HTML in the markdown instead of passing it through', () => {
    const html = markdownToHtml('# T\n\n<script>alert(1)</script>\n\ninline <img src=x onerror=alert(1)>', 't');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('escapes the title', () => {
    expect(markdownToHtml('# a <b> & "c"', 'f')).toContain('<title>a &lt;b&gt; &amp; &quot;c&quot;</title>');
  });

  it('uses the fallback title when there is no heading', () => {
    expect(markdownToHtml('just text', 'notes')).toContain('<title>notes</title>');
  });

  it('never renders a javascript: link', () => {
    expect(markdownToHtml('[x](javascript:alert(1))', 'f')).not.toContain('href="javascript:');
  });

  it('is deterministic: the same markdown gives the same bytes', () => {
    const text = '# A\n\n- one\n- two\n\n```js\ncode()\n```\n';
    expect(markdownToHtml(text, 'a')).toBe(markdownToHtml(text, 'a'));
  });
});
