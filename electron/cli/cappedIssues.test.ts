// The summary issue of a capped state ("and 900 more like this") in the CLI's text and JSON, and a
// state too large to show. Real files in a temp dir.
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sampleBadOutputsStateText } from '../../shared/sampleDocuments';
import { STATE_FILE_NAME } from '../../shared/stateSchema';
import { makeTempDir } from '../testing/fixtureTrees';
import type { CliIo } from './command';
import { runCli } from './run';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('cli-capped')));
afterEach(async () => remove());

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    isTerminal: false,
    env: {},
    cwd: dir,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

function badDestination(name: string, outputs: number): void {
  mkdirSync(path.join(dir, name));
  writeFileSync(path.join(dir, name, STATE_FILE_NAME), sampleBadOutputsStateText(outputs));
}

describe('capped issues in the command line', () => {
  it('inspect prints the summary of each code past the cap and the exact counts', async () => {
    badDestination('bad', 1000);
    const { code, stdout } = await cli(['inspect', 'bad']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/issues\s+4000 errors, 1000 warnings/);
    expect(stdout).toContain('and 900 more like this (invalid_sha256, under outputs): only the first 100 issues of each code are listed');
  });

  it('inspect --json carries each summary issue with the code and count it stands for', async () => {
    badDestination('bad', 1000);
    const { stdout } = await cli(['inspect', 'bad', '--json']);
    const document = JSON.parse(stdout) as { issues: { code: string; omitted?: { code: string; count: number } }[] };
    expect(document.issues).toHaveLength(505);
    expect(document.issues.filter((issue) => issue.code === 'more_like_this').map((issue) => issue.omitted)).toContainEqual({
      code: 'invalid_sha256',
      count: 900,
    });
  });

  it('scan counts every error of a capped destination and lists its healthy siblings', async () => {
    badDestination('bad', 1000);
    mkdirSync(path.join(dir, 'empty'));
    const { stdout } = await cli(['scan', '.']);
    expect(stdout).toContain('4,000 errors, 1,000 warnings');
    expect(stdout).toContain('… and 3,990 more errors; inspect the destination for all of them');
    expect(stdout).toMatch(/empty\s+empty/);
  });

  it('says a state file is too large to show, with its size', async () => {
    mkdirSync(path.join(dir, 'big'));
    const file = path.join(dir, 'big', STATE_FILE_NAME);
    writeFileSync(file, '');
    truncateSync(file, 300 * 1024 * 1024);
    const { code, stdout } = await cli(['inspect', 'big']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/state file\s+300 MiB: too large to show; its issues are below/);
    expect(stdout).toContain('state_too_large');
    const json = JSON.parse((await cli(['inspect', 'big', '--json'])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ status: 'invalid', stateWithheld: { sizeBytes: 314_572_800 } });
    expect(json).not.toHaveProperty('state');
  });
});
