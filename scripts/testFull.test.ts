// npm run test:full finds the files whose matrices npm test samples, without a list to keep.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('test:full', () => {
  it('runs in full every file built on the sampled crash and fault loops', () => {
    const listed = execFileSync(process.execPath, ['scripts/testFull.mjs', '--list'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
    expect(listed).toEqual(
      expect.arrayContaining([
        'electron/replace/applyCrash.test.ts',
        'electron/replace/recoveryCrash.test.ts',
        'electron/backup/restoreCrash.test.ts',
      ]),
    );
    expect(listed.every((file) => /\.test\.tsx?$/.test(file))).toBe(true);
  });
});
