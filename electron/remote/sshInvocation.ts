// remote/: may be imported by cli/. The command line that starts an agent: the system ssh, run as
// `ssh -T -o BatchMode=yes [-p PORT] [user@]HOST AGENT agent --stdio`, so that ~/.ssh/config aliases,
// ProxyJump, the key agent and known_hosts apply as the operator set them up. DISTRIBUTOR_INSPECTOR_SSH
// replaces `ssh` (interpreted by sh, as git does with GIT_SSH_COMMAND). Must never weaken host key
// checking (no StrictHostKeyChecking option is ever added) and never let a host be read as an option.

import { sshDestination, type SshTarget } from '../../shared/sshUrl';

export const SSH_COMMAND_ENV = 'DISTRIBUTOR_INSPECTOR_SSH';
export const DEFAULT_AGENT_COMMAND = 'distributor-inspector';

export interface SshInvocation {
  file: string;
  args: string[];
  /** How the operator would write it, for messages. */
  display: string;
  /**
   * Started as a process group of its own, stopped as one: the wrapper shell of an override does not
   * pass a signal on, so stopping only the shell would leave the command it started running.
   */
  ownGroup: boolean;
}

/** The ssh options and destination; `remote` is the command the remote shell runs. */
function sshArgs(target: SshTarget, remote: string, extra: string[]): string[] {
  return [
    '-T',
    '-o',
    'BatchMode=yes',
    ...extra,
    ...(target.port !== undefined ? ['-p', String(target.port)] : []),
    '--',
    sshDestination(target),
    remote,
  ];
}

export function sshInvocation(
  target: SshTarget,
  remoteCommand: string,
  env: Record<string, string | undefined>,
  extraOptions: string[] = [],
): SshInvocation {
  const args = sshArgs(target, remoteCommand, extraOptions);
  const override = env[SSH_COMMAND_ENV]?.trim();
  if (override)
    return { file: 'sh', args: ['-c', `${override} "$@"`, 'ssh', ...args], display: `${override} ${args.join(' ')}`, ownGroup: true };
  // ssh itself stays in the caller's group: a Ctrl-C at the terminal reaches it as it reaches us.
  return { file: 'ssh', args, display: `ssh ${args.join(' ')}`, ownGroup: false };
}

/** `AGENT agent --stdio`: the agent command as given (a path, or `node /opt/…/cli.js`), then the mode. */
export function agentRemoteCommand(agent: string | undefined): string {
  return `${agent?.trim() || DEFAULT_AGENT_COMMAND} agent --stdio`;
}
