// A temp folder that lives as long as the test running when it is made: made under the system temp
// dir, and removed when that test finishes, passed or failed. For vitest only (it registers the
// removal with the running test); the end-to-end specs, which share ./fixtures, have their own.

import { onTestFinished } from 'vitest';
import { makeTempDir, removeTempDir } from './fixtures';

/** A fresh folder (its real path) for the running test; call it in the test or in a `beforeEach`. */
export async function tempDirForTest(prefix = 'inspector-test-'): Promise<string> {
  const dir = await makeTempDir(prefix);
  onTestFinished(() => removeTempDir(dir));
  return dir;
}
