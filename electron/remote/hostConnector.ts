// The way to a workspace host (issue 15), the app's and the CLI's (cli/hostDoor.ts gives it the
// command's options): the system ssh and the agent there, as an AgentConnection, for the Session's
// HostRouter (service/hostLink.ts): ~/.ssh/config, the key agent and known_hosts as the operator set them up; the host's own
// settings (ssh config file, identity file, jump host) as ssh options; DISTRIBUTOR_INSPECTOR_SSH
// (for scripts) replaces the `ssh` program, its own options first; the host's `agent` field is the
// remote command; its `connect_timeout` bounds the handshake unless the CLI's --connect-timeout
// does. Must never add a host key option.

import { homedir } from 'node:os';
import { sshOptionsOf } from '../../shared/hostSettings';
import { APP_VERSION } from '../engine/appVersion';
import type { HostConnector } from '../service/hostLink';
import { parseSshUrl } from '../../shared/sshUrl';
import type { WorkspaceHost } from '../../shared/workspaceSchema';
import { AgentConnection, type HandshakeClock } from './agentConnection';
import { RemoteFailure } from './sshFailures';

export interface HostConnectorOptions {
  env?: Record<string, string | undefined>;
  /** Hears the agents' logs and skipped banner lines (the shells' log), with the host they came from. */
  onNotice?: (line: string, host: WorkspaceHost) => void;
  /** Hears each stderr line of ssh and the agent once connected (the CLI's --debug). */
  onRemoteLog?: (line: string) => void;
  /** The agent command of a host whose settings name none (the CLI's --agent). */
  agent?: string;
  /** Where the operator sets a host's agent command, for the agent_missing advice; default the app's Edit host dialog. */
  agentHint?: (host: WorkspaceHost) => string;
  /** The handshake's deadline for every host (the CLI's --connect-timeout); else the host's own `connect_timeout`, else AgentConnection's default. */
  connectTimeoutMs?: number;
  /** Where the operator can allow longer, for the connect_timeout advice; default the host's entry in the workspace file. */
  connectTimeoutHint?: string;
  /** The deadline's timer (tests: a fake clock). */
  clock?: HandshakeClock;
}

/** The app's operator sets a host's agent command in the host's dialog, not on a command line. */
const editHostHint = (host: WorkspaceHost) => `in the "Agent command" field of Edit host ${host.name}`;

/** Where the app's operator allows a slow host longer: the host's dialog (its `connect_timeout` in the file). */
const hostTimeoutHint = (host: WorkspaceHost) => `allow longer in the "Connect timeout" field of Edit host ${host.name}`;

export function sshHostConnector(options: HostConnectorOptions = {}): HostConnector {
  const env = options.env ?? process.env;
  return async (host, signal) => {
    const target = parseSshUrl(host.url);
    if (!target.ok) throw new RemoteFailure('ssh_failed', target.message);
    const agent = host.agent ?? options.agent;
    const connectTimeoutMs = options.connectTimeoutMs ?? host.connectTimeoutMs;
    return AgentConnection.connect({
      target: target.value,
      ...(agent !== undefined ? { agent } : {}),
      sshOptions: sshOptionsOf(host, env.HOME ?? homedir()),
      agentHint: (options.agentHint ?? editHostHint)(host),
      env,
      clientVersion: APP_VERSION,
      onNotice: (line) => options.onNotice?.(line, host),
      ...(options.onRemoteLog ? { onRemoteLog: options.onRemoteLog } : {}),
      ...(signal ? { signal } : {}),
      ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
      connectTimeoutHint: options.connectTimeoutHint ?? hostTimeoutHint(host),
      ...(options.clock ? { clock: options.clock } : {}),
    });
  };
}
