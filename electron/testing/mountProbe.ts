// Real mounts in tests. Whether the tests that make them can run here: they need Linux, root and a kernel (or
// container) that lets us mount. Probed once by a real mount of the kind the test makes, so a
// refusal is a skip with its reason printed, never a failure halfway through a test.

import { execFileSync } from 'node:child_process';
import { onTestFinished } from 'vitest';
import { makeTempDir, removeTempDir } from './fixtures';

/** Why a mount of this kind cannot be made here, or undefined when it can. */
export function mountUnavailable(kind: 'bind' | 'tmpfs'): string | undefined {
  if (process.platform !== 'linux') return `${kind} mounts are Linux's; this is ${process.platform}`;
  if (process.getuid?.() !== 0) return 'mounting needs root (CI runs these as root)';
  let probe: string | undefined;
  try {
    probe = execFileSync('mktemp', ['-d'], { encoding: 'utf8' }).trim();
    if (kind === 'bind') {
      execFileSync('mkdir', [`${probe}/a`, `${probe}/b`]);
      execFileSync('mount', ['--bind', `${probe}/a`, `${probe}/b`], { stdio: 'pipe' });
      execFileSync('umount', [`${probe}/b`], { stdio: 'pipe' });
    } else {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'pipe' });
      execFileSync('umount', [probe], { stdio: 'pipe' });
    }
    return undefined;
  } catch (cause) {
    return `mount is refused here: ${String((cause as { stderr?: Buffer }).stderr ?? cause).trim()}`;
  } finally {
    // --one-file-system: a probe whose unmount failed must not have the mounted folder emptied.
    if (probe) execFileSync('rm', ['-rf', '--one-file-system', probe]);
  }
}

/**
 * A fresh folder for the running test, and the list it pushes each mount point it makes in it to. When
 * the test finishes, passed or failed, the points are unmounted (the last made first) and only then
 * is the folder removed: removing a tree with a live bind mount in it would empty the mounted folder.
 * Call it in the test or in a `beforeEach`.
 */
export async function tempDirWithMounts(prefix: string): Promise<{ dir: string; mounted: string[] }> {
  const dir = await makeTempDir(prefix);
  const mounted: string[] = [];
  onTestFinished(async () => {
    for (const point of mounted.splice(0).reverse()) execFileSync('umount', [point]);
    await removeTempDir(dir);
  });
  return { dir, mounted };
}
