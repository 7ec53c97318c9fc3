// docs/cli.md's usage blocks come from the CLI's own --help, never copied by hand. Between the markers
// `<!-- cli:NAME -->` and `<!-- /cli:NAME -->` (NAME `usage` for the top-level --help) this writes the
// fenced output of `distributor-inspector NAME --help`; the prose around them is the manual's own.
// A command the CLI has and the page lacks gets a section of its own at the end; a section for a
// command the CLI no longer has is an error. `node scripts/cliReference.mjs` rewrites the page from the
// built CLI (build first: node scripts/build.mjs); scripts/cliReference.test.ts fails when it is stale.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The commands `--help` lists, in its order (each line under "Commands:" starts with one). */
export function commandNames(usageText) {
  const lines = usageText.split('\n');
  const start = lines.indexOf('Commands:');
  if (start < 0) throw new Error('the CLI --help has no "Commands:" list');
  const names = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^ {2}([a-z][a-z-]*)\b/.exec(line);
    if (!match) break;
    names.push(match[1]);
  }
  return names;
}

const fence = (text) => `\`\`\`text\n${text.trimEnd()}\n\`\`\``;
const block = (name, text) => `<!-- cli:${name} -->\n${fence(text)}\n<!-- /cli:${name} -->`;

/**
 * The page with every marked block rewritten from `helps` (a Map from `usage` and each command name to
 * its --help text), and a section appended for each command it did not mention.
 */
export function updateReference(doc, helps) {
  const seen = new Set();
  const updated = doc.replace(/<!-- cli:([a-z-]+) -->\n[\s\S]*?<!-- \/cli:\1 -->/g, (_whole, name) => {
    const help = helps.get(name);
    if (help === undefined) throw new Error(`docs/cli.md has a block for "${name}", which the CLI's --help does not list`);
    seen.add(name);
    return block(name, help);
  });
  const missing = [...helps.keys()].filter((name) => !seen.has(name));
  return missing.reduce((page, name) => `${page.trimEnd()}\n\n## ${name}\n\n${block(name, helps.get(name))}\n`, updated);
}

/** Every --help text of the built CLI: `usage` for the top level, then one per command. */
export function builtHelps(root) {
  const help = (args) => {
    const run = spawnSync(process.execPath, [`${root}/dist/cli.js`, ...args], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`distributor-inspector ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
    return run.stdout;
  };
  const usage = help(['--help']);
  return new Map([['usage', usage], ...commandNames(usage).map((name) => [name, help([name, '--help'])])]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const page = `${root}/docs/cli.md`;
  const before = readFileSync(page, 'utf8');
  const after = updateReference(before, builtHelps(root));
  if (after === before) console.log('docs/cli.md: up to date');
  else {
    writeFileSync(page, after);
    console.log('docs/cli.md: usage blocks rewritten from the CLI --help');
  }
}
