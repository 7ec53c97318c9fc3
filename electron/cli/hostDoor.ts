// A command's hosts through the one door (issue 25, step 2): the same in-process Session as a local
// command, made to reach hosts, opens the ssh:// path as a workspace of one host (or a workspace file
// that lists hosts, for `scan`); the command then names the destination `NAME:ID` as the app does, and
// the Session's one routing wrapper (service/hostRouting.ts) sends its calls to that host's agent.
// Loaded only when a command reaches a host: ssh and the agent connection are no part of a local
// command's start. The connector below is the CLI's only way to an agent (a lint rule holds it).
// Must never open a connection of its own beside the Session's, nor name a destination by the agent's bare id.

import './startupChunk'; // what every command's start shares, as one chunk of the build
import os from 'node:os';
import { formatSshUrl, type SshTarget } from '../../shared/sshUrl';
import type { HostConnector } from '../service/hostLink';
import { sshHostConnector, type HandshakeClock } from './agentClient';
import { CliError, EXIT_INPUT, type CliIo } from './command';
import { withLocalDoor, type CliPlaces, type DoorOptions, type HostDoor, type OpenedDestination } from './door';
import { connectTimeoutMs, hostLabel, type CommandOptions } from './hostPaths';
import { printable } from './terminalText';

/**
 * The one connector (remote/hostConnector.ts) with the command's options: the agent as the host's
 * `agent` or `--agent` names it; `--debug` shows the remote side's log lines; `--connect-timeout`
 * bounds each handshake, so a host that never answers fails instead of holding the command forever
 * (`clock`: the deadline's timer, for tests).
 */
export function cliHostConnector(options: CommandOptions, io: CliIo, clock?: HandshakeClock): HostConnector {
  const timeoutMs = connectTimeoutMs(options);
  return sshHostConnector({
    env: io.env,
    ...(typeof options.agent === 'string' ? { agent: options.agent } : {}),
    agentHint: () => 'with --agent PATH',
    onNotice: (line) => io.stderr(`distributor-inspector: ${line}\n`),
    ...(options.debug === true ? { onRemoteLog: (line: string) => io.stderr(`distributor-inspector: remote: ${line}\n`) } : {}),
    ...(timeoutMs !== undefined ? { connectTimeoutMs: timeoutMs } : {}),
    connectTimeoutHint: 'allow longer with --connect-timeout SECONDS',
    ...(clock ? { clock } : {}),
  });
}

/**
 * Runs `work` with a door to a Session that reaches hosts; the hosts' connections are closed after.
 * `session`: at most how many hosts connect at once, whether verify keeps a stat cache, and (tests) a
 * stand-in for ssh.
 */
export async function withHostDoor<T>(
  options: CommandOptions,
  io: CliIo,
  work: (door: HostDoor) => Promise<T>,
  session: Partial<DoorOptions> = {},
): Promise<T> {
  // The journal and backups are the host's: nothing of this machine's is read or written.
  const places: CliPlaces = { storage: { env: { ...io.env, HOME: io.env.HOME ?? os.homedir() } }, undoOptions: [] };
  return withLocalDoor(places, work, { connectHost: cliHostConnector(options, io), ...session });
}

/**
 * Opens an ssh:// path as a workspace of one host and waits for that host to settle: its destinations
 * (ids `NAME:ID`), or why it could not be reached as a CliError that says what to do.
 */
export async function openHost(door: HostDoor, target: SshTarget, asDestination: boolean) {
  const settled = await door.openHost(formatSshUrl(target), asDestination);
  const { failure } = settled.state;
  if (settled.state.state !== 'connected')
    throw new CliError(
      failure ? `${printable(failure.message)} (${failure.code})` : `${hostLabel(target)}: ${settled.state.state}`,
      EXIT_INPUT,
    );
  return settled.destinations;
}

/**
 * Opens DEST on its host: as one destination of the workspace `workspace` names on that host (its
 * backups, history and configured source are that workspace's), else as a workspace of its own (the
 * backups and history of the agent user's state folder there, as for `replace ssh://…`).
 */
export async function openHostDestination(
  door: HostDoor,
  destination: SshTarget,
  workspace: SshTarget | undefined,
): Promise<OpenedDestination> {
  const named = {
    host: hostLabel(destination),
    undoDestination: formatSshUrl(destination),
    undoOptions: workspace ? ['--workspace', formatSshUrl(workspace)] : [],
  };
  if (!workspace) {
    const destinations = await openHost(door, destination, true);
    // A reply the schema accepts can still list no destination: say so rather than read past the end.
    const [only] = destinations;
    if (destinations.length !== 1 || !only)
      throw new CliError(
        `${printable(named.host)}: the agent's reply to openWorkspace is malformed: destinations lists ${destinations.length}, ` +
          `not the one destination ${printable(destination.path)} (agent_protocol)`,
        EXIT_INPUT,
      );
    return { ...named, id: only.id };
  }
  const destinations = await openHost(door, workspace, false);
  const wanted = destination.path.replace(/\/+$/, '');
  const entry = destinations.find((candidate) => candidate.path.replace(/\/+$/, '') === wanted);
  if (!entry)
    throw new CliError(
      `${printable(destination.path)} is not a destination of the workspace ${printable(workspace.path)} on ${printable(named.host)} (it lists ${destinations.length})`,
    );
  return { ...named, id: entry.id, ...(entry.source !== undefined ? { source: entry.source } : {}) };
}
