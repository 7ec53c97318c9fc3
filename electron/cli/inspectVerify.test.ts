import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, sha256Of, writeManagedDestination } from '../testing/fixtureTrees';
import type { CliIo } from './command';
import { runCli } from './run';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await makeTempDir('cli-inspect-verify')));
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

/** A destination whose outputs each drifted in one way. */
function driftedDestination(): string {
  const destination = path.join(dir, 'site');
  writeManagedDestination(destination, {
    'longer.html': 'abc',
    'edited.html': 'abc',
    'folder.html': 'f',
    'linked.html': 'l',
    'piped.html': 'p',
  });
  writeFileSync(path.join(destination, 'longer.html'), 'abcdef');
  writeFileSync(path.join(destination, 'edited.html'), 'xyz');
  rmSync(path.join(destination, 'folder.html'));
  mkdirSync(path.join(destination, 'folder.html'));
  rmSync(path.join(destination, 'linked.html'));
  symlinkSync('../elsewhere/secret.html', path.join(destination, 'linked.html'));
  rmSync(path.join(destination, 'piped.html'));
  execFileSync('mkfifo', [path.join(destination, 'piped.html')]);
  return destination;
}

describe('inspect --verify says exactly how each output differs', () => {
  it('prints the actual size, the full actual hash and what stands at a path that is not a file', async () => {
    const destination = driftedDestination();
    const { code, stdout } = await cli(['inspect', destination, '--verify']);
    expect(code).toBe(1);
    const line = (output: string) => stdout.split('\n').find((text) => text.includes(` ${output}: `)) ?? '';
    expect(line('longer.html')).toContain('size on disk 6 bytes, recorded 3 bytes');
    expect(line('edited.html')).toContain(`sha256 on disk ${sha256Of('xyz')}, recorded ${sha256Of('abc')}`);
    expect(line('folder.html')).toContain('not a regular file: a directory');
    expect(line('linked.html')).toContain('a symbolic link to ../elsewhere/secret.html (not followed)');
    expect(line('piped.html')).toContain('a FIFO (named pipe)');
  });

  it('gives the same facts in --json: actual size, actual sha256, the kind and a link target read with readlink', async () => {
    const destination = driftedDestination();
    const { code, stdout } = await cli(['inspect', destination, '--verify', '--json']);
    expect(code).toBe(1);
    const outputs = Object.fromEntries(
      (JSON.parse(stdout) as { verify: { outputs: { path: string }[] } }).verify.outputs.map((output) => [output.path, output]),
    );
    expect(outputs['longer.html']).toMatchObject({ status: 'size_mismatch', expected: { size: 3 }, actual: { size: 6 } });
    expect(outputs['edited.html']).toMatchObject({ status: 'hash_mismatch', actual: { sha256: sha256Of('xyz'), size: 3 } });
    expect(outputs['folder.html']).toMatchObject({ status: 'not_a_file', actual: { kind: 'directory' } });
    expect(outputs['linked.html']).toMatchObject({
      status: 'not_a_file',
      actual: { kind: 'symlink', linkTarget: '../elsewhere/secret.html' },
    });
    expect(outputs['piped.html']).toMatchObject({ status: 'not_a_file', actual: { kind: 'fifo' } });
  });
});
