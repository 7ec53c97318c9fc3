// Which command the hints print (installedCommand.ts), with real temp PATH folders: the bare name only
// when the first `distributor-inspector` on PATH is a link to this package's bin, else the absolute
// `node …/bin/distributor-inspector.js`, quoted; never npx.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../testing/fixtures';
import { commandWords, installedCommand, isOnPath, packageBin } from './installedCommand';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeTempDir(dir);
});

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('installed-command-');
  dirs.push(dir);
  return dir;
}

describe('the command the hints print', () => {
  it('finds this package’s bin above the running module', async () => {
    const bin = packageBin();
    expect(path.basename(bin)).toBe('distributor-inspector.js');
    expect((await fs.stat(bin)).isFile()).toBe(true);
  });

  it('is the bare name when PATH holds a link to this package’s bin, as npm link makes', async () => {
    const dir = await tempDir();
    await fs.symlink(packageBin(), path.join(dir, 'distributor-inspector'));
    const env = { PATH: ['/nonexistent-folder', 'relative/ignored', dir].join(path.delimiter) };
    expect(isOnPath(packageBin(), env.PATH)).toBe(true);
    expect(commandWords(env)).toEqual(['distributor-inspector']);
    expect(installedCommand(env)).toBe('distributor-inspector');
  });

  it('is node and the absolute bin when PATH has no distributor-inspector', async () => {
    const dir = await tempDir();
    const env = { PATH: dir };
    expect(commandWords(env)).toEqual(['node', packageBin()]);
    expect(installedCommand(env)).toBe(`node ${packageBin()}`);
    expect(installedCommand({})).not.toContain('npx');
  });

  it('is not the bare name when the first distributor-inspector on PATH is another program', async () => {
    const other = await tempDir();
    const ours = await tempDir();
    await fs.writeFile(path.join(other, 'distributor-inspector'), '#!/bin/sh\necho someone else\n', { mode: 0o755 });
    await fs.symlink(packageBin(), path.join(ours, 'distributor-inspector'));
    expect(commandWords({ PATH: [other, ours].join(path.delimiter) })).toEqual(['node', packageBin()]);
    expect(commandWords({ PATH: [ours, other].join(path.delimiter) })).toEqual(['distributor-inspector']);
  });

  it('quotes a bin path the shell would otherwise split or expand', async () => {
    const dir = await tempDir();
    const bin = path.join(dir, 'a $(b) c', 'bin', 'distributor-inspector.js');
    await fs.mkdir(path.dirname(bin), { recursive: true });
    await fs.writeFile(bin, '');
    expect(packageBin(path.join(dir, 'a $(b) c', 'dist'))).toBe(bin);
    expect(commandWords({ PATH: '' }, bin)).toEqual(['node', bin]);
    expect(installedCommand({ PATH: '' }, bin)).toBe(`node '${bin}'`);
  });
});
