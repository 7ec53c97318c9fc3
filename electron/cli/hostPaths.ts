// The CLI's side of ssh:// paths (issue 15) that every command's start may need: which arguments name
// a remote host, and the options that go with them. Light on purpose: the connection, and the Session
// that reaches the host, are loaded only when a path is on a host (hostDoor.ts).
// Must never mix hosts in one command, nor send a local path to an agent.

import { MAX_CONNECT_TIMEOUT_SECONDS } from '../../shared/hostSettings';
import { isSshUrl, parseSshUrl, sameHost, sshDestination, type SshTarget } from '../../shared/sshUrl';
import type { ApiResult } from '../../shared/api';
import { CliError } from './command';
import { printable } from './terminalText';

/** A command's parsed options: `--agent CMD` names the agent command, `--debug` shows the remote side's log lines. */
export type CommandOptions = Record<string, string | boolean | undefined>;

/**
 * The CLI options of every command that may reach a host: the agent command there, and how long its
 * handshake may take (`--connect-timeout SECONDS`).
 */
export const agentOption = { agent: { type: 'string' }, 'connect-timeout': { type: 'string' } } as const;

/** `--connect-timeout SECONDS` in milliseconds (the connection's own default when not given); refused unless 0 < SECONDS ≤ a day. */
export function connectTimeoutMs(options: CommandOptions): number | undefined {
  const text = options['connect-timeout'];
  if (text === undefined) return undefined;
  const seconds = typeof text === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : NaN;
  if (!(seconds > 0 && seconds <= MAX_CONNECT_TIMEOUT_SECONDS))
    throw new CliError(
      `--connect-timeout must be a number of seconds above 0 and at most ${MAX_CONNECT_TIMEOUT_SECONDS} (a day), not ${JSON.stringify(printable(String(text)))}`,
    );
  return Math.ceil(seconds * 1000);
}

/**
 * The paths of one command: all local, or all on one host (`names` says what each is, for messages).
 * A mix is refused: the agent reads its sources next to its destinations, no bytes travel.
 */
export function remotePaths(values: string[], names: string[], agent: string | boolean | undefined): SshTarget[] | undefined {
  const remote = values.map((value) => isSshUrl(value));
  if (!remote.some(Boolean)) {
    if (agent !== undefined) throw new CliError('--agent applies only to ssh:// paths (ssh://[user@]host[:port]/absolute/path)');
    return undefined;
  }
  if (agent !== undefined && (typeof agent !== 'string' || agent.trim() === '')) throw new CliError('--agent needs a command');
  const targets = values.map((value, index) => {
    if (!remote[index])
      throw new CliError(
        `${names[index]} ${JSON.stringify(printable(value))} is local but ${names[remote.indexOf(true)]} is on another host: ` +
          'give both as ssh:// paths on the same host (the agent reads the source there)',
      );
    const parsed = parseSshUrl(value);
    if (!parsed.ok) throw new CliError(`${names[index]}: ${printable(parsed.message)}`);
    return parsed.value;
  });
  const first = targets[0]!;
  for (const [index, target] of targets.entries())
    if (!sameHost(first, target)) throw new CliError(`${names[index]} is on another host than ${names[0]}: one command works on one host`);
  return targets;
}

/** The value of an answer, or its error as a CliError naming the code. */
export function valueOf<T>(result: ApiResult<T>, what: string): T {
  if (result.ok) return result.value;
  throw new CliError(`${what}: ${printable(result.error.message)} (${result.error.code})`);
}

/** `[user@]host[:port]`: how a command's questions and messages name the host. */
export function hostLabel(target: SshTarget): string {
  return `${sshDestination(target)}${target.port !== undefined ? `:${target.port}` : ''}`;
}

/**
 * The ssh:// paths of a command that may also name a workspace (`--workspace`), by name (`DEST`,
 * `SOURCE`, `--workspace`): all on one host, or undefined when all are local. Over ssh the history and
 * the backups are the host's (the agent keeps them where that workspace says), so `--history` and
 * `--backup-dir` are refused.
 */
export function remoteNamed(
  given: Record<string, string | undefined>,
  options: CommandOptions,
  command: string,
): Record<string, SshTarget> | undefined {
  const workspace = options.workspace;
  const named: Record<string, string | undefined> = { ...given, ...(typeof workspace === 'string' ? { '--workspace': workspace } : {}) };
  const names = Object.keys(named).filter((name) => named[name] !== undefined);
  const targets = remotePaths(
    names.map((name) => named[name]!),
    names,
    options.agent,
  );
  if (!targets) return undefined;
  if (options.history !== undefined)
    throw new CliError(`the history of ${command} over ssh is kept on that host (its agent journals it there): drop --history`);
  if (options['backup-dir'] !== undefined)
    throw new CliError(
      `the backups of ${command} over ssh are kept on that host, where its workspace says: drop --backup-dir (--workspace ssh://… names that workspace)`,
    );
  return Object.fromEntries(names.map((name, index) => [name, targets[index]!]));
}
