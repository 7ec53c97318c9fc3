import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDemoDir, parentFolderProblem, privateFolderProblem } from './demoFolder';

const folder = (mode: number, uid: number) => ({ isDirectory: () => true, isSymbolicLink: () => false, mode: 0o40000 | mode, uid });

describe('the default demo folder', () => {
  it('lives in the user cache folder, never in the shared temp folder', () => {
    expect(defaultDemoDir({}, '/home/ana', 'linux')).toBe('/home/ana/.cache/distributor-inspector/demo');
    expect(defaultDemoDir({ XDG_CACHE_HOME: '/home/ana/.xdg-cache' }, '/home/ana', 'linux')).toBe(
      '/home/ana/.xdg-cache/distributor-inspector/demo',
    );
    expect(defaultDemoDir({}, '/Users/ana', 'darwin')).toBe('/Users/ana/Library/Caches/distributor-inspector/demo');
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG spec says', () => {
    expect(defaultDemoDir({ XDG_CACHE_HOME: 'cache' }, '/home/ana', 'linux')).toBe('/home/ana/.cache/distributor-inspector/demo');
  });

  it('uses LOCALAPPDATA on Windows', () => {
    expect(defaultDemoDir({ LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' }, 'C:\\Users\\ana', 'win32')).toBe(
      path.join('C:\\Users\\ana\\AppData\\Local', 'distributor-inspector', 'demo'),
    );
  });
});

describe('a folder fit for the demo', () => {
  it('is a folder of the user that only the user can write', () => {
    expect(privateFolderProblem('/d', folder(0o700, 1000), 1000)).toBeNull();
    expect(privateFolderProblem('/d', folder(0o755, 1000), 1000)).toBeNull();
    expect(privateFolderProblem('/d', folder(0o775, 1000), 1000)).toContain('writable by group or others (mode 0775)');
    expect(privateFolderProblem('/d', folder(0o757, 1000), 1000)).toContain('writable by group or others');
    expect(privateFolderProblem('/d', folder(0o700, 1001), 1000)).toContain('belongs to another user (uid 1001, you are 1000)');
  });

  it('has a parent nobody else can rename it out of', () => {
    expect(parentFolderProblem('/tmp', { uid: 0, mode: 0o41777 }, 1000)).toBeNull();
    expect(parentFolderProblem('/home/ana', { uid: 1000, mode: 0o40755 }, 1000)).toBeNull();
    expect(parentFolderProblem('/srv/drop', { uid: 0, mode: 0o40777 }, 1000)).toContain('without the sticky bit (mode 0777)');
    expect(parentFolderProblem('/home/bob', { uid: 1001, mode: 0o40755 }, 1000)).toContain('belongs to another user (uid 1001)');
  });

  it('is not checked for owner and mode where the platform has none (Windows)', () => {
    expect(privateFolderProblem('C:\\d', folder(0o777, 0), undefined)).toBeNull();
    expect(parentFolderProblem('C:\\', { uid: 0, mode: 0o777 }, undefined)).toBeNull();
  });
});
