// remote/: may be imported by cli/. What went wrong when an agent could not be reached or stopped
// answering, named from ssh's exit code and stderr (OpenSSH's own wording), each with what to do.
// Pure. Must never suggest accepting a host key blindly: an unknown or changed key is refused, and
// the message gives its fingerprint to check with the host's administrator. Every command it
// suggests names the host as ssh and known_hosts do (the port included) and is shell-quoted.

import { shellCommand } from '../../shared/shellQuote';

export type RemoteFailureCode =
  | 'host_unreachable'
  | 'connect_timeout'
  | 'auth_failed'
  | 'host_key_unknown'
  | 'host_key_changed'
  | 'agent_missing'
  | 'agent_incompatible'
  | 'connection_lost'
  | 'protocol'
  | 'agent_flood'
  | 'ssh_failed';

export class RemoteFailure extends Error {
  constructor(
    readonly code: RemoteFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteFailure';
  }
}

export interface SshEnding {
  /** `[user@]host` as given to ssh. */
  host: string;
  /** The port of the ssh URL; absent when it gave none (ssh's default, or ~/.ssh/config's). */
  port?: number;
  agentCommand: string;
  /** The host's own ssh options (-F, -i, -J), kept in the commands the advice suggests. */
  sshOptions?: string[];
  /** Where the operator sets the agent command: the CLI's `--agent PATH`, the app's field. */
  agentHint?: string;
  exitCode: number | null;
  signal: string | null;
  stderr: string;
  clientVersion: string;
}

const INSTALL = 'npm install -g distributor-inspector';
const SSH_DEFAULT_PORT = 22;

/** The host alone, as known_hosts names it: `[host]:port` off the default port, as ssh records it. */
function knownHostsName(ending: SshEnding): string {
  const host = ending.host.slice(ending.host.lastIndexOf('@') + 1);
  return ending.port !== undefined && ending.port !== SSH_DEFAULT_PORT ? `[${host}]:${ending.port}` : host;
}

/** `ssh [-p PORT] [OPTION…] [user@]host`, as the operator would type it to reach the same sshd. */
function sshCommandFor(ending: Pick<SshEnding, 'host' | 'port' | 'sshOptions'>, options: string[] = []): string {
  const port = ending.port !== undefined && ending.port !== SSH_DEFAULT_PORT ? ['-p', String(ending.port)] : [];
  return shellCommand(['ssh', ...port, ...(ending.sshOptions ?? []), ...options, ending.host]);
}

const UNREACHABLE =
  /Could not resolve hostname|Connection refused|Connection timed out|Operation timed out|No route to host|Network is unreachable|Connection reset|Connection closed by|kex_exchange_identification|banner exchange/i;

/** The last meaningful lines of stderr, for a message: at most 3, each at most 300 characters. */
export function stderrTail(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.replace(/[\u0000-\u001f\u007f]/g, '').trim())
    .filter((line) => line !== '' && !line.startsWith('debug') && !/^@+$/.test(line));
  return lines
    .slice(-3)
    .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line))
    .join(' / ');
}

/** `SHA256:…` as ssh printed it: the changed-key warning, or `-v`'s "Server host key" line. */
export function hostKeyFingerprint(stderr: string): { type: string; fingerprint: string } | undefined {
  const changed = /The fingerprint for the (\S+) key sent by the remote host is\s+(SHA256:[A-Za-z0-9+/=]+)/.exec(stderr);
  if (changed) return { type: changed[1]!, fingerprint: changed[2]! };
  const verbose = /Server host key: (\S+) (SHA256:[A-Za-z0-9+/=]+)/.exec(stderr);
  if (verbose) return { type: verbose[1]!.replace(/^ssh-/, '').toUpperCase(), fingerprint: verbose[2]! };
  return undefined;
}

/** Whether ssh stopped at the host key (so a second, verbose try can learn its fingerprint). */
export function isHostKeyRefusal(stderr: string): boolean {
  return /Host key verification failed|No \S+ host key is known for|REMOTE HOST IDENTIFICATION HAS CHANGED/.test(stderr);
}

/** Why the agent could not be started (ssh or the agent ended before its hello). */
export function connectFailure(ending: SshEnding, probedStderr = ''): RemoteFailure {
  const { host, stderr, exitCode } = ending;
  const said = stderrTail(stderr);
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED/.test(stderr)) {
    const key = hostKeyFingerprint(stderr);
    return new RemoteFailure(
      'host_key_changed',
      `the host key of ${host} has CHANGED${key ? ` (it now sends the ${key.type} key ${key.fingerprint})` : ''}, so ssh refused to connect. ` +
        'Someone may be intercepting the connection, or the server was reinstalled: check the fingerprint with its administrator; ' +
        `only if it is right, remove the old key (${shellCommand(['ssh-keygen', '-R', knownHostsName(ending)])}) and connect once with ${sshCommandFor(ending)} to record the new one.`,
    );
  }
  if (isHostKeyRefusal(stderr)) {
    const key = hostKeyFingerprint(`${stderr}\n${probedStderr}`);
    return new RemoteFailure(
      'host_key_unknown',
      `${host} is not in your known_hosts${key ? ` (it offers the ${key.type} key ${key.fingerprint})` : ''}, and ssh in BatchMode cannot ask, so it refused to connect. ` +
        `Check the fingerprint with the host's administrator, then connect once with ${sshCommandFor(ending)} and accept it (or add it to known_hosts); ` +
        'distributor-inspector never accepts a host key by itself.',
    );
  }
  if (/Permission denied \(|Too many authentication failures|no more authentication methods/i.test(stderr)) {
    return new RemoteFailure(
      'auth_failed',
      `authentication to ${host} failed (${said}). ssh runs with BatchMode=yes, so it never asks for a password or a passphrase: ` +
        'load your key into the agent (ssh-add), or check IdentityFile for this host in ~/.ssh/config, and that its public key is in ~/.ssh/authorized_keys on the server.',
    );
  }
  if (exitCode === 255 && UNREACHABLE.test(stderr)) {
    return new RemoteFailure(
      'host_unreachable',
      `cannot reach ${host}: ${said}. Check the host name and port, that sshd runs there and the network between (${sshCommandFor(ending, ['-v'])} shows the details).`,
    );
  }
  if (/unknown command "?agent"?/.test(stderr)) {
    return new RemoteFailure(
      'agent_incompatible',
      `the distributor-inspector on ${host} has no agent command (it is older than this client, ${ending.clientVersion}): ` +
        `install the same version there: npm install -g distributor-inspector@${ending.clientVersion}`,
    );
  }
  if (exitCode === 127 || exitCode === 126 || /command not found|: not found|No such file or directory/.test(stderr)) {
    return new RemoteFailure(
      'agent_missing',
      `the agent "${ending.agentCommand}" is not installed on ${host}${said ? ` (the remote shell said: ${said})` : ''}: ` +
        `install it there with ${INSTALL}, or give its path ${ending.agentHint ?? 'with --agent PATH'}.`,
    );
  }
  const how = exitCode !== null ? `exit code ${exitCode}` : `signal ${ending.signal ?? 'unknown'}`;
  return new RemoteFailure(
    exitCode === 255 ? 'ssh_failed' : 'agent_missing',
    exitCode === 255
      ? `ssh to ${host} failed (${how})${said ? `: ${said}` : ''}. Try ${sshCommandFor(ending)} by hand to see why.`
      : `the agent "${ending.agentCommand}" on ${host} ended before its handshake (${how})${said ? `: ${said}` : ''}. ` +
          `Check that ${ending.agentCommand} --version runs there; install it with ${INSTALL}.`,
  );
}

/** Who was asked, before ssh has ended: what the advice of a connect that never finished needs. */
export type SshAsked = Pick<SshEnding, 'host' | 'port' | 'sshOptions' | 'agentCommand'>;

/**
 * No usable hello within the deadline (ssh was stopped): a network that drops packets, a login or remote
 * shell that hangs, an agent command that blocks. `preludeLines` > 0 means the remote shell ran, so the
 * wait was past the login. `more` says how to allow longer where the operator can (the CLI's option).
 */
export function connectTimeout(asked: SshAsked, waitedMs: number, preludeLines: number, stderr: string, more?: string): RemoteFailure {
  const said = stderrTail(stderr);
  const where =
    preludeLines > 0
      ? `it logged in and printed ${preludeLines} line${preludeLines === 1 ? '' : 's'}, but the agent "${asked.agentCommand}" never answered`
      : 'the network may drop packets, or sshd, the login or the agent there hangs';
  return new RemoteFailure(
    'connect_timeout',
    `${asked.host} did not complete the agent's handshake within ${formatSeconds(waitedMs)}, so ssh was stopped: ${where}${said ? ` (ssh said: ${said})` : ''}. ` +
      `${sshCommandFor(asked, ['-v'])} shows where it stops; once that logs in, ` +
      `check that ${asked.agentCommand} --version answers there${more ? `, or ${more}` : ''}.`,
  );
}

/** `60 s`, `1.5 s`: a deadline as the operator gave it. */
function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** The connection ended while calls or jobs were waiting for an answer. */
export function lostFailure(ending: SshEnding, waitingFor: string[]): RemoteFailure {
  const said = stderrTail(ending.stderr);
  const what = waitingFor.length > 0 ? `while ${waitingFor.join(', ')} ran` : '';
  return new RemoteFailure(
    'connection_lost',
    `the connection to ${ending.host} was lost ${what}${said ? ` (${said})` : ''}: its outcome is unknown. ` +
      'Inspect the destination again once the host is back; a replace planned before is refused as stale if it changed the destination, so applying again is safe.',
  );
}
