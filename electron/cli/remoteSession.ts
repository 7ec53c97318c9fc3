// The CLI's side of ssh:// paths (issue 15): which arguments name a remote host, the one connection a
// command opens to its agent, and every remote failure as a CliError that says what to do. The heavy
// work runs on the agent through the same API as the local Session; the commands render its answers
// with the same code as local results, so the text and the --json are the same.
// Must never mix hosts in one command, nor send a local path to an agent.

// The connection (ssh, the API's schemas) is loaded when a command first connects (agentClient.ts):
// a local command only needs remotePaths.
import type { AgentConnection } from '../remote/agentConnection';
import { formatSshUrl, isSshUrl, parseSshUrl, sameHost, sshDestination, type SshTarget } from '../../shared/sshUrl';
import type { ApiResult } from '../../shared/api';
import { problem, type Problem, type Result } from '../../shared/result';
import { CliError, EXIT_INPUT, type CliIo } from './command';
import { printable } from './terminalText';
import type { OpenedDestination } from './door';

/** A command's parsed options: `--agent CMD` names the agent command, `--debug` shows the remote side's log lines. */
export type CommandOptions = Record<string, string | boolean | undefined>;

/** The CLI option that names the agent command on the host. */
export const agentOption = { agent: { type: 'string' } } as const;

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

/** Connects, runs `work`, closes; any remote failure becomes a CliError with what to do. */
export async function withAgent<T>(
  target: SshTarget,
  options: CommandOptions,
  io: CliIo,
  work: (connection: AgentConnection) => Promise<T>,
): Promise<T> {
  const attempt = await attemptWithAgent(target, options, io, work);
  if (attempt.ok) return attempt.value;
  const { code, message, details } = attempt.error;
  throw code === 'cli_error' ? new CliError(message, details!.exitCode as number) : new CliError(`${message} (${code})`, EXIT_INPUT);
}

/**
 * The same, with a failure as data (its RemoteFailure code, or `cli_error` for an answer the command
 * refused): what a scan of many hosts needs, where one host's failure must not end the others.
 */
export async function attemptWithAgent<T>(
  target: SshTarget,
  options: CommandOptions,
  io: CliIo,
  work: (connection: AgentConnection) => Promise<T>,
): Promise<Result<T, Problem>> {
  const agent = typeof options.agent === 'string' ? options.agent : undefined;
  const debug = options.debug === true;
  const { AgentConnection, RemoteFailure, APP_VERSION } = await import('./agentClient');
  let connection: AgentConnection | undefined;
  try {
    connection = await AgentConnection.connect({
      target,
      agent,
      env: io.env,
      clientVersion: APP_VERSION,
      onNotice: (line) => io.stderr(`distributor-inspector: ${line}\n`),
      onRemoteLog: debug ? (line) => io.stderr(`distributor-inspector: remote: ${line}\n`) : undefined,
    });
    return { ok: true, value: await work(connection) };
  } catch (cause) {
    const failure = connection?.lost ?? cause;
    if (failure instanceof RemoteFailure) return { ok: false, error: problem(failure.code, printable(failure.message)) };
    if (failure instanceof CliError) return { ok: false, error: problem('cli_error', failure.message, { exitCode: failure.exitCode }) };
    throw failure;
  } finally {
    await connection?.close();
  }
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
 * Opens DEST on the agent: as one destination of the workspace `workspace` names on that host (its
 * backups, history and configured source are that workspace's), else as a workspace of its own (the
 * backups and history of the agent user's state folder there, as for `replace ssh://…`).
 */
export async function openRemoteDestination(
  connection: AgentConnection,
  destination: SshTarget,
  workspace: SshTarget | undefined,
): Promise<OpenedDestination> {
  const named = {
    host: hostLabel(destination),
    undoDestination: formatSshUrl(destination),
    undoOptions: workspace ? ['--workspace', formatSshUrl(workspace)] : [],
  };
  if (!workspace) {
    const opened = valueOf(await connection.call('openWorkspace', { path: destination.path, asDestination: true }), 'openWorkspace');
    // A reply the schema accepts can still list no destination: say so rather than read past the end.
    const [only] = opened.destinations;
    if (opened.destinations.length !== 1 || !only)
      throw new CliError(
        `${printable(named.host)}: the agent's reply to openWorkspace is malformed: destinations lists ${opened.destinations.length}, ` +
          `not the one destination ${printable(destination.path)} (agent_protocol)`,
        EXIT_INPUT,
      );
    return { ...named, id: only.id };
  }
  const opened = valueOf(await connection.call('openWorkspace', { path: workspace.path }), 'openWorkspace');
  const wanted = destination.path.replace(/\/+$/, '');
  const entry = opened.destinations.find((candidate) => candidate.path.replace(/\/+$/, '') === wanted);
  if (!entry)
    throw new CliError(
      `${printable(destination.path)} is not a destination of the workspace ${printable(workspace.path)} on ${printable(named.host)} (it lists ${opened.destinations.length})`,
    );
  return { ...named, id: entry.id, ...(entry.source !== undefined ? { source: entry.source } : {}) };
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
