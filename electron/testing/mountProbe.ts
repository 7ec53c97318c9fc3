// Whether the tests that make real mounts can run here: they need Linux, root and a kernel (or
// container) that lets us mount. Probed once by a real mount of the kind the test makes, so a
// refusal is a skip with its reason printed, never a failure halfway through a test.

import { execFileSync } from 'node:child_process';

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
