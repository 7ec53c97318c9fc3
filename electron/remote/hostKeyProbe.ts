// remote/: when ssh refused a host key without saying which, one more `ssh -v … true` against the
// same host reads the fingerprint it offers (from "Server host key"), so the refusal can name it.
// Runs only `true` if it connects; never passes a host key option.

import { spawn } from 'node:child_process';
import type { SshTarget } from '../../shared/sshUrl';
import { sshInvocation } from './sshInvocation';

/** The tail of ssh's stderr kept for naming a failure. */
export const STDERR_KEPT_CHARS = 64 * 1024;

/** ssh -v once more against the same host, to read the fingerprint it refused; runs only `true` if it connects. */
export async function probeHostKey(target: SshTarget, env: Record<string, string | undefined>, sshOptions: string[] = []): Promise<string> {
  const invocation = sshInvocation(target, 'true', env, ['-v', ...sshOptions]);
  return new Promise((resolve) => {
    const child = spawn(invocation.file, invocation.args, { stdio: ['ignore', 'ignore', 'pipe'], env: env as NodeJS.ProcessEnv });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT_CHARS)));
    const timer = setTimeout(() => child.kill('SIGTERM'), 15_000);
    child.once('error', () => resolve(''));
    child.once('close', () => {
      clearTimeout(timer);
      resolve(stderr);
    });
  });
}
