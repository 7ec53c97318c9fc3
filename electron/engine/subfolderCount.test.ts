import { lstatSync, mkdirSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../testing/fixtureTrees';
import { mayHoldSubfolders } from './subfolderCount';

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => ({ dir, remove } = await makeTempDir('subfolder-count-test')));
afterAll(async () => remove());

/** Whether the temp folder is on a file system that counts subfolders (ext2/3/4, XFS, tmpfs) on Linux. */
function tempCounts(): boolean {
  return process.platform === 'linux' && [0xef53, 0x58465342, 0x01021994].includes(Number(statfsSync(dir).type) >>> 0);
}

describe('whether a folder may hold a subfolder', () => {
  it('says a folder with files only holds none, where the file system counts subfolders', (context) => {
    if (!tempCounts()) context.skip('the temp folder is on a file system that does not count subfolders: every folder is listed');
    const flat = path.join(dir, 'flat');
    mkdirSync(flat);
    writeFileSync(path.join(flat, 'a.html'), 'a');
    expect(mayHoldSubfolders(flat, lstatSync(flat))).toBe(false);
  });

  it('says a folder with a subfolder may, wherever it is', () => {
    const nested = path.join(dir, 'nested');
    mkdirSync(path.join(nested, '.distributor-staging'), { recursive: true });
    expect(mayHoldSubfolders(nested, lstatSync(nested))).toBe(true);
  });

  it('says a folder this process may search but not read may, so that its failing listing is never skipped', () => {
    const searchOnly = path.join(dir, 'search-only');
    mkdirSync(searchOnly, { mode: 0o100 });
    expect(mayHoldSubfolders(searchOnly, lstatSync(searchOnly))).toBe(true);
  });
});
