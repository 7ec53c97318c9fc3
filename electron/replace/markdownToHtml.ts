// The `markdown_to_html` transform: CommonMark (markdown-it) to a complete HTML document.
// Raw HTML in the markdown is escaped, never passed through; the output is deterministic (same
// bytes in, same bytes out), because apply re-renders and checks the hash the plan recorded.

import MarkdownIt from 'markdown-it';

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

const markdown = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false });

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Plain text of an inline token: what a reader sees of the heading, markup dropped. */
function inlineText(token: Token): string {
  let text = '';
  for (const child of token.children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline' || child.type === 'html_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
    else if (child.type === 'image') text += inlineText(child);
  }
  return text.replace(/\s+/g, ' ').trim();
}

function firstHeadingText(tokens: Token[]): string | undefined {
  for (let i = 0; i < tokens.length - 1; i++) {
    if (tokens[i]?.type === 'heading_open') {
      const inline = tokens[i + 1];
      if (inline?.type === 'inline') {
        const text = inlineText(inline);
        if (text !== '') return text;
      }
    }
  }
  return undefined;
}

/** `fallbackTitle` (the file's name) is used when the markdown has no heading. */
export function markdownToHtml(source: string, fallbackTitle: string): string {
  const env = {};
  const tokens = markdown.parse(source, env);
  const title = firstHeadingText(tokens) ?? fallbackTitle;
  const body = markdown.renderer.render(tokens, markdown.options, env);
  return [
    '<!doctype html>',
    '<html>',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '</head>',
    '<body>',
    body.trimEnd(),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
