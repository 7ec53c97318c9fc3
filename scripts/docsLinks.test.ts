// The manual moved from the README into docs/: every relative link of README.md and docs/*.md must
// reach a file, and a link to a heading (`page.md#heading`) a heading of that page, as GitHub names it.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const pages = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(file, 'utf8').match(/^#+ .*$/gm) ?? [];
  return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, ''))));
}

function brokenLinks(page: string): string[] {
  const text = readFileSync(path.join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (link === undefined || /^[a-z]+:/.test(link)) continue;
    const [file = '', anchor] = link.split('#');
    const target = file === '' ? path.join(root, page) : path.resolve(root, path.dirname(page), file);
    if (!existsSync(target)) broken.push(`${link}: no such file`);
    else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) broken.push(`${link}: no such heading`);
  }
  return broken;
}

describe('the manual’s links', () => {
  it.each(pages)('%s links only to files and headings that exist', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it('finds a broken heading link (the check can fail)', () => {
    expect(anchorOf('Hosts in the app and the browser host')).toBe('hosts-in-the-app-and-the-browser-host');
    expect(anchorOf('Content diff (issue 13)')).toBe('content-diff-issue-13');
    expect(anchorsOf(path.join(root, 'docs/cli.md')).has('no-such-command')).toBe(false);
  });
});
