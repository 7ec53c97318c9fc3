// docs/cli.md is held to the CLI: its usage blocks must be what --help prints now, every command
// must have one, and none may document a command that is gone. Run in-process (no build needed).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../electron/testing/cliCapture';
import { commandNames, updateReference } from './cliReference.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

async function help(args: string[]): Promise<string> {
  const run = await runCliCaptured(args, { cwd: root });
  expect(run.code, `distributor-inspector ${args.join(' ')}`).toBe(0);
  return run.stdout;
}

async function currentHelps(): Promise<Map<string, string>> {
  const usage = await help(['--help']);
  const helps = new Map([['usage', usage]]);
  for (const name of commandNames(usage)) helps.set(name, await help([name, '--help']));
  return helps;
}

describe('docs/cli.md', () => {
  it('holds every command’s --help exactly as the CLI prints it (else: node scripts/build.mjs && node scripts/cliReference.mjs)', async () => {
    const doc = readFileSync(`${root}/docs/cli.md`, 'utf8');
    expect(updateReference(doc, await currentHelps())).toBe(doc);
  });
});

describe('the reference generator', () => {
  const helps = new Map([
    ['usage', 'Usage: x\n\nCommands:\n  one A    does one\n  two-b    does two\n\nOptions\n'],
    ['one', 'Usage: x one A\n'],
    ['two-b', 'Usage: x two-b\n'],
  ]);

  it('reads the command names from the --help list', () => {
    expect(commandNames(helps.get('usage') as string)).toEqual(['one', 'two-b']);
  });

  it('rewrites a stale block and keeps the prose around it', () => {
    const doc = 'intro\n<!-- cli:one -->\n```text\nold\n```\n<!-- /cli:one -->\nprose\n';
    const updated = updateReference(doc, new Map([['one', 'Usage: x one A\n']]));
    expect(updated).toBe('intro\n<!-- cli:one -->\n```text\nUsage: x one A\n```\n<!-- /cli:one -->\nprose\n');
  });

  it('adds a section for a command the page lacks', () => {
    const updated = updateReference('# CLI\n', new Map([['two-b', 'Usage: x two-b\n']]));
    expect(updated).toContain('## two-b\n\n<!-- cli:two-b -->\n```text\nUsage: x two-b\n```\n<!-- /cli:two-b -->\n');
  });

  it('refuses a block for a command the CLI no longer has', () => {
    expect(() => updateReference('<!-- cli:gone -->\nx\n<!-- /cli:gone -->\n', helps)).toThrow(/"gone"/);
  });
});
