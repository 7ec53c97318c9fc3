import { describe, expect, it } from 'vitest';
import { connectFailure, connectTimeout, lostFailure, type SshEnding } from './sshFailures';

const ending = (stderr: string, exitCode: number | null = 255): SshEnding => ({
  host: 'deploy@web',
  agentCommand: 'distributor-inspector',
  exitCode,
  signal: null,
  stderr,
  clientVersion: '1.2.3',
});

describe('connectFailure', () => {
  it.each([
    ['ssh: connect to host web port 22: Connection refused', 255, 'host_unreachable'],
    ['ssh: Could not resolve hostname web: Name or service not known', 255, 'host_unreachable'],
    ['deploy@web: Permission denied (publickey).', 255, 'auth_failed'],
    ['Host key verification failed.', 255, 'host_key_unknown'],
    ['bash: line 1: distributor-inspector: command not found', 127, 'agent_missing'],
    ['sh: 1: distributor-inspector: not found', 127, 'agent_missing'],
    ['distributor-inspector: unknown command "agent"', 2, 'agent_incompatible'],
  ])('names %s', (stderr, code, expected) => {
    expect(connectFailure(ending(stderr, code)).code).toBe(expected);
  });

  it('gives the fingerprint of a changed host key and never says to accept it blindly', () => {
    const failure = connectFailure(
      ending(
        '@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\nThe fingerprint for the ED25519 key sent by the remote host is\nSHA256:abcDEF123+/=.\nHost key verification failed.',
      ),
    );
    expect(failure.code).toBe('host_key_changed');
    expect(failure.message).toContain('SHA256:abcDEF123+/=');
    expect(failure.message).not.toMatch(/StrictHostKeyChecking/);
  });

  it("takes an unknown host's fingerprint from the verbose probe", () => {
    const failure = connectFailure(ending('Host key verification failed.'), 'debug1: Server host key: ssh-ed25519 SHA256:xyz');
    expect(failure.message).toContain('ED25519 key SHA256:xyz');
  });

  it('tells the CLI user --agent PATH and the app user the field of the host dialog when the agent is missing', () => {
    const missing = 'bash: line 1: distributor-inspector: command not found';
    expect(connectFailure(ending(missing, 127)).message).toContain('give its path with --agent PATH');
    const inApp = connectFailure({ ...ending(missing, 127), agentHint: 'in the "Agent command" field of Edit host web-1' });
    expect(inApp.message).toContain('give its path in the "Agent command" field of Edit host web-1.');
    expect(inApp.message).not.toContain('--agent');
  });

  it("keeps the host's own ssh options in the command it suggests", () => {
    const failure = connectFailure({
      ...ending('ssh: connect to host web port 22: Connection refused'),
      sshOptions: ['-F', '/etc/ci ssh'],
    });
    expect(failure.message).toContain("ssh -F '/etc/ci ssh' -v deploy@web");
  });
});

describe('lostFailure', () => {
  it('says the outcome is unknown and that a repeated apply is refused as stale', () => {
    const failure = lostFailure(ending('Connection to web closed by remote host.'), ['applyPlan']);
    expect(failure.code).toBe('connection_lost');
    expect(failure.message).toContain('while applyPlan ran');
    expect(failure.message).toContain('stale');
  });
});

describe('connectTimeout', () => {
  const asked = { host: 'deploy@web', port: 2222, agentCommand: '/opt/di/bin/distributor-inspector', sshOptions: ['-J', 'ops@bastion'] };

  it('names the host, the time waited, the ssh -v command with its port and options, and where to allow longer', () => {
    const failure = connectTimeout(asked, 90_000, 0, '', 'allow longer with --connect-timeout SECONDS');
    expect(failure.code).toBe('connect_timeout');
    expect(failure.message).toMatch(/^deploy@web did not complete the agent's handshake within 90 s, so ssh was stopped: /);
    expect(failure.message).toContain('ssh -p 2222 -J ops@bastion -v deploy@web shows where it stops');
    expect(failure.message).toContain('check that /opt/di/bin/distributor-inspector --version answers there');
    expect(failure.message).toMatch(/, or allow longer with --connect-timeout SECONDS\.$/);
  });

  it('says the login worked when the remote shell printed before the hello, and shows what ssh said', () => {
    const failure = connectTimeout({ ...asked, port: 22 }, 1500, 2, 'debug1: x\nWarning: slow DNS\n');
    expect(failure.message).toContain('within 1.5 s');
    expect(failure.message).toContain('it logged in and printed 2 lines, but the agent "/opt/di/bin/distributor-inspector" never answered');
    expect(failure.message).toContain('(ssh said: Warning: slow DNS)');
    expect(failure.message).toContain('ssh -J ops@bastion -v deploy@web shows');
  });

  it('quotes a host name for a shell', () => {
    expect(connectTimeout({ host: 'web;x', agentCommand: 'di' }, 60_000, 0, '').message).toContain("ssh -v 'web;x' shows");
  });
});

describe('the commands a failure suggests', () => {
  const changed = '@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\nHost key verification failed.';
  const onPort = (stderr: string, port: number | undefined, host = 'deploy@web'): SshEnding => ({
    ...ending(stderr),
    host,
    ...(port !== undefined ? { port } : {}),
  });

  it('name the host as known_hosts records it on a non-default port, and ssh with that port, quoted for a shell', () => {
    expect(connectFailure(onPort(changed, 2222)).message).toContain("(ssh-keygen -R '[web]:2222')");
    expect(connectFailure(onPort(changed, 2222)).message).toContain('connect once with ssh -p 2222 deploy@web to record the new one');
    expect(connectFailure(onPort('Host key verification failed.', 2222)).message).toContain(
      'connect once with ssh -p 2222 deploy@web and accept it',
    );
    expect(connectFailure(onPort('ssh: connect to host web port 2222: Connection refused', 2222)).message).toContain(
      '(ssh -p 2222 -v deploy@web shows the details)',
    );
    expect(connectFailure(onPort('kex error', 2222)).message).toContain('Try ssh -p 2222 deploy@web by hand');
  });

  it('keep the bare host name on the default port, given or not, without the user that known_hosts never holds', () => {
    for (const port of [undefined, 22]) {
      expect(connectFailure(onPort(changed, port)).message).toContain('(ssh-keygen -R web)');
      expect(connectFailure(onPort('Host key verification failed.', port)).message).toContain(
        'connect once with ssh deploy@web and accept it',
      );
    }
  });

  it('bracket an IPv6 address with its port as known_hosts does', () => {
    expect(connectFailure(onPort(changed, 2200, '::1')).message).toContain("(ssh-keygen -R '[::1]:2200')");
    expect(connectFailure(onPort(changed, undefined, '::1')).message).toContain('(ssh-keygen -R ::1)');
  });
});
