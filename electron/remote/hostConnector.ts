// The app's way to a workspace host (issue 15): the system ssh and the agent there, as an
// AgentConnection, for the Session's HostRouter (service/hostLink.ts). The same connection the CLI
// uses: ~/.ssh/config, the key agent and known_hosts as the operator set them up; the host's own
// settings (ssh config file, identity file, jump host) as ssh options; DISTRIBUTOR_INSPECTOR_SSH
// (for scripts) replaces the `ssh` program, its own options first; the host's `agent` field is the
// remote command. Must never add a host key option.

import { homedir } from 'node:os';
import { sshOptionsOf } from '../../shared/hostSettings';
import { APP_VERSION } from '../engine/appVersion';
import type { HostConnector } from '../service/hostLink';
import { parseSshUrl } from '../../shared/sshUrl';
import { AgentConnection, type HandshakeClock } from './agentConnection';
import { RemoteFailure } from './sshFailures';

export interface HostConnectorOptions {
  env?: Record<string, string | undefined>;
  /** Hears the agents' logs and skipped banner lines, prefixed with the host (the shells' log). */
  onNotice?: (line: string) => void;
  /** The handshake's deadline (AgentConnection's default when absent: the app gives none). */
  connectTimeoutMs?: number;
  /** The deadline's timer (tests: a fake clock). */
  clock?: HandshakeClock;
}

export function sshHostConnector(options: HostConnectorOptions = {}): HostConnector {
  return async (host, signal) => {
    const target = parseSshUrl(host.url);
    if (!target.ok) throw new RemoteFailure('ssh_failed', target.message);
    return AgentConnection.connect({
      target: target.value,
      agent: host.agent,
      sshOptions: sshOptionsOf(host, (options.env ?? process.env).HOME ?? homedir()),
      // The app's operator sets it in the host's dialog, not on a command line.
      agentHint: `in the "Agent command" field of Edit host ${host.name}`,
      env: options.env ?? process.env,
      clientVersion: APP_VERSION,
      onNotice: (line) => options.onNotice?.(`${host.name}: ${line}`),
      ...(signal ? { signal } : {}),
      ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
  };
}
