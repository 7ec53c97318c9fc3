import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { destinationSafetyRefusal, isInsideOrEqual, realPathOf } from './safeDestination';
import { isUnderHomeRoot, matchingSystemFolder, parsePasswd, passwdHomes } from './systemFolders';
import { tempDirForTest } from '../testing/tempDirs';

let root: string;
beforeEach(async () => {
  root = await tempDirForTest('safe-');
});

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

describe('system folders, every home, and other owners', () => {
  const SYSTEM =
    process.platform === 'win32'
      ? []
      : ['/etc', '/usr', '/bin', '/sbin', '/lib', '/var', '/home', '/opt', '/boot', '/root', '/proc', '/sys', '/dev'];

  it.each(SYSTEM)('refuses a forced replace of %s, naming it as a system folder', async (folder) => {
    const refusal = await check(folder);
    expect(refusal?.code).toBe('destination_is_system_folder');
    expect(refusal?.message).toContain(folder);
  });

  it('refuses the Windows and macOS system folders by their own rules (pure)', () => {
    expect(matchingSystemFolder('C:\\Windows', 'win32')).toBe('C:\\Windows');
    expect(matchingSystemFolder('d:\\program files', 'win32')).toBe('d:\\Program Files');
    expect(matchingSystemFolder('/Users', 'darwin')).toBe('/Users');
    expect(matchingSystemFolder('/usr/local/share/site', 'linux')).toBeUndefined();
    expect(isUnderHomeRoot('C:\\Users\\carol', 'win32')).toBe(true);
    expect(isUnderHomeRoot('/Users/bob', 'darwin')).toBe(true);
    expect(isUnderHomeRoot('/home/alice/sites', 'linux')).toBe(false);
  });

  it("refuses any user's home from /etc/passwd, and a folder holding one, not only $HOME", async () => {
    const alice = path.join(root, 'users', 'alice');
    await fs.mkdir(alice, { recursive: true });
    const passwdFile = path.join(root, 'passwd');
    await fs.writeFile(passwdFile, `root:x:0:0:root:/root:/bin/sh\nalice:x:1001:1001::${alice}:/bin/sh\n`);
    const withPasswd = { passwdFile };
    expect((await check(alice, withPasswd))?.message).toContain('home directory of alice');
    expect((await check(alice, withPasswd))?.code).toBe('destination_is_home');
    expect((await check(path.join(root, 'users'), withPasswd))?.code).toBe('destination_is_home');
    await fs.mkdir(path.join(alice, 'site'));
    expect(await check(path.join(alice, 'site'), withPasswd)).toBeNull();
  });

  it('parses /etc/passwd homes, ignoring comments, blank lines and "/"', () => {
    const entries = parsePasswd(
      '# c\nroot:x:0:0:root:/root:/bin/sh\n\nnobody:x:65534:65534::/:/bin/false\nbad\nalice:x:1001:1001::/home/alice/:/bin/sh\n',
    );
    expect(passwdHomes(entries)).toEqual(['/home/alice', '/root']);
    expect(entries.find((entry) => entry.name === 'alice')?.uid).toBe(1001);
  });

  const otherOwnerIt = process.getuid?.() === 0 ? it : it.skip;
  otherOwnerIt('refuses a forced replace of a folder another user owns, unless allowed (needs root to chown)', async () => {
    const dest = path.join(root, 'dest');
    await fs.mkdir(dest);
    await fs.chown(dest, 4242, 4242);
    const refusal = await check(dest);
    expect(refusal?.code).toBe('destination_other_owner');
    expect(refusal?.message).toContain('--allow-other-owner');
    expect(refusal?.details?.ownerUid).toBe(4242);
    expect(await check(dest, { allowOtherOwner: true })).toBeNull();
    expect(await check(dest, { mode: 'replace' })).toBeNull();
  });
});
