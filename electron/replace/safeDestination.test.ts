import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { destinationSafetyRefusal, isInsideOrEqual, realPathOf } from './safeDestination';
import { makeTempDir, removeTempDir } from '../testing/fixtures';

let root: string;
beforeEach(async () => {
  root = await makeTempDir('safe-');
});
afterEach(async () => removeTempDir(root));

const check = (destinationPath: string, overrides: Partial<Parameters<typeof destinationSafetyRefusal>[0]> = {}) =>
  destinationSafetyRefusal({
    destinationPath,
    sourceRealPath: path.join(root, 'source'),
    mode: 'force',
    homeDirectory: path.join(root, 'home'),
    ...overrides,
  });

describe('destinationSafetyRefusal', () => {
  it('accepts an ordinary folder', async () => {
    await fs.mkdir(path.join(root, 'dest'));
    expect(await check(path.join(root, 'dest'))).toBeNull();
  });

  it('refuses a filesystem root', async () => {
    expect((await check(path.parse(root).root))?.code).toBe('destination_is_root');
  });

  it('refuses the home directory and any folder that holds it', async () => {
    await fs.mkdir(path.join(root, 'home'));
    expect((await check(path.join(root, 'home')))?.code).toBe('destination_is_home');
    expect((await check(root, { sourceRealPath: '/nonexistent-source' }))?.code).toBe('destination_is_home');
  });

  it('refuses a destination that is a symbolic link, even to a harmless folder', async () => {
    await fs.mkdir(path.join(root, 'real'));
    await fs.symlink(path.join(root, 'real'), path.join(root, 'link'));
    expect((await check(path.join(root, 'link')))?.code).toBe('destination_is_symlink');
    expect((await check(path.join(root, 'link'), { mode: 'replace' }))?.code).toBe('destination_is_symlink');
  });

  it('refuses a destination holding a protected path only for a forced replace', async () => {
    await fs.mkdir(path.join(root, 'dest'));
    const protectedPaths = [path.join(root, 'dest', 'distributor-inspector.json')];
    expect((await check(path.join(root, 'dest'), { protectedPaths }))?.code).toBe('destination_contains_protected');
    expect(await check(path.join(root, 'dest'), { protectedPaths, mode: 'replace' })).toBeNull();
  });

  it('refuses a file as a destination', async () => {
    await fs.writeFile(path.join(root, 'file'), 'x');
    expect((await check(path.join(root, 'file')))?.code).toBe('destination_not_directory');
  });
});

describe('path helpers', () => {
  it('tells inside from a sibling with a shared prefix', () => {
    expect(isInsideOrEqual('/a/b/c', '/a/b')).toBe(true);
    expect(isInsideOrEqual('/a/b', '/a/b')).toBe(true);
    expect(isInsideOrEqual('/a/bc', '/a/b')).toBe(false);
  });

  it('resolves the real path of a path that does not exist yet through its existing ancestor', async () => {
    await fs.mkdir(path.join(root, 'real'));
    await fs.symlink(path.join(root, 'real'), path.join(root, 'link'));
    expect(await realPathOf(path.join(root, 'link', 'new', 'dir'))).toBe(path.join(root, 'real', 'new', 'dir'));
  });
});
