// The test sshd itself: a server that was given a port another sshd holds must not be taken for
// started (what made the bench's host-12 refuse its own key: it was another host's sshd). Runs two
// real sshd on 127.0.0.1, stopped by pid.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort, sshConfigOf, sshUnavailableReason, startSshServer, type SshServer } from './sshHarness';

const unavailable = sshUnavailableReason();
if (unavailable) console.warn(`sshHarness.test.ts skipped: ${unavailable}`);

/** Runs `true` through `sshCommand` (`ssh -F CONFIG`) on `host` (an alias, or 127.0.0.1 with its port): the exit code and ssh's stderr. */
async function login(sshCommand: string, host: string, port?: number): Promise<{ code: number; stderr: string }> {
  const [ssh, ...options] = sshCommand.split(' ');
  const portOption = port === undefined ? [] : ['-p', String(port)];
  try {
    await promisify(execFile)(ssh!, [...options, ...portOption, '-o', 'BatchMode=yes', host, 'true'], { timeout: 30_000 });
    return { code: 0, stderr: '' };
  } catch (cause) {
    return { code: (cause as { code?: number }).code ?? -1, stderr: String((cause as { stderr?: string }).stderr) };
  }
}

describe.skipIf(unavailable !== undefined)('startSshServer', () => {
  it('starts on another port when the one it picked is taken by another sshd, and logs in with its own key', async () => {
    const first = await startSshServer();
    let second: SshServer | undefined;
    try {
      const picks = [first.port];
      second = await startSshServer({ choosePort: async () => picks.shift() ?? freePort() });
      expect(second.port).not.toBe(first.port);
      expect(await fs.readFile(second.logFile, 'utf8')).toContain(`Bind to port ${first.port} on 127.0.0.1 failed: Address already in use`);
      expect(await login(await second.sshCommand(), '127.0.0.1', second.port)).toEqual({ code: 0, stderr: '' });
      expect(await login(await first.sshCommand(), '127.0.0.1', first.port)).toEqual({ code: 0, stderr: '' });
      // As the bench names its hosts: one client config, one known_hosts for all. Had the second
      // server been taken as started on the first one's port, both host keys would be listed for it,
      // and its own key refused there: Permission denied (publickey).
      const both = await sshConfigOf(second.dir, [
        { alias: 'host-1', server: first },
        { alias: 'host-2', server: second },
      ]);
      expect(await login(both, 'host-2')).toEqual({ code: 0, stderr: '' });
      // Killed and started again on its port: the pid file of the killed one is not taken for the new one's.
      second.killAll();
      await second.restart();
      expect(await login(both, 'host-2')).toEqual({ code: 0, stderr: '' });
    } finally {
      await Promise.all([first.stop(), second?.stop()]);
    }
  }, 120_000);
});
