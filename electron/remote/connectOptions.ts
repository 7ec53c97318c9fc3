// remote/: what AgentConnection.connect is given, and the two ways it ends a connect that will not
// finish: the handshake's deadline and stopping ssh. Stopping must reach everything ssh's stand-in
// started (a DISTRIBUTOR_INSPECTOR_SSH shell's whole group), so no hung host leaves a process behind.

import type { ChildProcess } from 'node:child_process';
import type { SshTarget } from '../../shared/sshUrl';

export interface ConnectOptions {
  target: SshTarget;
  /** The agent command on the host (--agent); default `distributor-inspector`. */
  agent?: string;
  env: Record<string, string | undefined>;
  /** The host's own ssh options (-F, -i, -J from its workspace settings), before the destination. */
  sshOptions?: string[];
  /** Where the operator sets the agent command, for the agent_missing advice (the CLI's `--agent PATH`). */
  agentHint?: string;
  clientVersion: string;
  /** Hears what is worth telling the operator but not fatal: skipped banner lines, protocol complaints. */
  onNotice?: (line: string) => void;
  /** Hears each stderr line of ssh and the agent once connected (their logs; the CLI shows them with --debug). */
  onRemoteLog?: (line: string) => void;
  maxLineChars?: number;
  maxPreludeLines?: number;
  /** Aborted before the agent's hello: ssh (and all it started) is stopped and the connect rejects with the reason. */
  signal?: AbortSignal;
  /** The whole handshake's deadline, from ssh's start (a banner line does not extend it); default 60 s. */
  connectTimeoutMs?: number;
  /** Where the operator can allow longer (the CLI's `--connect-timeout SECONDS`), for the connect_timeout advice. */
  connectTimeoutHint?: string;
  /** The deadline's timer (tests: a fake clock). */
  clock?: HandshakeClock;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;

export interface HandshakeClock {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realHandshakeClock: HandshakeClock = {
  // ssh's own pipes keep the process alive while it connects: the deadline alone never should.
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Stops ssh, or an override's shell with everything it started (sshInvocation.ts `ownGroup`). */
export function stopSsh(child: ChildProcess, ownGroup: boolean): void {
  if (!ownGroup || child.pid === undefined) return void child.kill('SIGTERM');
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // The group is gone already: nothing left to stop.
  }
}
