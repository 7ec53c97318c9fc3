// The per-test temp folder: there for the test and the hooks around it, gone once the test is over.

import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDirForTest } from './tempDirs';

describe('tempDirForTest', () => {
  const made: string[] = [];
  let fromHook = '';
  beforeEach(async () => {
    fromHook = await tempDirForTest('temp-dirs-');
    made.push(fromHook);
  });

  it('gives a test an existing folder of its own, also when made in a beforeEach', async () => {
    const own = await tempDirForTest('temp-dirs-');
    made.push(own);
    expect(existsSync(fromHook)).toBe(true);
    expect(existsSync(own)).toBe(true);
    expect(own).not.toBe(fromHook);
  });

  it('has removed the folders of the test before', () => {
    expect(made).toHaveLength(3);
    expect(made.slice(0, 2).filter((dir) => existsSync(dir))).toEqual([]);
    expect(existsSync(made[2]!)).toBe(true);
  });
});

describe('tempDirForTest and the afterEach hooks', () => {
  let dir = '';
  let thereInAfterEach = false;
  afterEach(() => {
    thereInAfterEach = existsSync(dir);
  });

  it('makes a folder', async () => {
    dir = await tempDirForTest('temp-dirs-');
    expect(existsSync(dir)).toBe(true);
  });

  it('kept it for the afterEach hooks, which may still need it (a mount to undo first), and removed it after them', () => {
    expect(thereInAfterEach).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });
});
